"""Strategies run probe by probe in a rotating order, so load that comes and goes falls on all of them alike."""

import pytest

from engine.strategies import compare as cmp
from engine.strategies.chunking import split_documents

from .conftest import MEMO_DOCS, MEMO_PROBES

pytestmark = pytest.mark.model


def test_each_probe_starts_with_the_next_strategy_and_keeps_chunked_calls_together(smollm2):
    strategies = ["chunked", "full_dense", "full_sliding_window"]
    work = cmp.ComparisonWork(MEMO_DOCS, MEMO_PROBES, strategies=strategies, chunk_tokens=48, chunk_overlap=0,
                        diagnostics=False)
    report = cmp.compare(smollm2, work)
    per_probe = {"chunked": len(split_documents(MEMO_DOCS, smollm2.tokenizer, 48, 0)) + 1,
                 "full_dense": 1, "full_sliding_window": 1}
    assert per_probe["chunked"] > 2
    expected = []
    for i in range(len(MEMO_PROBES)):
        for name in strategies[i:] + strategies[:i]:
            expected += [name] * per_probe[name]
    assert report["order"] == expected
    assert [report["strategies"][s]["calls"] for s in strategies] == [report["order"].count(s) for s in strategies]
    # Per-strategy results stay in probe order, whatever order the calls ran in.
    for name in strategies:
        assert [a["question"] for a in report["strategies"][name]["probes"]] == [p.question for p in MEMO_PROBES]
