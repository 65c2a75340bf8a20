"""A comparison split into shards (sets of questions, each with every strategy) and merged from the calls the shards
kept reports what the unsharded run did: the same answers, accuracy, intervals, gates and decision, the same tokens and
FLOPs (the seconds are the shards' own measurements), and the merge makes no call of its own (issue 41: one run spread over many workers)."""

import pytest

from engine.strategies import compare as cmp

from .conftest import MEMO_DOCS, MEMO_PROBES

pytestmark = pytest.mark.model

STRATEGIES = ["chunked", "retrieval", "full_index_share_cached"]


def _work():
    return cmp.ComparisonWork(MEMO_DOCS, MEMO_PROBES, strategies=STRATEGIES, chunk_tokens=24, chunk_overlap=4,
                              diagnostics=False)


def test_three_shards_merged_report_as_one_run(smollm2):
    kept_whole = {}
    whole = cmp.compare(smollm2, _work(), keep=kept_whole.__setitem__)

    kept, shard_orders = {}, []
    for shard in ([0], [1], [2]):
        report = cmp.compare(smollm2, _work(), answered=kept, keep=kept.__setitem__, questions=shard)
        assert [p["question"] for p in report["strategies"]["chunked"]["probes"]] == [MEMO_PROBES[shard[0]].question]
        shard_orders.append(report["order"])
    # Each shard bills the one-off prefill the first kept: the documents count once, as in one run.
    assert set(kept) == set(kept_whole)
    assert shard_orders[0][:1] == ["full_index_share_cached:prefill"]

    merged = cmp.compare(smollm2, _work(), answered=kept)
    assert merged["calls"]["made"] == 0
    assert merged["order"] == whole["order"]
    for name in STRATEGIES:
        one, many = whole["strategies"][name], merged["strategies"][name]
        assert [p["output"] for p in many["probes"]] == [p["output"] for p in one["probes"]]
        assert many["quality"] == one["quality"]  # accuracy, Wilson interval, F1, gate and McNemar, by kind too
        for figure in ("calls", "tokens_in", "tokens_out", "flops"):
            assert many[figure] == one[figure], figure
