"""How often decoding should re-run the indexer: every token, every N tokens, or only for the question.

Usage: .venv/bin/python benchmarks/decode_reselect.py [--lengths 2048,4096] [--intervals 1,8,0] [--new-tokens 24]

Index Share on the default model (pooled_mass indexer, a quarter of the context, the needle grid's base settings)
answers the needle grid's prompts (engine.evaluation.needle: one fact planted at 10-90% depth of the samples' text)
with each decode re-selection interval, the intervals interleaved prompt by prompt. The answer is not started for the
model here (the grid starts it, so only a few tokens are decoded): the model decodes up to --new-tokens tokens, all
under the interval's policy; dense attention answers the same prompts, for reference. Per interval: facts found, the
answers identical to re-selecting every token, the indexer passes, decode seconds (on a CPU the computed seconds),
and the ledger's indexer FLOPs per decoded token at 8K, 128K and 1M tokens of context (the cost the interval saves
where contexts are long).

Writes benchmarks/decode_reselect.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: the repository root

from engine.core.openmp import wait_passively  # noqa: E402

wait_passively()  # before torch loads, as `python -m engine` and the worker do

from engine.core import ledger  # noqa: E402
from engine.evaluation import needle  # noqa: E402
from engine.model.generate import generate  # noqa: E402
from engine.model.loader import load_model  # noqa: E402

OUT = Path(__file__).with_name("decode_reselect.json")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lengths", default="2048,4096")
    parser.add_argument("--intervals", default="1,8,0")
    parser.add_argument("--new-tokens", type=int, default=24)
    args = parser.parse_args()
    lengths = [int(n) for n in args.lengths.split(",")]
    intervals = [int(n) for n in args.intervals.split(",")]
    lm = load_model()
    shape = ledger.from_hf_config(lm.config, lm.name)
    haystack = "\n\n".join(d.text.strip() for d in needle.default_documents())
    setting = needle.Setting("index_share", "pooled_mass", 0.25)
    fact = needle.facts(1)[0]
    rows = []
    for length in lengths:
        for i, depth in enumerate(needle.DEPTHS):
            # The grid's prompt, less the answer's start it puts in the model's mouth.
            ids, _ = needle.planted_prompt(lm, haystack, fact, length, depth)
            ids = ids[: len(ids) - len(lm.tokenizer(fact.answer_start, add_special_tokens=False)["input_ids"])]
            for interval in intervals[i % len(intervals):] + intervals[: i % len(intervals)] + ["dense"]:
                cfg = (setting.base.replace(mode="dense") if interval == "dense"
                       else setting.config(len(ids)).replace(decode_reselect=interval))
                started = time.process_time()
                result = generate(lm, ids, cfg, args.new_tokens)
                rows.append({
                    "length": length, "depth": depth, "interval": interval, "text": result.text,
                    "correct": fact.answered_by(result.text), "decode_forwards": result.decode_forwards,
                    "indexer_passes": result.indexer_passes, "decode_seconds": result.decode.seconds,
                    "process_seconds": round(time.process_time() - started, 2),
                })
                print(f"{length} @ {depth:g}, interval {interval}: {result.text.strip()[:50]!r}", flush=True)
    base = {(r["length"], r["depth"]): r["text"] for r in rows if r["interval"] == intervals[0]}
    summary = {}
    for interval in [*intervals, "dense"]:
        rs = [r for r in rows if r["interval"] == interval]
        per_token = {}
        for context in (8192, 131072, 1 << 20):
            if interval == "dense":
                break
            cfg, decoded = setting.config(context).replace(decode_reselect=interval), 64
            decoding = ledger.call_costs(shape, cfg, context, decoded).flops["indexer"]
            per_token[str(context)] = (decoding - ledger.prefill_costs(shape, cfg, context).flops["indexer"]) / decoded
        summary[str(interval)] = {
            "found": sum(r["correct"] for r in rs), "prompts": len(rs),
            "same_answer_as_every_token": sum(r["text"] == base[(r["length"], r["depth"])] for r in rs),
            "indexer_passes": sum(r["indexer_passes"] for r in rs),
            "decode_seconds_median_per_token": statistics.median(
                r["decode_seconds"] / r["decode_forwards"] for r in rs if r["decode_forwards"]),
            "ledger_decode_indexer_flops_per_token": per_token,
        }
    report = {"model": lm.name, "device": f"{lm.device} ({platform.processor() or platform.machine()})",
              "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "setting": setting.name,
              "new_tokens": args.new_tokens, "rows": rows, "summary": summary}
    OUT.write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
