"""The layer plan, from the config alone (no model): dense layers first, then groups of G sparse layers, each led by
the one layer that runs the indexer; a model's native local layers keep their own attention and break no group."""

from engine.attention import AttentionConfig, LayerPlan


def test_the_plan_groups_sparse_layers_after_the_dense_ones():
    plan = LayerPlan.build(AttentionConfig(mode="index_share", group_size=4, dense_layers=2), 30)
    assert plan.roles[:2] == ("dense", "dense")
    assert plan.indexer_layers == (2, 6, 10, 14, 18, 22, 26)
    assert plan.leaders[2:6] == (2, 2, 2, 2)
    assert plan.count("reuse") == 21


def test_native_local_layers_do_not_break_a_group():
    plan = LayerPlan.build(AttentionConfig(mode="index_share", group_size=2, dense_layers=0), 6, frozenset({1, 4}))
    assert plan.roles == ("index", "native", "reuse", "index", "native", "reuse")
