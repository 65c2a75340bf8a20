"""Calibrated anchor layers make groups of unequal sizes; the plan and the ledger follow them."""

import pytest

from engine.core import ledger
from engine.attention import AttentionConfig, LayerPlan
from engine.evaluation.calibration import best_group_starts
from engine.core.errors import EngineError


def test_each_anchor_leads_the_sparse_layers_up_to_the_next():
    cfg = AttentionConfig(mode="index_share", dense_layers=2, anchor_layers=(2, 3, 7))
    plan = LayerPlan.build(cfg, 10)
    assert plan.roles == ("dense", "dense", "index", "index", "reuse", "reuse", "reuse", "index", "reuse", "reuse")
    assert plan.leaders == (None, None, 2, 3, 3, 3, 3, 7, 7, 7)


def test_the_ledger_counts_one_indexer_pass_per_anchor():
    shape = ledger.SMOLLM2_135M
    uniform = AttentionConfig(mode="index_share", indexer="mass")
    anchors = uniform.replace(anchor_layers=(2, 3, 9, 20))
    one_pass = ledger.prefill_costs(shape, uniform, 4096).flops["indexer"] / len(shape.plan(uniform).indexer_layers)
    assert ledger.prefill_costs(shape, anchors, 4096).flops["indexer"] == pytest.approx(4 * one_pass)


@pytest.mark.parametrize(
    "anchors, message",
    [((3, 6), "comes before the first anchor"), ((2, 40), "not sparse layers"), ((1, 2), "not sparse layers"),
     ((5, 2), "ascending"), ((), "layer numbers")],
)
def test_it_refuses_anchor_layers_that_do_not_lead_sparse_layers(anchors, message):
    with pytest.raises(EngineError, match=message):
        LayerPlan.build(AttentionConfig(mode="index_share", dense_layers=2, anchor_layers=anchors), 30)


def test_the_groups_start_where_coverage_is_best():
    # Layer 0 covers only itself; layer 1 covers every later layer well: 2 groups start at 0 and 1,
    # where uniform groups of 2 (0 and 2) would cover layers 1 and 3 poorly.
    low, high = 0.1, 0.9
    coverage = [
        [1.0, low, low, low],
        [0.0, 1.0, high, high],
        [0.0, 0.0, 1.0, low],
        [0.0, 0.0, 0.0, 1.0],
    ]
    assert best_group_starts(coverage, 2) == [0, 1]
    assert best_group_starts(coverage, 4) == [0, 1, 2, 3]


def test_equal_coverage_keeps_the_earlier_start():
    flat = [[1.0 if j >= i else 0.0 for j in range(6)] for i in range(6)]
    assert best_group_starts(flat, 2) == best_group_starts(flat, 2) == [0, 1]
