"""The sample read by the engine and through an endpoint, side by side (issue 38): what the endpoint billed from its
replies' usage, against what was counted here, and how each answered.

Usage: .venv/bin/python benchmarks/endpoint_sample.py [--model qwen2.5-coder-0.5b-instruct] [--probes 9]
       [--json benchmarks/endpoint_sample-<model>.json]

The endpoint is a real server process, `python -m engine serve --mode dense` with the same model, on 127.0.0.1; the
runner is the product's (engine.strategies.endpoint_compare) with the strategies an endpoint asks, and the engine runs
the same strategies in process (engine.strategies.compare). Dollars through the endpoint are at an example price of
$0.20 in, $0.05 cached and $0.80 out per million tokens (no provider's list price: the app prices at its own price
book); the engine's seconds are its computed CPU seconds. Both answer greedily with dense attention on the same ids,
so their answers should be the same, except routed's escalations, which the engine makes with Index Share.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: the repository root

from engine.core.openmp import wait_passively  # noqa: E402

wait_passively()  # before torch loads (engine/core/openmp.py)

from engine.core.catalogue import default_key  # noqa: E402
from engine.core.jsonfile import write_json_atomic  # noqa: E402
from engine.core.probes import load_probes  # noqa: E402
from engine.core.run_settings import ENDPOINT_STRATEGIES  # noqa: E402
from engine.model.loader import load_model  # noqa: E402
from engine.model.measure import device_name  # noqa: E402
from engine.remote.client import EndpointTarget  # noqa: E402
from engine.strategies.compare import compare  # noqa: E402
from engine.strategies.endpoint_compare import Tokenizing, compare_endpoint  # noqa: E402
from engine.strategies.work import ComparisonWork  # noqa: E402
from engine.core.documents import DocumentText  # noqa: E402

HERE = Path(__file__).resolve().parent
SAMPLE = HERE.parent / "samples" / "workload"
PRICE = {"input": 0.20, "cached": 0.05, "output": 0.80}  # dollars per million tokens, an example
KEY = "sk-benchmark-local"


def billed(s: dict) -> float:
    return ((s["tokens_in"] - s["tokens_cached"]) * PRICE["input"] + s["tokens_cached"] * PRICE["cached"]
            + s["tokens_out"] * PRICE["output"]) / 1e6


def serve(model: str) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen([sys.executable, "-m", "engine", "serve", "--model", model, "--mode", "dense",
                                "--port", "0"], cwd=HERE.parent, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, env={**os.environ, "ENGINE_SERVE_API_KEY": KEY})
    first = process.stdout.readline()
    found = re.search(r"on (http://\S+/v1)", first)
    if not found:
        process.kill()
        raise SystemExit(f"the server did not start: {first}")
    return process, found.group(1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default=None, help="a catalogue model (default: the engine's default)")
    parser.add_argument("--probes", type=int, default=9, help="the first N probes of the sample (it has 9)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    lm = load_model(args.model)
    documents = [DocumentText(p.name, p.read_text()) for p in sorted(SAMPLE.glob("*.txt"))]
    work = ComparisonWork(documents, load_probes(SAMPLE / "probes.jsonl")[: args.probes],
                          strategies=list(ENDPOINT_STRATEGIES), diagnostics=False)
    server, url = serve(args.model or default_key())
    try:
        began = time.perf_counter()
        remote = compare_endpoint(Tokenizing(lm.name, lm.tokenizer), work, EndpointTarget(url, lm.name, KEY))
        remote_wall = time.perf_counter() - began
    finally:
        server.terminate()
        server.wait(timeout=60)
    began = time.perf_counter()
    local = compare(lm, work)
    local_wall = time.perf_counter() - began

    rows = []
    print(f"{'strategy':<20} {'billed in (cached)/out':>24} {'counted here':>12} {'right there/here':>17} "
          f"{'latency p50/p95 s':>18} {'billed $':>10} {'engine CPU s':>12}")
    for name in ENDPOINT_STRATEGIES:
        there, here = remote["strategies"][name], local["strategies"][name]
        if "refused" in there or "refused" in here:
            rows.append({"strategy": name, "refused": there.get("refused") or here.get("refused")})
            print(f"{name:<20} refused: {rows[-1]['refused']}")
            continue
        right = (sum(a["correct"] for a in there["probes"]), sum(a["correct"] for a in here["probes"]))
        same = sum(a["output"] == b["output"] for a, b in zip(there["probes"], here["probes"], strict=True))
        rows.append({"strategy": name, "calls": there["calls"], "tokens_in": there["tokens_in"],
                     "tokens_cached": there["tokens_cached"], "tokens_out": there["tokens_out"],
                     "tokens_in_counted_here": there["tokens_in_local"], "engine_tokens_in": here["tokens_in"],
                     "right_through_endpoint": right[0], "right_on_engine": right[1], "same_answers": same,
                     "questions": len(there["probes"]), "latency": there["latency"],
                     "billed_dollars": billed(there), "engine_seconds": here["seconds"]})
        print(f"{name:<20} {there['tokens_in']:>10,} ({there['tokens_cached']:,}) / {there['tokens_out']:<5,} "
              f"{there['tokens_in_local']:>12,} {right[0]:>8}/{right[1]:<8} "
              f"{there['latency']['median']:>8.2f}/{there['latency']['p95']:<8.2f} {billed(there):>10.6f} "
              f"{here['seconds']:>12.1f}")
    result = {"model": lm.name, "device": device_name(lm.device), "date": time.strftime("%Y-%m-%d"),
              "probes": len(work.probes), "price_per_mtok": PRICE, "endpoint_wall_s": remote_wall,
              "engine_wall_s": local_wall, "strategies": rows}
    if args.json:
        write_json_atomic(args.json, result)


if __name__ == "__main__":
    main()
