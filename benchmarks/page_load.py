"""Pages under load: logged-in clients fetch the dashboard, a workload page, a finished run's page and an API read
while a comparison runs in a real worker on this machine (issue 24, section 7; the run page since issue 40).

Usage (a PostgreSQL database of its own, which it migrates and fills; a Redis database for the broker):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cp_bench CELERY_BROKER_URL=redis://127.0.0.1:6379/14 \\
        .venv/bin/python benchmarks/page_load.py [--clients 20] [--seconds 45] [--json benchmarks/page_load.json]

What it does, in order:
- migrates the database, loads the sample workload (`manage.py loadsample`) and gives it `--history` succeeded runs
  (20 by default) so that the pages have a history to list and chart. Their figures are made up (page content,
  not measurements), as a test's would be; the comparison that runs during the measurement is real.
- queues a real comparison of the sample in every strategy and starts a Celery worker for it as the embedded default
  does (`scripts/embedded.sh`: queue gpu, concurrency 1, its niceness), and gunicorn with `--workers` sync workers as
  the web image does (its command and deploy/gunicorn.conf.py), both on this machine;
- once the worker has claimed the run, logs `--clients` clients in and has each fetch the four addresses in turn,
  with no pause, for `--seconds`;
- reports per address the requests, errors, requests per second, p50, p95 and max latency, the load average,
  and the CPU seconds the web workers, the comparison worker, PostgreSQL and the clients took meanwhile; then cancels
  the run and stops what it started.

Bounded: at most 50 clients, 120 seconds of measurement and 50,000 requests; everything listens on and talks to
127.0.0.1 only (`--url` must be a loopback address).
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import re
import resource
import secrets
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script: the repository root

from benchmarks.machine import cpu_model  # noqa: E402  (after the path above)

MAX_CLIENTS, MAX_SECONDS, MAX_REQUESTS = 50, 120, 50_000
LOOPBACK = ("127.0.0.1", "localhost", "::1")
USER, PASSWORD = "loadtest", "load-test-password-" + "x" * 8
# Where the embedded default runs its comparison worker (scripts/embedded.sh): the same niceness here.
EMBEDDED_WORKER_NICENESS = "10"


def _args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=45)
    parser.add_argument("--max-requests", type=int, default=MAX_REQUESTS)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn sync workers")
    parser.add_argument("--port", type=int, default=8731)
    parser.add_argument("--url", help="use this running server (loopback only) instead of starting gunicorn")
    parser.add_argument("--history", type=int, default=20, help="succeeded runs the workload holds")
    parser.add_argument("--no-comparison", action="store_true", help="measure with no comparison running")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    if not 1 <= args.clients <= MAX_CLIENTS:
        parser.error(f"--clients must be 1 to {MAX_CLIENTS}")
    if not 1 <= args.seconds <= MAX_SECONDS:
        parser.error(f"--seconds must be 1 to {MAX_SECONDS}")
    if not 1 <= args.max_requests <= MAX_REQUESTS:
        parser.error(f"--max-requests must be 1 to {MAX_REQUESTS}")
    if args.url and urllib.parse.urlsplit(args.url).hostname not in LOOPBACK:
        parser.error("--url must be a loopback address: this script loads only this machine")
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        parser.error("set DATABASE_URL to a PostgreSQL database this benchmark may fill")
    if not os.environ.get("CELERY_BROKER_URL", "").startswith("redis://"):
        parser.error("set CELERY_BROKER_URL to a Redis database (the worker's broker)")
    return args


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("SECRET_KEY", secrets.token_urlsafe(40))
    env.update(DEBUG="0", ALLOWED_HOSTS="127.0.0.1,localhost", LOG_LEVEL="WARNING",
               DJANGO_SETTINGS_MODULE="costplanner.settings")
    return env


def _manage(env: dict, *argv: str) -> None:
    subprocess.run([sys.executable, "manage.py", *argv], cwd=ROOT, env=env, check=True, timeout=600,
                   stdout=subprocess.DEVNULL)


def _setup(args, env: dict) -> dict:
    """The sample workload with its history, a fresh comparison queued, and an API token: the ids to fetch."""
    _manage(env, "migrate", "--noinput", "-v", "0")
    _manage(env, "loadsample", "--user", USER, "--password", PASSWORD)
    os.environ.update({k: env[k] for k in ("SECRET_KEY", "DJANGO_SETTINGS_MODULE", "ALLOWED_HOSTS")})
    import django

    django.setup()
    from benchmarks.page_load_history import add_history
    from workloads.comparisons.starting import cancel_run, start_run
    from django.contrib.auth.models import User

    from workloads.models import ApiToken, ComparisonRun, Workload

    user = User.objects.get(username=USER)
    workload = Workload.objects.get(organisation=user.membership.organisation, name="Sample contracts")
    add_history(workload, args.history)
    for run in workload.runs.filter(status__in=("queued", "running")):
        cancel_run(run)  # left by an earlier benchmark (or loadsample's first run): only ours may run now
    subprocess.run([sys.executable, "-m", "celery", "-A", "costplanner", "purge", "-f", "-Q", "gpu,default"],
                   cwd=ROOT, env=env, check=True, timeout=120, stdout=subprocess.DEVNULL)
    finished = workload.runs.filter(status=ComparisonRun.Status.SUCCEEDED).latest("created_at", "pk")
    # Confirmed: the history's made-up rates put it at hours, and it is cancelled once measured.
    run = None if args.no_comparison else start_run(workload, user, confirm_refusals=True, confirm_duration=True)
    return {"workload": workload.pk, "run": run.pk if run else None, "finished": finished.pk,
            "token": ApiToken.issue(user),
            "runs": ComparisonRun.objects.filter(workload=workload).count()}


def _start(argv: list[str], env: dict, log: Path) -> subprocess.Popen:
    # In this script's session, as scripts/embedded.sh starts its web server and workers from one shell: a niceness
    # orders processes only within their session (Linux's autogroups), so a session of its own would void it.
    return subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)


def _descendants(pid: int) -> list[int]:
    found, pids = [], [pid]
    while pids:
        parent = pids.pop()
        try:
            children = [int(c) for c in Path(f"/proc/{parent}/task/{parent}/children").read_text().split()]
        except FileNotFoundError:
            continue
        found += children
        pids += children
    return found


def _stop(process: subprocess.Popen) -> None:
    """SIGTERM (gunicorn stops its workers; the Celery worker, its run cancelled, stops at its next step), then
    SIGKILL for it and whatever it forked that is left."""
    forked = _descendants(process.pid)
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=20)
    for pid in forked:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _wait(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"gave up after {seconds:.0f} s waiting for {what}")
        time.sleep(0.5)


def _cpu_seconds(root_pid: int) -> float:
    """User + system CPU seconds of a process and its children, from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in [root_pid, *_descendants(root_pid)]:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def postgres_cpu_seconds() -> float | None:
    """CPU seconds of this machine's PostgreSQL so far, whoever it served: every postgres process's own, and the
    postmaster's reaped children's (a backend that served a request and closed is gone from /proc but counted there);
    None where no postgres process can be read."""
    stats = {}
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry / "comm").read_text().strip() == "postgres":
                stats[int(entry.name)] = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
    ticks = sum(int(f[11]) + int(f[12]) for f in stats.values())  # utime, stime
    ticks += sum(int(f[13]) + int(f[14]) for f in stats.values() if int(f[1]) not in stats)  # the postmaster's
    return ticks / os.sysconf("SC_CLK_TCK") if stats else None


def _own_cpu_seconds() -> float:
    """User + system CPU seconds of this process: the clients' threads (its children, the servers, are not in it)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Client:
    """One logged-in person: a session cookie and the CSRF dance, over plain HTTP."""

    def __init__(self, base: str, token: str):
        self.base, self.token = base, token
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def log_in(self) -> None:
        page = self.opener.open(self.base + "/accounts/login/", timeout=60).read().decode()
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        body = urllib.parse.urlencode({"username": USER, "password": PASSWORD, "csrfmiddlewaretoken": csrf}).encode()
        request = urllib.request.Request(self.base + "/accounts/login/", data=body,
                                         headers={"Referer": self.base + "/accounts/login/"})
        landed = self.opener.open(request, timeout=60)
        if urllib.parse.urlsplit(landed.url).path != "/":
            raise SystemExit(f"logging in failed: landed on {landed.url}")

    def fetch(self, path: str) -> tuple[float, int]:
        headers = {"Authorization": f"Bearer {self.token}"} if path.startswith("/api/") else {}
        started = time.perf_counter()
        try:
            with self.opener.open(urllib.request.Request(self.base + path, headers=headers), timeout=60) as response:
                response.read()
                status = response.status
        except urllib.error.HTTPError as exc:
            status = exc.code
        except (urllib.error.URLError, TimeoutError, ConnectionError):
            status = 0
        return time.perf_counter() - started, status


def _measure(clients: list[Client], paths: dict[str, str], seconds: float, max_requests: int) -> dict:
    samples: dict[str, list[tuple[float, int]]] = {name: [] for name in paths}
    lock, deadline = threading.Lock(), time.monotonic() + seconds
    count = [0]

    def loop(i: int, client: Client) -> None:
        names = list(paths)
        k = i  # each client starts at another address, so the mix is even from the first second
        while time.monotonic() < deadline:
            with lock:
                if count[0] >= max_requests:
                    return
                count[0] += 1
            name = names[k % len(names)]
            k += 1
            sample = client.fetch(paths[name])
            with lock:
                samples[name].append(sample)

    threads = [threading.Thread(target=loop, args=(i, c), daemon=True) for i, c in enumerate(clients)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 90)
    return {"seconds": time.monotonic() - started, "samples": samples}


def _summary(samples: list[tuple[float, int]], seconds: float) -> dict:
    ok = sorted(latency for latency, status in samples if status == 200)
    if not ok:
        return {"requests": len(samples), "errors": len(samples)}
    quantiles = statistics.quantiles(ok, n=100, method="inclusive") if len(ok) > 1 else [ok[0]] * 99
    return {"requests": len(samples), "errors": len(samples) - len(ok), "per_second": round(len(samples) / seconds, 2),
            "p50_ms": round(quantiles[49] * 1000), "p95_ms": round(quantiles[94] * 1000),
            "max_ms": round(ok[-1] * 1000)}


def main() -> None:
    args = _args()
    env = _environment()
    env.setdefault("WORKER_NICENESS", EMBEDDED_WORKER_NICENESS)
    ids = _setup(args, env)
    from workloads.models import ComparisonRun

    logs = ROOT / "var" / "page_load"
    logs.mkdir(parents=True, exist_ok=True)
    started: list[subprocess.Popen] = []
    try:
        worker = None
        if ids["run"]:
            worker = _start([sys.executable, "-m", "celery", "-A", "costplanner", "worker", "-Q", "gpu", "-n",
                             "gpu-load@%h", "--concurrency", "1", "--without-gossip", "--without-mingle",
                             "--loglevel", "INFO"], env, logs / "worker.log")
            started.append(worker)
        web = None
        base = args.url.rstrip("/") if args.url else f"http://127.0.0.1:{args.port}"
        if not args.url:
            # The web image's command (Dockerfile), its access log included, bound to loopback.
            web = _start([sys.executable, "-m", "gunicorn", "costplanner.wsgi", "--config", "deploy/gunicorn.conf.py",
                          "--access-logfile", "-", "--workers", str(args.workers),
                          "--bind", f"127.0.0.1:{args.port}"], env, logs / "gunicorn.log")
            started.append(web)
            _wait(lambda: _answers(base), 60, "gunicorn to answer")
        run = None
        if ids["run"]:
            _wait(lambda: ComparisonRun.objects.get(pk=ids["run"]).status == "running", 120,
                  "the worker to claim the comparison")
            run = ComparisonRun.objects.get(pk=ids["run"])
        clients = [Client(base, ids["token"]) for _ in range(args.clients)]
        for client in clients:
            client.log_in()
        paths = {"dashboard": "/", "workload page": f"/workloads/{ids['workload']}/",
                 "run page": f"/runs/{ids['finished']}/", "API runs list": f"/api/workloads/{ids['workload']}/runs"}
        for client in clients[:1]:  # every page once, so that no figure includes a first request's set-up
            for path in paths.values():
                client.fetch(path)
        cpu_before = {"web": _cpu_seconds(web.pid) if web else None,
                      "worker": _cpu_seconds(worker.pid) if worker else None,
                      "postgres": postgres_cpu_seconds(), "clients": _own_cpu_seconds()}
        load_before = os.getloadavg()
        measured = _measure(clients, paths, args.seconds, args.max_requests)
        seconds = measured["seconds"]
        cpu = {name: round(_cpu_seconds(p.pid) - cpu_before[name], 1) if p else None
               for name, p in (("web", web), ("worker", worker))}
        # Everything else that shared the cores: PostgreSQL (whoever it served), and this script's client threads.
        postgres = postgres_cpu_seconds()
        cpu["postgres"] = None if postgres is None else round(postgres - cpu_before["postgres"], 1)
        cpu["clients"] = round(_own_cpu_seconds() - cpu_before["clients"], 1)
        load_after = os.getloadavg()
        # What the kernel was told: the worker's pool process runs the comparison.
        pool_niceness = [os.getpriority(os.PRIO_PROCESS, p) for p in _descendants(worker.pid)] if worker else []
        if run is not None:
            run.refresh_from_db()
        everything = [s for samples in measured["samples"].values() for s in samples]
        result = {
            "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "device": f"{cpu_model()}, {os.cpu_count()} CPU cores, {os.uname().nodename}",
            "clients": args.clients, "gunicorn_workers": None if args.url else args.workers,
            "runs_in_workload": ids["runs"], "seconds": round(seconds, 1),
            "comparison": None if run is None else {
                "status": run.status, "progress": f"{run.progress_done}/{run.progress_total}",
                "WORKER_NICENESS": env["WORKER_NICENESS"], "pool_niceness": pool_niceness},
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in load_after],
            "cpu_seconds": cpu,
            "pages": {name: _summary(samples, seconds) for name, samples in measured["samples"].items()},
            "all": _summary(everything, seconds),
        }
    finally:
        if ids["run"]:
            from workloads.comparisons.starting import cancel_run

            cancel_run(ComparisonRun.objects.get(pk=ids["run"]))
        for process in reversed(started):
            _stop(process)
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


def _answers(base: str) -> bool:
    try:
        urllib.request.urlopen(base + "/accounts/login/", timeout=5).read()
        return True
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


if __name__ == "__main__":
    main()
