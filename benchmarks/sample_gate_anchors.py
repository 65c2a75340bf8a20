"""Where Index Share's groups start, on the sample's 43 probes: full_index_share alone, at the run settings' defaults
(704-token budget, pooled_mass, groups of 4) but for the anchor layers, one setting after another.

Usage: .venv/bin/python benchmarks/sample_gate_anchors.py VARIANT [VARIANT ...] [--model NAME]
  uniform       every 4th sparse layer (the runs' setting before calibration)
  calibrated    the model's calibrated anchors (samples/calibration)
  workload      the anchors calibrated on the sample's own documents, as a run's anchors=workload does
  g2            uniform groups of 2 (twice the indexer passes)
  text:PATH     the anchors calibrated on a text file (its first 4,000 tokens), e.g. samples/contracts/gpl-3.0.txt
  layers:A-B-C  these anchor layers

Greedy decoding is deterministic, so accuracy compares across runs; the seconds do not (see sample_gate.sh for
strategies measured side by side). Merges each variant's probes, right answers and anchors into
benchmarks/sample_gate_anchors-<model>.json as it finishes.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script: the repository root

from engine.core.openmp import wait_passively  # noqa: E402

wait_passively()  # before torch loads, as `python -m engine` does

from engine.evaluation import calibration  # noqa: E402
from engine.core import run_settings  # noqa: E402
from engine.strategies.compare import ComparisonWork, compare  # noqa: E402
from engine.core.documents import read_documents  # noqa: E402
from engine.model.loader import load_model  # noqa: E402
from engine.core.probes import load_probes  # noqa: E402

SAMPLE = ROOT / "samples" / "workload"
TEXT_TOKENS = 4000


def _config(lm, variant: str):
    base = run_settings.attention({})
    if variant in ("uniform", "calibrated", "workload"):
        return base, variant
    if variant == "g2":
        return base.replace(group_size=2), "uniform"
    kind, _, value = variant.partition(":")
    if kind == "layers":
        return base.replace(anchor_layers=tuple(int(x) for x in value.split("-"))), "calibrated"
    if kind == "text":
        ids = lm.tokenizer(Path(value).read_text(), add_special_tokens=False)["input_ids"][:TEXT_TOKENS]
        found = calibration.calibrate(lm, base, ids, store=False)
        return base.replace(anchor_layers=found.anchors), "calibrated"
    raise SystemExit(f"unknown variant {variant!r}: uniform, calibrated, workload, g2, text:PATH or layers:A-B-C")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+")
    parser.add_argument("--model", default="qwen2.5-coder-0.5b-instruct")
    args = parser.parse_args()
    documents = read_documents(sorted(SAMPLE.glob("*.txt")))
    probes = load_probes(SAMPLE / "probes.jsonl") + load_probes(SAMPLE / "gate-probes.jsonl")
    lm = load_model(args.model)
    out = ROOT / "benchmarks" / f"sample_gate_anchors-{args.model}.json"
    for variant in args.variants:
        cfg, anchors = _config(lm, variant)
        report = compare(lm, ComparisonWork(documents, probes, strategies=("full_index_share",), attention=cfg,
                                      anchors=anchors, diagnostics=False))
        result = report["strategies"]["full_index_share"]
        correct = [p["correct"] for p in result["probes"]]
        kept = json.loads(out.read_text()) if out.exists() else {}
        kept[variant] = {"model": lm.name, "anchors": report["settings"]["attention"]["anchor_layers"],
                         "group_size": cfg.group_size, "right": sum(correct), "probes": len(correct),
                         "correct": correct}
        out.write_text(json.dumps(kept, indent=1) + "\n")
        print(f"{variant}: {sum(correct)}/{len(correct)} right, anchors {kept[variant]['anchors']}", flush=True)


if __name__ == "__main__":
    main()
