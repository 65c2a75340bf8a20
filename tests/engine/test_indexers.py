"""The indexers score blocks by the formulas written in engine/attention/indexers.py."""

import torch

from engine.attention.indexers import exact_scores, pooled_scores
from engine.attention.layout import QueryLayout
from tests.engine.conftest import random_qkv


def test_the_exact_indexer_rates_an_earlier_block_by_its_best_token():
    torch.manual_seed(0)
    q, k, _ = random_qkv(40, 72)  # chunked: queries 32..71, blocks of 8
    layout = QueryLayout(q_len=40, kv_len=72, block_size=8)
    scores = exact_scores(q, k, layout)
    s = torch.einsum("bhtd,bkjd->bhktj", q, k)  # [1, HQ, HKV, Tq, Tk]
    for kv in range(2):
        heads = s[0, kv * 3 : kv * 3 + 3, kv]  # the query heads sharing this KV head
        for qb in range(layout.n_q_blocks):
            for kb in range(qb + layout.first_block):  # blocks before the query block's own
                best = max(
                    float(heads[:, t, j].max())
                    for t in range(40)
                    if (32 + t) // 8 == qb + layout.first_block
                    for j in range(kb * 8, kb * 8 + 8)
                )
                assert abs(float(scores[0, kv, qb, kb]) - best) < 1e-4


def test_the_pooled_indexer_rates_mean_query_against_mean_key():
    torch.manual_seed(1)
    q, k, _ = random_qkv(20, 20)  # last block holds 4 tokens only
    layout = QueryLayout(q_len=20, kv_len=20, block_size=8)
    scores = pooled_scores(q, k, layout)
    for kv in range(2):
        for qb, (a, b) in enumerate([(0, 8), (8, 16), (16, 20)]):
            for kb, (c, d) in enumerate([(0, 8), (8, 16), (16, 20)]):
                q_mean = q[0, kv * 3 : kv * 3 + 3, a:b].mean(1)
                k_mean = k[0, kv, c:d].mean(0)
                assert abs(float(scores[0, kv, qb, kb]) - float((q_mean @ k_mean).max())) < 1e-5
