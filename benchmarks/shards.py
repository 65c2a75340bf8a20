"""One comparison on one worker, and split into shards on two worker processes (issue 41, item 5).

Usage (a PostgreSQL database of its own, which it migrates and writes to; a Redis database of its own, which it
empties first):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cp_shards_bench CELERY_BROKER_URL=redis://127.0.0.1:6379/6 \\
        .venv/bin/python benchmarks/shards.py [--questions 24] [--shard 6] [--rounds 2] [--json benchmarks/shards.json]

A workload of eight short contracts and `--questions` questions on them (three kinds of fact per contract) is
compared with SmolLM2-135M-Instruct in three strategies (chunked, retrieval, full_index_share_cached), in each round,
in this order:
- "one worker": one Celery worker, the run as one job (RUN_SHARD_QUESTIONS above the questions: today's path);
- "two workers": two worker processes, the run in shards of `--shard` questions.
Every worker is a real `celery worker -Q default,gpu --concurrency 1` with OMP_NUM_THREADS=1: on a 2-core host, two
processes of one thread each is the honest setting (two of two threads would share the same cores). The workers are
started, with the model loaded by a warm-up run, before the clock starts.

It records per run the wall time from queueing to its stored report, the computed seconds its calls were billed (the
CPU seconds of each model call, kept per call), the workers' own CPU seconds meanwhile (from /proc: the calls, plus
planning, retrieval indexes, the merge and the polling), and the report's answers, to check that every configuration
gave the same ones. Bounded: at most 96 questions and 3 rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script: the repository root

from benchmarks.machine import cpu_model  # noqa: E402
from benchmarks.page_load import _cpu_seconds, _descendants  # noqa: E402

MODEL = "SmolLM2-135M-Instruct"
STRATEGIES = ["chunked", "retrieval", "full_index_share_cached"]
SETTINGS = {"chunk_tokens": 256, "chunk_overlap": 16}  # the eight contracts in a few chunks: calls of some length
PARTIES = [("Northwind Logistics", "Dana Reyes", "Ireland", 90), ("Contoso Freight", "Omar Haddad", "France", 60),
           ("Fabrikam Metals", "Lena Novak", "Germany", 30), ("Tailspin Aviation", "Kofi Mensah", "Spain", 45),
           ("Litware Software", "Mei Tanaka", "Italy", 120), ("Adatum Energy", "Raúl Ortega", "Portugal", 15),
           ("Proseware Textiles", "Ines Berg", "Norway", 75), ("Wingtip Toys", "Sam Okafor", "Austria", 20)]
MAX_QUESTIONS, MAX_ROUNDS = 96, 3


def _args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=24)
    parser.add_argument("--shard", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if not (1 <= args.questions <= MAX_QUESTIONS and 1 <= args.shard < args.questions
            and 1 <= args.rounds <= MAX_ROUNDS):
        parser.error(f"--questions 1-{MAX_QUESTIONS}, --shard fewer than the questions, --rounds 1-{MAX_ROUNDS}")
    return args


def _env() -> dict:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "costplanner.settings", "DEBUG": "0",
           "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
           "OMP_NUM_THREADS": "1", "OMP_WAIT_POLICY": "PASSIVE"}
    for name in ("DATABASE_URL", "CELERY_BROKER_URL"):
        if name not in env:
            raise SystemExit(f"set {name}: a database and a Redis database of this benchmark's own")
    return env


def _workload(questions: int):
    """An organisation, its prices, and the workload: eight contracts, `questions` questions on them."""
    from django.contrib.auth.models import User

    from workloads.models import ApiPrice, Document, GpuPrice, Organisation, Probe, Workload

    organisation = Organisation.objects.create(name=f"Shards benchmark {secrets.token_hex(3)}")
    user = User.objects.create_user(f"shards-{secrets.token_hex(3)}")
    start = datetime(2026, 1, 1).date()
    GpuPrice.objects.create(organisation=organisation, device_class="cpu", per_hour="0.10", effective_from=start,
                            source="benchmark: a 2-core cloud VM")
    ApiPrice.objects.create(organisation=organisation, provider="example-api", model=MODEL, input_per_mtok="0.10",
                            output_per_mtok="0.30", effective_from=start, source="benchmark: an API price page")
    workload = Workload.objects.create(organisation=organisation, name="Eight contracts", kind=Workload.Kind.CONTRACTS,
                                       expected_volume=8, target_model=MODEL, api_provider="example-api",
                                       api_model=MODEL)
    facts = []
    for party, manager, law, days in PARTIES:
        text = (f"Services agreement between {party} and Acme Holdings.\n\nThe notice period is {days} days.\n\n"
                f"The governing law is the law of {law}.\n\nThe account manager of {party} is {manager}.\n")
        Document.objects.create(workload=workload, name=f"{party.split()[0].lower()}.txt", text=text, tokens=60,
                                lines=7, size_bytes=len(text.encode()))
        facts += [(f"What is the notice period of the agreement with {party}?", f"{days} days"),
                  (f"Which law governs the agreement with {party}?", law),
                  (f"Who is the account manager of {party}?", manager)]
    for question, answer in (facts * (1 + questions // len(facts)))[:questions]:
        Probe.objects.create(workload=workload, question=question, answer=answer)
    return workload, user


class Workers:
    def __init__(self, env: dict, folder: Path):
        self.env, self.folder, self.processes = env, folder, []

    def start(self, count: int) -> None:
        for _ in range(count):
            n = len(self.processes)
            log = self.folder / f"worker-{n}.log"
            self.processes.append((subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "costplanner", "worker", "-Q", "default,gpu",
                 "--concurrency", "1", "-n", f"shards{n}@%h", "--without-gossip", "--without-mingle",
                 "--loglevel", "INFO"], cwd=ROOT, env=self.env, stdout=log.open("wb"), stderr=subprocess.STDOUT,
                start_new_session=True), log))
        for process, log in self.processes[-count:]:
            _wait(lambda: " ready." in log.read_text() or process.poll() is not None, 180, "a worker to start")
            if process.poll() is not None:
                raise SystemExit(log.read_text()[-3000:])

    def cpu_seconds(self) -> float:
        return sum(_cpu_seconds(process.pid) for process, _ in self.processes)

    def stop(self) -> None:
        import signal

        for process, _ in self.processes:
            for pid in [process.pid, *_descendants(process.pid)]:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            process.wait(timeout=30)
        self.processes = []


def _wait(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"gave up after {seconds:.0f} s waiting for {what}")
        time.sleep(0.2)


def _run(workload, user, shard_questions: int) -> dict:
    """Queue the comparison, wait for its report; what it took."""
    from django.conf import settings

    from workloads.comparisons.starting import start_run
    from workloads.models import ComparisonRun, EngineCall

    settings.RUN_SHARD_QUESTIONS = shard_questions
    started = time.perf_counter()
    run = start_run(workload, user, STRATEGIES, confirm_refusals=True, confirm_duration=True, **SETTINGS)
    _wait(lambda: ComparisonRun.objects.get(pk=run.pk).finished, 3600, f"run {run.pk}")
    wall = time.perf_counter() - started
    run.refresh_from_db()
    if run.status != ComparisonRun.Status.SUCCEEDED:
        raise SystemExit(f"run {run.pk} {run.status}: {run.error}")
    calls = EngineCall.objects.filter(run=run)
    return {"run": run.pk, "shards": run.shards.count(), "wall_s": round(wall, 2),
            "call_seconds": round(sum(c.kept["bill"]["seconds"] for c in calls), 2), "calls": calls.count(),
            "made_by_merge": run.report["calls"]["made"], "device": run.device,
            "answers": {name: [p["output"] for p in s["probes"]] for name, s in run.report["strategies"].items()},
            "accuracy": {name: s["quality"]["accuracy"] for name, s in run.report["strategies"].items()}}


def _spread(values: list[float]) -> dict:
    return {"median": round(statistics.median(values), 2), "min": round(min(values), 2), "max": round(max(values), 2)}


def main() -> None:
    args = _args()
    env = _env()
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True,
                   timeout=600)
    os.environ.update({k: env[k] for k in ("SECRET_KEY", "DJANGO_SETTINGS_MODULE", "DEBUG")})
    import django

    django.setup()
    import redis
    from django.conf import settings

    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()  # this benchmark's own: no stale message
    workload, user = _workload(args.questions)
    warm_up, _ = _workload(2)
    configs = [("one worker", 1, args.questions), ("two workers", 2, args.shard)]
    folder = ROOT / "var" / "shards-benchmark"
    folder.mkdir(parents=True, exist_ok=True)
    began = datetime.now(timezone.utc)
    runs = []
    for round_ in range(1, args.rounds + 1):
        for name, count, shard in configs:
            workers = Workers(env, folder)
            try:
                workers.start(count)
                # Every worker loads the model before the clock starts: a warm-up run of two questions, in one
                # shard per worker.
                _run(warm_up, user, 2 // count)
                cpu_before = workers.cpu_seconds()
                measured = _run(workload, user, shard)
                measured["worker_cpu_s"] = round(workers.cpu_seconds() - cpu_before, 2)
            finally:
                workers.stop()
            runs.append({"round": round_, "config": name, "workers": count, **measured})
            print(f"round {round_}, {name}: {measured['wall_s']} s wall, {measured['call_seconds']} s computed in "
                  f"calls, {measured['worker_cpu_s']} s of the workers' CPU, {measured['shards']} shards",
                  flush=True)
    answers = {json.dumps(r["answers"], sort_keys=True) for r in runs}
    summary = {}
    for name, _, _ in configs:
        mine = [r for r in runs if r["config"] == name]
        summary[name] = {"wall_s": _spread([r["wall_s"] for r in mine]),
                         "call_seconds": _spread([r["call_seconds"] for r in mine]),
                         "worker_cpu_s": _spread([r["worker_cpu_s"] for r in mine])}
    one, two = summary["one worker"]["wall_s"]["median"], summary["two workers"]["wall_s"]["median"]
    result = {"machine": cpu_model(), "cpu_count": os.cpu_count(), "threads_per_worker": 1, "model": MODEL,
              "strategies": STRATEGIES, "settings": SETTINGS, "questions": args.questions, "shard": args.shard,
              "rounds": args.rounds, "started": began.isoformat(timespec="seconds"),
              "ended": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "same_answers_in_every_run": len(answers) == 1, "summary": summary,
              "speedup_two_workers": round(one / two, 2),
              "runs": [{k: v for k, v in r.items() if k != "answers"} for r in runs]}
    print(json.dumps({k: v for k, v in result.items() if k != "runs"}, indent=1))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
