"""SmolLM2 prefill time per attention mode at 2K, 4K and 8K tokens, on this machine's CPU.

Usage: .venv/bin/python benchmarks/cpu_prefill.py [--lengths 2048 4096 8192] [--repeats 3]

The modes run interleaved (every mode once per round, rounds repeated) and each
figure is the median over rounds, reported as a ratio to dense from the same run:
these machines are shared and noisy, so only side-by-side ratios mean much.
The ledger's predicted FLOP ratio stands next to each measured time ratio.
Writes benchmarks/cpu_prefill.json and prints a Markdown table.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: the repository root

import torch  # noqa: E402
import transformers  # noqa: E402

from benchmarks.machine import cpu_model  # noqa: E402
from engine.core import ledger  # noqa: E402
from engine.attention import AttentionConfig  # noqa: E402
from engine.model.generate import generate  # noqa: E402
from engine.core.jsonfile import write_json_atomic  # noqa: E402
from engine.model.measure import device_name  # noqa: E402
from engine.model.loader import load_model  # noqa: E402

HERE = Path(__file__).resolve().parent
SAMPLES = HERE.parent / "samples" / "contracts"
RUNS = [
    ("dense", None),
    ("naive_sparse", "pooled"),
    ("index_share", "pooled"),
    ("naive_sparse", "exact"),
    ("index_share", "exact"),
]


def real_text_ids(lm, n: int) -> list[int]:
    text = "\n\n".join(p.read_text() for p in sorted(SAMPLES.glob("*.txt")))
    ids = lm.tokenizer(text)["input_ids"]
    while len(ids) < n:
        ids = ids + ids
    return ids[:n]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lengths", type=int, nargs="+", default=[2048, 4096, 8192])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    lm = load_model()
    shape = ledger.from_hf_config(lm.config, lm.name)
    rows = []
    for n in args.lengths:
        ids = real_text_ids(lm, n)
        generate(lm, ids[:256], AttentionConfig(mode="dense"), 0)  # warm up allocator and kernels
        times: dict[str, list[float]] = {}
        for _ in range(args.repeats):
            for mode, indexer in RUNS:
                cfg = AttentionConfig(mode=mode, indexer=indexer or "pooled")
                result = generate(lm, ids, cfg, max_new_tokens=0)
                times.setdefault(f"{mode}/{indexer or '-'}", []).append(result.prefill.seconds)
        dense_s = statistics.median(times["dense/-"])
        dense_flops = ledger.prefill_costs(shape, AttentionConfig(mode="dense"), n).total_flops
        for mode, indexer in RUNS:
            key = f"{mode}/{indexer or '-'}"
            cfg = AttentionConfig(mode=mode, indexer=indexer or "pooled")
            flops = ledger.prefill_costs(shape, cfg, n)
            median = statistics.median(times[key])
            rows.append({
                "tokens": n, "mode": mode, "indexer": indexer, "seconds": times[key], "median_s": median,
                "time_vs_dense": median / dense_s, "ledger_flops": flops.to_json()["flops"],
                "ledger_flops_vs_dense": flops.total_flops / dense_flops,
            })
        print(f"{n} tokens done", flush=True)

    report = {
        "date": date.today().isoformat(),
        "device": f"{cpu_model()}, {device_name(torch.device('cpu'))}",
        "torch": torch.__version__, "transformers": transformers.__version__,
        "model": lm.name, "dtype": "bfloat16", "attention": AttentionConfig().__dict__,
        "repeats": args.repeats, "rows": rows,
    }
    write_json_atomic(HERE / "cpu_prefill.json", report)
    print(f"\nDevice: {report['device']}; torch {torch.__version__}; median of {args.repeats} interleaved rounds\n")
    print("| tokens | mode | indexer | prefill s | time vs dense | ledger FLOPs vs dense |")
    print("|---:|---|---|---:|---:|---:|")
    for r in rows:
        print(f"| {r['tokens']} | {r['mode']} | {r['indexer'] or '-'} | {r['median_s']:.2f} | "
              f"{r['time_vs_dense']:.2f} | {r['ledger_flops_vs_dense']:.2f} |")


if __name__ == "__main__":
    main()
