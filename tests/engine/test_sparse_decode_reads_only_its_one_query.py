"""Decode attends one query against its selected blocks: no padded query block, no dense-sized mask.

The decode path is separate from the prefill path (engine.attention.reference.sparse_decode), so it is checked
against it here, on uneven selections per KV head.
"""

import pytest
import torch

from engine.attention import block_sparse_attention
from engine.attention.reference import sparse_decode
from tests.engine.conftest import random_qkv, relative_error


@pytest.mark.parametrize("tk", [161, 176, 17])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_it_equals_the_prefill_path_with_one_query(tk, dtype):
    torch.manual_seed(tk)
    q, k, v = (t.to(dtype) for t in random_qkv(1, tk))
    last = (tk - 1) // 16
    # KV head 0 reads three blocks, head 1 only the diagonal one: rows of unequal width, padding last.
    index = torch.full((1, 2, 1, 4), -1)
    head0 = sorted({0, last // 2, last})
    index[0, 0, 0, : len(head0)] = torch.tensor(head0)
    index[0, 1, 0, 0] = last
    out = sparse_decode(q, k, v, index, scale=0.2, block_size=16)
    ref = block_sparse_attention(q.double(), k.double(), v.double(), index, scale=0.2, block_size=16)
    assert relative_error(out.double(), ref) <= (1e-6 if dtype == torch.float32 else 1e-2)


def test_it_writes_into_the_buffer_it_is_given():
    torch.manual_seed(3)
    q, k, v = random_qkv(1, 100)
    index = torch.tensor([0, 3, 6]).view(1, 1, 1, 3).expand(1, 2, 1, 3)
    out = torch.full_like(q, float("nan"))
    sparse_decode(q, k, v, index, scale=0.2, block_size=16, out=out)
    assert not out.isnan().any()


def test_it_refuses_more_than_one_query():
    q, k, v = random_qkv(2, 100)
    with pytest.raises(ValueError, match="one query"):
        sparse_decode(q, k, v, torch.zeros(1, 2, 1, 1, dtype=torch.long), scale=0.2, block_size=16)
