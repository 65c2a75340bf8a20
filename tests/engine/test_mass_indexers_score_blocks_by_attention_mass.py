"""The mass indexers score a block by the attention mass the formulas in engine/attention/indexers.py define."""

import torch

from engine.attention.indexers import exact_scores, mass_scores, pooled_mass_scores
from engine.attention.layout import QueryLayout
from tests.engine.conftest import random_qkv


def _softmax_mass(q_rows: torch.Tensor, k: torch.Tensor, visible: int) -> torch.Tensor:
    """Mass per key of softmax(q . k / sqrt(D)) over the first `visible` keys, for each row: [rows, Tk]."""
    s = (q_rows.double() @ k[:visible].double().T) / q_rows.shape[-1] ** 0.5
    p = torch.zeros(q_rows.shape[0], k.shape[0], dtype=torch.float64)
    p[:, :visible] = torch.softmax(s, dim=-1)
    return p


def test_the_mass_indexer_sums_each_heads_softmax_over_the_group_and_the_query_block():
    torch.manual_seed(0)
    q, k, _ = random_qkv(40, 72)  # chunked: queries 32..71, blocks of 8
    layout = QueryLayout(q_len=40, kv_len=72, block_size=8)
    scores = mass_scores(q, k, layout)
    for kv in range(2):
        for qb in range(layout.n_q_blocks):
            expected = torch.zeros(layout.n_k_blocks, dtype=torch.float64)
            for t in range(40):
                if (32 + t) // 8 != qb + layout.first_block:
                    continue
                for h in range(kv * 3, kv * 3 + 3):
                    p = _softmax_mass(q[0, h, t][None], k[0, kv], 32 + t + 1)[0]
                    expected += p.view(-1, 8).sum(1)
            assert torch.allclose(scores[0, kv, qb].double(), expected, atol=1e-5)


def test_the_pooled_mass_indexer_normalises_each_heads_mean_query_over_its_causal_keys():
    torch.manual_seed(1)
    q, k, _ = random_qkv(28, 28)  # the last block holds 4 tokens only
    layout = QueryLayout(q_len=28, kv_len=28, block_size=8)
    scores = pooled_mass_scores(q, k, layout)
    for kv in range(2):
        for qb, (a, b) in enumerate([(0, 8), (8, 16), (16, 24)]):
            q_mean = q[0, kv * 3 : kv * 3 + 3, a:b].mean(1)  # [3, D]
            p = _softmax_mass(q_mean, k[0, kv], b)  # the block's mean query sees up to its last query
            expected = torch.nn.functional.pad(p.sum(0), (0, 4)).view(-1, 8).sum(1)
            assert torch.allclose(scores[0, kv, qb].double(), expected, atol=1e-5)


def test_the_pooled_mass_indexer_scores_the_passs_last_query_block_query_by_query():
    # Its last query writes the next token: a mean over the block would blur what that one query reads.
    torch.manual_seed(2)
    for tq, tk in ((28, 28), (13, 45), (1, 45)):  # a prefill, a chunk that ends inside a block, a decode step
        q, k, _ = random_qkv(tq, tk)
        layout = QueryLayout(q_len=tq, kv_len=tk, block_size=8)
        n_last = min(tq, tk - (tk - 1) // 8 * 8)
        exact = mass_scores(q[:, :, -n_last:], k, QueryLayout(q_len=n_last, kv_len=tk, block_size=8))
        assert torch.allclose(pooled_mass_scores(q, k, layout)[:, :, -1:], exact, atol=1e-6)


def test_a_block_with_one_large_key_wins_the_raw_maximum_but_not_the_mass():
    """The failure the mass indexers exist for: block 0 holds the single largest q.k, block 1 four slightly
    smaller ones (and the other head's only interest), so attention spends more on block 1."""
    d, bs = 16, 4
    q = torch.zeros(1, 2, 12, d)
    k = torch.zeros(1, 1, 12, d)
    q[0, 0, :, 0] = 1.0  # head 0 looks along dimension 0
    q[0, 1, :, 1] = 1.0  # head 1 along dimension 1
    k[0, 0, 1, 0] = 10.0  # block 0: one key with q.k = 10 for head 0
    k[0, 0, 4:8, 0] = 9.0  # block 1: four keys with q.k = 9 for head 0...
    k[0, 0, 4:8, 1] = 5.0  # ...and 5 for head 1
    layout = QueryLayout(q_len=12, kv_len=12, block_size=bs)
    raw = exact_scores(q, k, layout)[0, 0, 2]  # the last query block's view of blocks 0 and 1
    assert raw[0] > raw[1]
    for scorer in (mass_scores, pooled_mass_scores):
        mass = scorer(q, k, layout)[0, 0, 2]
        assert mass[1] > mass[0], scorer.__name__
