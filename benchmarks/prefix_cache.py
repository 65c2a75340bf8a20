"""Full context with a cached document prefix against without: device seconds per question at 9 and 90 questions.

Usage: .venv/bin/python benchmarks/prefix_cache.py [--repeats 2] [--copies 3]

One process loads the default model once and runs engine.strategies.compare, interleaved probe by probe, with the
strategies full_dense, full_dense_cached, full_index_share and full_index_share_cached (the README's small budget:
window 256, top-k 256, 2 global blocks, exact indexer; no diagnostics), on two workloads:
  sample   samples/workload as it is, its 9 probes;
  sample xN  its documents and N-1 renamed copies of them (the same 9 probes), or, where that does not fit the
           model's positions with the question and the answer, the most whole documents of the last copy that fit
           (the JSON says how many tokens it came to).
Each workload is compared `--repeats` times.

Per strategy and run: priced seconds (on a CPU the computed seconds: process CPU time / threads), the one-off
prefill (cached) and the mean per question, and each question's own seconds (their min and max: the spread).
Per question at 9 questions is measured: the run's priced seconds / 9. At 90 questions the cached strategies are
measured too, in a second run of theirs alone that asks the 9 probes ten times over (90 real calls continuing from
one prefill); an uncached question shares no work with the others, so its seconds at 90 are its measured mean per
question at 9. The projection (prefill + 90 x mean per question) / 90 is kept beside the measurement.

Writes benchmarks/prefix_cache.json (after every run, so a stopped benchmark keeps what it measured) and prints a
Markdown table: per workload and strategy, the median over the repeats and their range.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: the repository root

from engine.core.openmp import wait_passively  # noqa: E402

wait_passively()  # before torch loads, as `python -m engine` and the worker do

import torch  # noqa: E402

from engine.strategies import compare as cmp  # noqa: E402
from engine.strategies import prompts  # noqa: E402
from engine.attention import AttentionConfig  # noqa: E402
from engine.core.documents import DocumentText, read_documents  # noqa: E402
from engine.model.loader import load_model  # noqa: E402
from engine.core.probes import load_probes  # noqa: E402
from engine.core.run_settings import ANSWER_TOKENS  # noqa: E402

HERE = Path(__file__).resolve().parent
SAMPLE = HERE.parent / "samples" / "workload"
STRATEGIES = ["full_dense", "full_dense_cached", "full_index_share", "full_index_share_cached"]
CACHED = [name for name in STRATEGIES if name.endswith("_cached")]
ATTENTION = AttentionConfig(window=256, topk=256, global_blocks=2, indexer="exact")
QUESTIONS = (9, 90)


def copies(lm, documents: list[DocumentText], probes, n: int) -> list[DocumentText]:
    """The documents and n-1 renamed copies, the last copy cut (whole documents) to fit the model's positions."""
    out = list(documents)
    for copy in range(2, n + 1):
        for d in documents:
            candidate = [*out, DocumentText(f"{Path(d.name).stem} (copy {copy}){Path(d.name).suffix}", d.text)]
            longest = max(len(prompts.full_prompt(lm, candidate, p.question)) for p in probes)
            if longest + ANSWER_TOKENS > lm.max_positions:
                return out
            out = candidate
    return out


def figures(report: dict, at_90: dict, name: str) -> dict:
    s = report["strategies"][name]
    n = s["quality"]["n_probes"]
    per_question = [p["seconds"] for p in s["probes"]]
    measured_90 = at_90["strategies"][name] if name in at_90["strategies"] else None
    return {
        "seconds": s["seconds"], "prefill_seconds": s["prefill_seconds"],
        "per_question_seconds": s["per_question_seconds"],
        "question_seconds_min": min(per_question), "question_seconds_max": max(per_question),
        "tokens_in": s["tokens_in"], "accuracy": s["quality"]["accuracy"],
        "per_question_at": {
            "9": s["seconds"] / n,  # measured
            # measured: the cached strategy's 90 calls and its prefill; uncached: its mean at 9 (nothing shared)
            "90": measured_90["seconds"] / 90 if measured_90 else s["per_question_seconds"],
            "90_projected": (s["prefill_seconds"] + 90 * s["per_question_seconds"]) / 90,
        },
    }


def spread(values: list[float]) -> dict:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def summary(runs: list[dict]) -> dict:
    out = {}
    for name in STRATEGIES:
        rows = [r["strategies"][name] for r in runs]
        out[name] = {
            "prefill_seconds": spread([r["prefill_seconds"] for r in rows]),
            "per_question_seconds": spread([r["per_question_seconds"] for r in rows]),
            **{f"per_question_at_{q}": spread([r["per_question_at"][str(q)] for r in rows]) for q in QUESTIONS},
            "per_question_at_90_projected": spread([r["per_question_at"]["90_projected"] for r in rows]),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--copies", type=int, default=3, help="the larger workload: the sample this many times")
    args = parser.parse_args()
    lm = load_model()
    documents = read_documents(sorted(SAMPLE.glob("*.txt")))
    probes = load_probes(SAMPLE / "probes.jsonl")
    workloads = {"sample": documents, f"sample x{args.copies}": copies(lm, documents, probes, args.copies)}
    out = {
        "date": date.today().isoformat(), "model": lm.name, "torch": torch.__version__,
        "cpu_count": os.cpu_count(), "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY"),
        "probes": len(probes), "strategies": STRATEGIES, "attention": vars(ATTENTION),
        "per_question_at_90": "cached: measured, 90 calls from one prefill; uncached: the mean per question at 9",
        "per_question_at_90_projected": "(prefill + 90 x mean per question at 9) / 90", "workloads": {},
    }
    for label, docs in workloads.items():
        work = cmp.ComparisonWork(docs, probes, strategies=STRATEGIES, attention=ATTENTION, diagnostics=False)
        ninety = cmp.ComparisonWork(docs, list(probes) * 10, strategies=CACHED, attention=ATTENTION, diagnostics=False)
        entry = out["workloads"][label] = {"documents": len(docs), "runs": []}
        for repeat in range(args.repeats):
            report, at_90 = cmp.compare(lm, work), cmp.compare(lm, ninety)
            out["device"], out["seconds_basis"] = report["device"], report["seconds_basis"]
            entry["prompt_tokens"] = report["strategies"]["full_dense"]["tokens_in"] // len(probes)
            entry["runs"].append({"load_average_after": os.getloadavg(),
                                  "strategies": {name: figures(report, at_90, name) for name in STRATEGIES}})
            entry["summary"] = summary(entry["runs"])
            (HERE / "prefix_cache.json").write_text(json.dumps(out, indent=2) + "\n")
            print(f"{label}: run {repeat + 1} of {args.repeats} done", flush=True)
    print(f"\n{lm.name}, {len(probes)} probes, {out['device']}, {out['date']}; priced: {out['seconds_basis']}")
    print("per question: median over the runs [min-max]; at 90 questions measured for the cached strategies, the "
          "mean at 9 for the others; the projection from the 9-question run beside it\n")
    print("| workload | prompt tokens | strategy | prefill s (once) | s per question alone "
          "| s per question at 9 | s per question at 90 | at 90, projected from 9 |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    for label, entry in out["workloads"].items():
        for name, s in entry["summary"].items():
            cells = [_cell(s[key]) for key in ("prefill_seconds", "per_question_seconds", "per_question_at_9",
                                               "per_question_at_90", "per_question_at_90_projected")]
            print(f"| {label} | {entry['prompt_tokens']} | {name} | " + " | ".join(cells) + " |")


def _cell(s: dict) -> str:
    return f"{s['median']:.2f} [{s['min']:.2f}-{s['max']:.2f}]"


if __name__ == "__main__":
    main()
