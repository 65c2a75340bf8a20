"""The sparse reference attends exactly the selected tokens, with one softmax over them."""

import pytest
import torch

from engine.attention import block_sparse_attention, dense_attention
from engine.attention.layout import QueryLayout
from tests.engine.conftest import random_qkv, relative_error


def _token_mask(index: torch.Tensor, layout: QueryLayout) -> torch.Tensor:
    """Brute force: [1, HKV, Tq, Tk] True where the query's block selected the key's block, causally."""
    q_pos = torch.arange(layout.q_offset, layout.kv_len)
    q_block = q_pos // layout.block_size - layout.first_block
    k_block = torch.arange(layout.kv_len) // layout.block_size
    selected = (index[0][:, q_block, :, None] == k_block[None, None, None, :]).any(2)  # [HKV, Tq, Tk]
    return (selected & (torch.arange(layout.kv_len)[None, :] <= q_pos[:, None]))[None]


@pytest.mark.parametrize("tq,tk", [(160, 160), (45, 160), (1, 161)])
def test_it_equals_dense_attention_masked_to_the_selection(tq, tk):
    torch.manual_seed(tq)
    q, k, v = random_qkv(tq, tk)
    layout = QueryLayout(q_len=tq, kv_len=tk, block_size=16)
    # A random selection per (KV head, query block): the diagonal block plus three others.
    index = torch.full((1, 2, layout.n_q_blocks, 4), -1)
    for h in range(2):
        for i, qb in enumerate(range(layout.first_block, layout.first_block + layout.n_q_blocks)):
            others = torch.randperm(qb)[:3] if qb else torch.tensor([], dtype=torch.long)
            index[0, h, i, : len(others) + 1] = torch.cat([others, torch.tensor([qb])]).sort().values
    out = block_sparse_attention(q, k, v, index, scale=0.2, block_size=16)
    mask = _token_mask(index, layout).repeat_interleave(3, dim=1)  # to the 6 query heads
    ref = dense_attention(q, k, v, scale=0.2, mask=mask)
    assert relative_error(out, ref) <= 1e-5


def test_it_writes_every_output_element():
    torch.manual_seed(1)
    q, k, v = random_qkv(70, 130)
    index = torch.arange(9).expand(1, 2, 6, 9)  # every block (causality masks the future)
    out = block_sparse_attention(q, k, v, index, scale=0.2, block_size=16)
    assert out.shape == q.shape
    assert not out.isnan().any()
