"""With a budget that covers the whole prefix, every sparse mode is dense attention: through a window that covers it,
or through the indexer's top-k beside a window of one block."""

import pytest
import torch

from engine.attention import AttentionConfig, LayerPlan, SparseAttention, dense_attention
from tests.engine.conftest import random_qkv, relative_error

# (queries, keys): full prefill, chunked prefill (fewer queries than keys, not
# block-aligned), one-token decode, and a prompt shorter than one block.
SHAPES = [(200, 200), (37, 200), (1, 201), (5, 5)]


def _whole_prefix(mode: str, indexer: str, **budget) -> SparseAttention:
    cfg = AttentionConfig(mode=mode, block_size=16, dense_layers=0, group_size=2, indexer=indexer,
                          **{"window": 4096, "topk": 4096, **budget})
    return SparseAttention(cfg, LayerPlan.build(cfg, 4))


def _assert_dense_in_every_layer(attention: SparseAttention, tq: int, tk: int) -> None:
    torch.manual_seed(tq * 1000 + tk)
    q, k, v = random_qkv(tq, tk)
    ref = dense_attention(q, k, v, scale=0.17)
    for layer in range(4):  # index layers and reuse layers alike
        assert relative_error(attention.attend(layer, q, k, v, scale=0.17), ref) <= 1e-5


@pytest.mark.parametrize("mode", ["sliding_window", "naive_sparse", "index_share"])
@pytest.mark.parametrize("indexer", ["pooled", "exact"])
@pytest.mark.parametrize("tq,tk", SHAPES)
def test_it_matches_dense_sdpa_in_fp32(mode, indexer, tq, tk):
    _assert_dense_in_every_layer(_whole_prefix(mode, indexer), tq, tk)


@pytest.mark.parametrize("mode", ["naive_sparse", "index_share"])
@pytest.mark.parametrize("indexer", ["pooled", "exact"])
@pytest.mark.parametrize("tq,tk", SHAPES)
def test_the_indexers_picks_alone_cover_the_prefix_beside_a_one_block_window(mode, indexer, tq, tk):
    """No sinks, no global blocks, a window of the diagonal block only: every earlier block must come from top-k."""
    _assert_dense_in_every_layer(_whole_prefix(mode, indexer, window=16, sink_blocks=0, global_blocks=0), tq, tk)


@pytest.mark.parametrize("tq,tk", SHAPES)
def test_it_stays_close_to_fp32_dense_in_bf16(tq, tk):
    torch.manual_seed(tq + tk)
    attention = _whole_prefix("index_share", "pooled")
    q, k, v = random_qkv(tq, tk, dtype=torch.bfloat16)
    out = attention.attend(0, q, k, v, scale=0.17)
    assert out.dtype == torch.bfloat16
    assert relative_error(out, dense_attention(q.float(), k.float(), v.float(), scale=0.17)) <= 1e-2


def test_chunked_prefill_reference_is_causal_against_the_cache():
    """Chunked dense attention equals the matching rows of a full causal pass."""
    torch.manual_seed(3)
    q, k, v = random_qkv(120, 120)
    full = dense_attention(q, k, v, scale=0.2)
    tail = dense_attention(q[:, :, 80:], k, v, scale=0.2)
    assert relative_error(tail, full[:, :, 80:]) <= 1e-6
