"""A question continuing from a cached prefix costs its own tokens against the cached keys, and its decoding."""

import pytest

from engine.core import ledger
from engine.attention import AttentionConfig

# A hand-sized model: 2 layers, 2 heads of 8 (q.k and p.v), an LM head of 2 * d_model 4 * vocab 10 = 80 FLOPs.
SHAPE = ledger.ModelShape(
    name="hand", n_layers=2, d_model=4, n_heads=2, n_kv_heads=1, qk_dim=8, v_dim=8, kv_dim=16,
    linear_flops_per_token=1000, weight_bytes=5000, vocab=10, max_positions=1024,
)
DENSE = AttentionConfig(mode="dense")


def test_dense_counts_the_suffix_against_every_cached_key_by_hand():
    costs = ledger.continuation_costs(SHAPE, DENSE, prefix_tokens=100, suffix_tokens=10, decode_forwards=2)
    # Linear: 10 suffix tokens without the LM head (1000 - 80 each), the LM head once, 2 decoded tokens whole.
    assert costs.flops["linear"] == 10 * 920 + 80 + 2 * 1000
    # Attention: 2 * heads 2 * (8 + 8) = 64 FLOPs per (query, key) per layer; the suffix's queries see
    # 101 + ... + 110 = 1055 keys, the decoded tokens 111 and 112.
    assert costs.flops["attention"] == 2 * 64 * (1055 + 111 + 112)
    assert costs.flops["indexer"] == 0
    assert costs.bytes["linear"] == 3 * 5000  # the weights once for the suffix's forward, once per decoded token


@pytest.mark.parametrize("mode", ["dense", "index_share", "naive_sparse", "sliding_window"])
def test_the_prefix_once_and_the_continuation_add_up_to_one_prefill(mode):
    # Against one prefill of the whole prompt, the split pays the LM head once more (the prefix's last token). The
    # documents' prefill ends in no question, so its last queries keep the documents' budget (engine.strategies.prefix).
    cfg = AttentionConfig(mode=mode, window=64, topk=64, block_size=16, indexer="exact", dense_layers=0, group_size=2)
    whole = ledger.prefill_costs(SHAPE, cfg, 700)
    split = ledger.prefill_costs(SHAPE, cfg, 600, answer_tail=False)
    tail = ledger.continuation_costs(SHAPE, cfg, 600, 100, 0)
    assert split.flops["linear"] + tail.flops["linear"] == whole.flops["linear"] + 80
    for component in ("attention", "indexer"):
        assert split.flops[component] + tail.flops[component] == whole.flops[component]
    assert (tail.flops["indexer"] > 0) == (mode in ("index_share", "naive_sparse"))


@pytest.mark.parametrize("indexer", ["pooled_mass", "pooled", "mass", "exact"])
@pytest.mark.parametrize("prefix_tokens, suffix_tokens", [(1855, 31), (1855, 1), (640, 64), (6000, 130)])
def test_no_continuation_costs_a_negative_amount(indexer, prefix_tokens, suffix_tokens):
    # The sample's run page showed a cached Index Share question's indexer at -4.32 GFLOP: the prefix's own prefill,
    # subtracted from the whole, counted its last block query by query, which the whole pooled.
    cfg = AttentionConfig(window=256, topk=256, global_blocks=2, indexer=indexer, dense_layers=0, group_size=1)
    for mode in ("index_share", "naive_sparse"):
        tail = ledger.continuation_costs(SHAPE, cfg.replace(mode=mode), prefix_tokens, suffix_tokens, 24)
        assert all(value >= 0 for value in (*tail.flops.values(), *tail.bytes.values())), tail
        assert tail.flops["indexer"] > 0
