"""Retrieval probes whose answers sit in different chunks: full_index_share, one pass over all the documents,
answers probes from more than one of those chunks."""

from pathlib import Path

import pytest

from engine.strategies import compare as cmp
from engine.attention import AttentionConfig
from engine.strategies.chunking import split_documents
from engine.core.documents import read_documents
from engine.core.probes import load_probes

pytestmark = pytest.mark.model

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "workload"
# 1,216 tokens attended per query block, about 60% of the ~2,000-token workload, with
# the exact indexer. (With 704 tokens, index share answered 1 of 5 here and naive
# sparse 3 of 5; the pooled indexer did worse: see the README.)
BUDGET = AttentionConfig(window=256, topk=768, global_blocks=2, indexer="exact")


def test_full_index_share_answers_probes_whose_answers_sit_in_different_chunks(smollm2):
    documents = read_documents(sorted(SAMPLE.glob("*.txt")))
    probes = [p for p in load_probes(SAMPLE / "probes.jsonl") if p.kind == "retrieval"]
    chunks = split_documents(documents, smollm2.tokenizer, 1024, 64)
    home = {p.question: next(i for i, c in enumerate(chunks) if p.answer in c.text) for p in probes}
    assert len(set(home.values())) >= 4, "the answers are spread over at least four chunks"

    # The model's calibrated groups, which this was measured with. SmolLM2 with groups calibrated on these documents
    # (the runs' default) answered 1 of 5 at this budget, though 9 of the gate's 43 against 4 at the default budget
    # (benchmarks/README.md, the sample's quality gate; 2026-12-05).
    work = cmp.ComparisonWork(documents, probes, strategies=["full_index_share"], attention=BUDGET, diagnostics=False,
                        anchors="calibrated")
    result = cmp.compare(smollm2, work)["strategies"]["full_index_share"]
    print(
        f"\nfull_index_share, 1,216-token budget: {result['quality']['accuracy']:.0%} "
        f"of {len(probes)} retrieval probes"
    )
    for p in result["probes"]:
        print(f"  {p['correct']!s:5} expected {p['expected']!r}: {p['output'][:70]!r}")
    assert result["quality"]["n_probes"] == len(probes) == 5
    # Measured 3 of 5 on the project's CPU machine, from three chunks; the floor of two chunks leaves one probe of
    # slack for numerics that differ across machines. Two right answers from one chunk would not be retrieval
    # across chunks.
    answered_from = {home[p["question"]] for p in result["probes"] if p["correct"]}
    assert len(answered_from) >= 2, f"right answers came from chunks {sorted(answered_from)} only"
