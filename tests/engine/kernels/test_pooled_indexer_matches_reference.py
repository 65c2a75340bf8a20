"""The pooled indexer's block scores on every backend against a float64 oracle
(the contract is tests/engine/kernels/indexer_contract.py).

Entries at or before each query block's own are meaningful: selection masks the rest,
and the Triton kernel writes -inf there.
"""

import pytest
import torch

from engine.attention.layout import QueryLayout
from tests.engine.kernels.conftest import DEVICE, TOLERANCE, needs_gpu
from tests.engine.kernels.indexer_contract import IndexerContract, TritonIndexerContract


def oracle_pooled_scores(q: torch.Tensor, k: torch.Tensor, layout: QueryLayout) -> torch.Tensor:
    """From the definition, in float64 on q's device: [B, HKV, NQB, NKB].

    score(qb, kb) = max over the query heads sharing a KV head of
    (mean of the real queries in qb) . (mean of the keys in kb).
    """
    q, k = q.double(), k.double()
    b, hq, _, d = q.shape
    hkv = k.shape[1]
    bs = layout.block_size
    q_row = torch.arange(layout.q_offset, layout.kv_len, device=q.device) // bs - layout.first_block
    k_row = torch.arange(layout.kv_len, device=q.device) // bs
    q_mean = q.new_zeros(b, hq, layout.n_q_blocks, d).index_add_(2, q_row, q)
    q_mean /= torch.bincount(q_row, minlength=layout.n_q_blocks)[:, None]
    k_mean = k.new_zeros(b, hkv, layout.n_k_blocks, d).index_add_(2, k_row, k)
    k_mean /= torch.bincount(k_row, minlength=layout.n_k_blocks)[:, None]
    per_head = torch.einsum("bhnd,bhkd->bhnk", q_mean, k_mean.repeat_interleave(hq // hkv, dim=1))
    return per_head.unflatten(1, (hkv, hq // hkv)).amax(dim=2)


def selectable(layout: QueryLayout) -> torch.Tensor:
    """[NQB, NKB] bool on the CPU: key blocks at or before each query block's own."""
    return torch.arange(layout.n_k_blocks)[None, :] <= layout.q_blocks("cpu")[:, None]


class PooledIndexer:
    indexer = "pooled"
    oracle = staticmethod(oracle_pooled_scores)
    meaningful = staticmethod(selectable)


class TestTorchBackend(PooledIndexer, IndexerContract):
    backend_name = "torch"


class TestTritonBackend(PooledIndexer, TritonIndexerContract):
    @needs_gpu
    @pytest.mark.parametrize("hq, hkv, d", [(28, 4, 128), (32, 8, 128), (14, 2, 64)])
    def test_it_matches_the_oracle_at_realistic_shapes(self, scores_fn, hq, hkv, d):
        # Qwen2.5-7B, Llama 3 and Qwen2.5-0.5B head layouts, a 32K prefill and a 4K chunk at its end.
        for tq in (32768, 4096):
            scores, oracle, layout, case = self.run_case(scores_fn, hq, hkv, tq, 32768, d, 64, torch.bfloat16)
            assert self.error(scores, oracle, layout) <= TOLERANCE[torch.bfloat16], case
            assert torch.isneginf(scores[..., ~selectable(layout).to(DEVICE)]).all(), case
