"""A question against a cached 20K-token document set: Index Share's cached path against dense's, on held-out text.

Usage: .venv/bin/python benchmarks/heldout_cached.py [--strategies full_dense_cached,full_index_share_cached]
       [--anchors workload|calibrated|uniform] [--topk N] [--json benchmarks/heldout_cached-<model>.json]

The documents are text this project did not write: the two licence texts of samples/contracts, each twice under a
vendor's name (about 21K tokens of the default model's), with six fees of the same shape planted at seeded
paragraph breaks, one per company, each a distractor for the others. Six probes ask them. The comparison is the
product's own (engine.strategies.compare.compare) at the runs' defaults, anchors calibrated on the documents (--anchors
and --topk change those two, a budget policy's candidates); its report has
each cached strategy's one-off prefill and its seconds per question (computed CPU seconds on a CPU).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: the repository root

from engine.core.openmp import wait_passively  # noqa: E402

wait_passively()  # before torch loads (engine/core/openmp.py)

from engine.core import run_settings  # noqa: E402
from engine.strategies.compare import ComparisonWork, compare  # noqa: E402
from engine.core.documents import DocumentText  # noqa: E402
from engine.core.jsonfile import write_json_atomic  # noqa: E402
from engine.model.loader import load_model  # noqa: E402
from engine.core.probes import ProbeQuestion  # noqa: E402
from engine.tables import comparison_table  # noqa: E402

HERE = Path(__file__).resolve().parent
FEES = [("Norrland Freight", "4310"), ("Calloway Printing", "2785"), ("Segura Orchards", "6140"),
        ("Pembrook Dental", "3920"), ("Ilvesta Tiles", "5075"), ("Dunmore Ferries", "1865")]


def workload_texts(seed: int = 20261206) -> tuple[list[DocumentText], list[ProbeQuestion]]:
    """The four vendor copies with a fee planted in each in turn, and a probe per fee."""
    rng = random.Random(seed)
    licences = {p.stem: p.read_text() for p in sorted((HERE.parent / "samples" / "contracts").glob("*.txt"))}
    texts = {f"{name}-vendor-{v}.txt": text for v in "ab" for name, text in licences.items()}
    names, probes = list(texts), []
    for i, (company, fee) in enumerate(FEES):
        name = names[i % len(names)]
        paragraphs = texts[name].split("\n\n")
        paragraphs.insert(rng.randrange(2, len(paragraphs) - 2),
                          f"The annual licence fee for {company} is {fee} euros, payable each January.")
        texts[name] = "\n\n".join(paragraphs)
        probes.append(ProbeQuestion(f"What is the annual licence fee for {company}? Answer with the number.", fee,
                            "retrieval", name))
    return [DocumentText(name, text) for name, text in texts.items()], probes


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--strategies", default="full_dense_cached,full_index_share_cached")
    parser.add_argument("--anchors", choices=run_settings.ANCHORS, default=run_settings.DEFAULTS["anchors"])
    parser.add_argument("--topk", type=int, help="the documents' top-k, tokens (default: the runs')")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    lm = load_model()
    documents, probes = workload_texts()
    attention = run_settings.attention({"topk": args.topk} if args.topk else {}, "index_share")
    work = ComparisonWork(documents=documents, probes=probes, strategies=args.strategies.split(","),
                          attention=attention, anchors=args.anchors)
    report = compare(lm, work, progress=lambda done, planned, message: print(f"{done}/{planned} {message}", flush=True))
    print(comparison_table(report))
    for name, s in report["strategies"].items():
        print(f"{name}: prefill {s['prefill_seconds']:.1f} s once, then {s['per_question_seconds']:.2f} s a question")
    write_json_atomic(args.json or HERE / f"heldout_cached-{lm.name.lower()}.json", report)


if __name__ == "__main__":
    main()
