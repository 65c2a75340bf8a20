"""Does a strategy's priced cost survive a noisy machine? The sample workload, compared twice in a row.

Usage: .venv/bin/python benchmarks/noise.py [--probes 6] [--busy 2]

One process loads the default model once and runs engine.strategies.compare on the sample workload
(samples/workload) twice, with the README's small budget (window 256, top-k 256, 2 global
blocks, exact indexer) and the strategies chunked, full_index_share and full_dense. During
the second run the script keeps `--busy` busy-loop processes of its own running (each one
bounded in time, and killed when the run ends). For every strategy it reports how far the
priced cost (on a CPU the computed seconds; on CUDA the event time) and, beside it, the
wall time moved between the two runs: second / first, and that as a percentage change.
The target is a priced cost that moves by less than 25%.

Writes benchmarks/noise.json and prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: the repository root

from busy import busy_processes  # noqa: E402
from engine.core.openmp import wait_passively  # noqa: E402

wait_passively()  # before torch loads, as `python -m engine` and the worker do

import torch  # noqa: E402

from engine.strategies import compare as cmp  # noqa: E402
from engine.attention import AttentionConfig  # noqa: E402
from engine.core.documents import read_documents  # noqa: E402
from engine.model.loader import load_model  # noqa: E402
from engine.core.probes import load_probes  # noqa: E402

HERE = Path(__file__).resolve().parent
SAMPLE = HERE.parent / "samples" / "workload"
STRATEGIES = ["chunked", "full_index_share", "full_dense"]
# The README's small budget: 704 tokens per query block, so that the sparse modes really choose.
ATTENTION = AttentionConfig(window=256, topk=256, global_blocks=2, indexer="exact")
TARGET = 0.25


def run(lm, work: cmp.ComparisonWork) -> tuple[dict, float]:
    start = time.perf_counter()
    report = cmp.compare(lm, work)
    return report, time.perf_counter() - start


def moved(first: float, second: float) -> dict:
    return {"first": first, "second": second, "ratio": second / first, "percent": (second / first - 1) * 100}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--probes", type=int, default=6, help="the first N probes of the sample (it has 9)")
    parser.add_argument("--busy", type=int, default=2, help="busy-loop processes during the second run")
    args = parser.parse_args()
    lm = load_model()
    work = cmp.ComparisonWork(
        read_documents(sorted(SAMPLE.glob("*.txt"))), load_probes(SAMPLE / "probes.jsonl")[: args.probes],
        strategies=STRATEGIES, attention=ATTENTION, diagnostics=False,
    )
    quiet, quiet_wall = run(lm, work)
    print(f"first run done in {quiet_wall:.0f} s; second run with {args.busy} busy processes", flush=True)
    # Bounded at four times the first run's length: ample for the second, and no loop outlives a lost script.
    with busy_processes(args.busy, 4 * quiet_wall + 60):
        loaded, loaded_wall = run(lm, work)
    rows = []
    for name in STRATEGIES:
        a, b = quiet["strategies"][name], loaded["strategies"][name]
        rows.append({
            "strategy": name, "calls": a["calls"], "tflop": a["flops"]["total"] / 1e12,
            "priced_seconds": moved(a["seconds"], b["seconds"]),
            "wall_seconds": moved(a["wall_seconds"], b["wall_seconds"]),
            "rate_median": moved(a["rate"]["median"], b["rate"]["median"]),
            "within_target": abs(b["seconds"] / a["seconds"] - 1) < TARGET,
        })
    out = {
        "date": date.today().isoformat(), "device": quiet["device"], "seconds_basis": quiet["seconds_basis"],
        "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY"), "model": lm.name, "torch": torch.__version__,
        "probes": len(work.probes), "busy_processes": args.busy, "cpu_count": os.cpu_count(),
        "run_seconds": {"first": quiet_wall, "second": loaded_wall},
        "load_average_after": os.getloadavg(), "target_percent": TARGET * 100, "rows": rows,
    }
    (HERE / "noise.json").write_text(json.dumps(out, indent=2) + "\n")
    print(f"\n{lm.name}, {len(work.probes)} probes, {out['device']}, {out['date']}; priced: {out['seconds_basis']}")
    print(f"second run with {args.busy} busy-loop processes on {os.cpu_count()} cores\n")
    print("| strategy | TFLOP | priced s, 1st | priced s, 2nd | priced moved "
          "| wall s, 1st | wall s, 2nd | wall moved |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        p, w = r["priced_seconds"], r["wall_seconds"]
        print(f"| {r['strategy']} | {r['tflop']:.2f} | {p['first']:.1f} | {p['second']:.1f} | "
              f"{p['ratio']:.2f}x ({p['percent']:+.0f}%) | {w['first']:.1f} | {w['second']:.1f} | "
              f"{w['ratio']:.2f}x ({w['percent']:+.0f}%) |")


if __name__ == "__main__":
    main()
