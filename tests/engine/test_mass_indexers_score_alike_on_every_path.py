"""The mass indexers score alike on every path: one block of queries alone, or rows chunked in any size."""

import pytest
import torch

from engine.attention import indexers
from engine.attention.indexers import last_query_block, mass_scores, pooled_mass_scores
from engine.attention.layout import QueryLayout
from tests.engine.conftest import random_qkv


@pytest.mark.parametrize("tq,tk", [(1, 300), (40, 300), (5, 129)])
def test_the_one_block_indexer_path_scores_as_the_last_row_of_the_chunked_one(tq, tk):
    torch.manual_seed(tq)
    q, k, _ = (t.double() for t in random_qkv(tq + 64, tk))
    layout = QueryLayout(q_len=tq + 64, kv_len=tk, block_size=16)  # several query blocks: the chunked path
    tail = last_query_block(layout)
    expected = mass_scores(q, k, layout)[:, :, -1:]
    assert torch.allclose(mass_scores(q[:, :, -tail.q_len:], k, tail), expected, atol=1e-12)
    one = QueryLayout(q_len=1, kv_len=tk, block_size=16)
    assert torch.equal(pooled_mass_scores(q[:, :, -1:], k, one), mass_scores(q[:, :, -1:], k, one))


@pytest.mark.parametrize("tq,tk", [(300, 300), (150, 400), (129, 129)])
def test_the_pooled_mass_rows_score_alike_however_they_are_chunked(monkeypatch, tq, tk):
    torch.manual_seed(tk)
    q, k, _ = (t.double() for t in random_qkv(tq, tk))
    layout = QueryLayout(q_len=tq, kv_len=tk, block_size=16)
    whole = pooled_mass_scores(q, k, layout)
    monkeypatch.setattr(indexers, "_POOLED_MASS_CHUNK_ELEMENTS", 6 * tk)  # a row a chunk
    assert torch.allclose(pooled_mass_scores(q, k, layout), whole, atol=1e-12)
    # Each pooled row spends one unit of mass per query head over the keys it sees, and none after them.
    heads = q.shape[1] // k.shape[1]
    assert torch.allclose(whole[:, :, :-1].sum(-1), torch.full_like(whole[:, :, :-1].sum(-1), heads))
    later = torch.arange(layout.n_k_blocks)[None, :] > layout.q_blocks("cpu")[:-1, None]
    assert (whole[:, :, :-1][..., later] == 0).all()
