"""A group's shared selection lives for one forward pass: the next pass (layer 0 again) cannot read it."""

import pytest

from engine.attention import AttentionConfig, LayerPlan, SparseAttention
from tests.engine.conftest import random_qkv

CFG = AttentionConfig(mode="index_share", window=32, topk=32, block_size=16, indexer="exact")


def _attention() -> SparseAttention:
    plan = LayerPlan.build(CFG, 8)
    assert plan.roles[:4] == ("dense", "dense", "index", "reuse")
    return SparseAttention(CFG, plan)


def test_a_reuse_layer_reads_its_leaders_selection_within_a_pass():
    attention = _attention()
    q, k, v = random_qkv(20, 200)
    attention.attend(0, q, k, v, 0.2)
    attention.attend(2, q, k, v, 0.2)
    assert attention.attend(3, q, k, v, 0.2).shape == q.shape


def test_the_next_pass_cannot_reuse_a_selection_of_the_same_shape():
    # Two questions with suffixes of the same length make the same query layout: only the pass boundary tells them apart.
    attention = _attention()
    q, k, v = random_qkv(20, 200)
    attention.attend(0, q, k, v, 0.2)
    attention.attend(2, q, k, v, 0.2)
    attention.attend(0, q, k, v, 0.2)  # the next forward pass begins
    with pytest.raises(RuntimeError, match="no selection from its group leader"):
        attention.attend(3, q, k, v, 0.2)
