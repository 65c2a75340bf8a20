"""How each strategy's cost grows with the workload: the sample workload at 1x, 2x, 3x and 4x.

Usage: .venv/bin/python benchmarks/compare_scaling.py [--probes 3]

The documents are repeated (renamed copies) to make the larger workloads; the first
`--probes` probes of the sample are asked at every size, so cost per probe is
comparable. All strategies run in one process, one after another, on this machine;
wall time, measured device seconds and ledger FLOPs are reported per size.
Writes benchmarks/compare_scaling.json and prints a Markdown table.
"""

from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: the repository root

import torch  # noqa: E402

from engine.strategies import compare as cmp  # noqa: E402
from engine.core.documents import DocumentText, read_documents  # noqa: E402
from engine.core.jsonfile import write_json_atomic  # noqa: E402
from engine.model.measure import device_name  # noqa: E402
from engine.model.loader import load_model  # noqa: E402
from engine.core.probes import load_probes  # noqa: E402

HERE = Path(__file__).resolve().parent
SAMPLE = HERE.parent / "samples" / "workload"
STRATEGIES = ["chunked", "full_index_share", "full_dense"]


def scaled(documents: list[DocumentText], times: int) -> list[DocumentText]:
    return [DocumentText(f"copy{i + 1}-{d.name}" if i else d.name, d.text) for i in range(times) for d in documents]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--probes", type=int, default=3)
    args = parser.parse_args()
    lm = load_model()
    documents = read_documents(sorted(SAMPLE.glob("*.txt")))
    probes = load_probes(SAMPLE / "probes.jsonl")[: args.probes]
    rows = []
    for times in (1, 2, 3, 4):
        work = cmp.ComparisonWork(scaled(documents, times), probes, strategies=STRATEGIES, diagnostics=False)
        report = cmp.compare(lm, work)
        tokens = sum(d["tokens"] for d in report["documents"])
        for name, s in report["strategies"].items():
            rows.append({"scale": times, "document_tokens": tokens, "strategy": name, **{
                k: s.get(k) for k in ("refused", "calls", "tokens_in", "seconds", "wall_seconds", "peak_memory_bytes")
            }, "tflops": s["flops"]["total"] / 1e12 if "flops" in s else None,
                "accuracy": s["quality"]["accuracy"] if "quality" in s else None})
        print(f"{times}x done", flush=True)
    out = {"date": date.today().isoformat(), "device": device_name(torch.device("cpu")), "model": lm.name,
           "probes": len(probes), "torch": torch.__version__, "rows": rows}
    write_json_atomic(HERE / "compare_scaling.json", out)
    print(f"\n{lm.name}, {len(probes)} probes, {out['device']}, {out['date']}\n")
    print("| scale | document tokens | strategy | calls | tokens in | wall s | device s | TFLOP |")
    print("|---:|---:|---|---:|---:|---:|---:|---:|")
    for r in rows:
        if r["refused"]:
            print(f"| {r['scale']}x | {r['document_tokens']:,} | {r['strategy']} | "
                  "refused: over the model's positions | | | | |")
            continue
        print(f"| {r['scale']}x | {r['document_tokens']:,} | {r['strategy']} | {r['calls']} | {r['tokens_in']:,} | "
              f"{r['wall_seconds']:.1f} | {r['seconds']:.1f} | {r['tflops']:.2f} |")


if __name__ == "__main__":
    main()
