"""How far a strategy's priced cost moves between runs of the same work: the sample compared again and again.

Usage: .venv/bin/python benchmarks/rerun_spread.py [--runs 4] [--busy 0,2,1] [--probes 9] [--more]

Each run is `python -m engine compare` on the sample workload (samples/workload) in a fresh process, as a worker
would run a quarter's comparison: the default model, the runs' default strategies and settings. Runs take their
turn through the `--busy` load levels: that many busy-loop processes of this script's own beside the run (each
one bounded in time, and killed when the run ends), on top of whatever else the shared machine is doing. The load
average is sampled every 10 s during each run.

`noise.py` measured two runs in one process; a quarter's run is another process, often on another day and another
load. What the product needs is this figure: per strategy, the largest ratio between two runs' priced seconds
(max / min), which is the largest change that nothing but the machine produced. The alerts and the "what changed"
tables count a change as real only beyond it (workloads/reporting/rerun_spread.py).

Writes benchmarks/rerun_spread.json (after every run, so a stopped benchmark keeps its runs) and prints a table.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from busy import busy_processes
from machine import cpu_model

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SAMPLE = ROOT / "samples" / "workload"
OUT = HERE / "rerun_spread.json"
LONGEST_RUN_S = 3 * 3600  # a busy loop never outlives this, even if the script is killed before it can stop it


@contextmanager
def load_samples(into: list[float]):
    """The 1-minute load average every 10 s while the block runs."""
    stop = threading.Event()

    def sample():
        while not stop.wait(10):
            into.append(os.getloadavg()[0])

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def compare_once(probes: Path, busy: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        command = [sys.executable, "-m", "engine", "compare", "--docs", *map(str, sorted(SAMPLE.glob("*.txt"))),
                   "--probes", str(probes), "--json", str(report)]
        loads: list[float] = []
        start = time.perf_counter()
        with busy_processes(busy, LONGEST_RUN_S), load_samples(loads):
            subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        data = json.loads(report.read_text())
    return {
        "busy_processes": busy, "wall_s": wall, "load_average_mean": statistics.fmean(loads) if loads else None,
        "load_average_max": max(loads, default=None), "model": data["model"], "device": data["device"],
        "seconds": {name: s["seconds"] for name, s in data["strategies"].items() if not s.get("refused")},
    }


def summary(runs: list[dict]) -> dict:
    strategies = runs[0]["seconds"]
    rows = {}
    for name in strategies:
        seconds = [r["seconds"][name] for r in runs]
        rows[name] = {"min": min(seconds), "median": statistics.median(seconds), "max": max(seconds),
                      "largest_change_percent": (max(seconds) / min(seconds) - 1) * 100}
    return {"strategies": rows, "largest_change_percent": max(r["largest_change_percent"] for r in rows.values())}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--busy", default="0,2,1", help="busy-loop processes per run, taken in turn")
    parser.add_argument("--probes", type=int, default=9, help="the first N probes of the sample (it has 9)")
    parser.add_argument("--more", action="store_true", help="add the runs to those already in rerun_spread.json")
    args = parser.parse_args()
    levels = [int(n) for n in args.busy.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        probes = Path(tmp) / "probes.jsonl"
        probes.write_text("".join((SAMPLE / "probes.jsonl").read_text().splitlines(keepends=True)[: args.probes]))
        runs = json.loads(OUT.read_text())["runs"] if args.more else []
        for i in range(args.runs):
            runs.append(compare_once(probes, levels[i % len(levels)]))
            last = runs[-1]
            print(f"run {len(runs)}: {last['busy_processes']} busy, load {last['load_average_mean']:.1f}, "
                  f"wall {last['wall_s']:.0f} s", flush=True)
            out = {"date": datetime.now(UTC).isoformat(timespec="minutes"),
                   "device": runs[0]["device"], "cpu": cpu_model(), "cpu_count": os.cpu_count(),
                   "model": runs[0]["model"], "probes": args.probes, "runs": runs}
            if len(runs) > 1:
                out["summary"] = summary(runs)
            OUT.write_text(json.dumps(out, indent=2) + "\n")
    print(f"\n{out['model']}, {out['device']}, {out['date']}, {len(runs)} runs\n")
    print("| strategy | " + " | ".join(f"run {i + 1} ({r['busy_processes']} busy, load "
                                      f"{r['load_average_mean']:.1f})" for i, r in enumerate(runs))
          + " | largest change |")
    print("|---|" + "---:|" * (len(runs) + 1))
    for name, row in out["summary"]["strategies"].items():
        print(f"| {name} | " + " | ".join(f"{r['seconds'][name]:.1f}" for r in runs)
              + f" | {row['largest_change_percent']:.0f}% |")


if __name__ == "__main__":
    main()
