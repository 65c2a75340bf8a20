"""engine.group_sweep: every probe asked at every group size, interleaved; each size's accuracy with its interval
and gate, its FLOPs (fewer indexer FLOPs as groups grow) and seconds; the cheapest size inside the gate."""

import pytest

from engine import group_sweep
from engine.attention import AttentionConfig
from engine.documents import Document

from .conftest import MEMO_PROBES

pytestmark = pytest.mark.model

LONG_MEMO = [Document("memo.txt", "The monthly service fee is $4,500.\n\nDeliveries arrive on Tuesdays.\n\n" * 40)]
SMALL = AttentionConfig(window=64, topk=64, global_blocks=1, indexer="exact")  # far below the ~600-token memo


def test_every_probe_is_asked_at_every_size_and_the_cheapest_inside_the_gate_is_recommended(smollm2):
    probes = MEMO_PROBES[:2]
    report = group_sweep.sweep(smollm2, LONG_MEMO, probes, SMALL, group_sizes=(1, 4), gate_points=5.0)

    assert report["order"] == [1, 4, 4, 1]  # probe i starts with size i mod 2
    one, four = report["points"]
    assert (one["group_size"], four["group_size"]) == (1, 4)
    for point in (one, four):
        assert len(point["correct"]) == 2 and point["quality"]["n_probes"] == 2
        low, high = point["quality"]["ci95"]
        assert low <= point["quality"]["accuracy"] <= high
        assert point["seconds"] > 0 and point["rate"]["low"] <= point["rate"]["median"] <= point["rate"]["high"]
        assert point["quality"]["gate"] in ("within", "gated", "cannot_tell")
    # Sharing the indexer across 4 layers runs it less.
    assert 0 < four["flops_indexer"] < one["flops_indexer"]
    inside = [p for p in report["points"] if p["quality"]["gate"] == "within"]
    assert report["recommended"] in [p["group_size"] for p in inside]


def test_a_sweep_without_probes_is_refused(smollm2):
    with pytest.raises(Exception, match="at least one group size and one probe"):
        group_sweep.sweep(smollm2, LONG_MEMO, [], SMALL)
