"""The exact indexer's block scores on every backend against a float64 oracle
(the contract is tests/engine/kernels/indexer_contract.py).

Entries before each query block's own are meaningful: the window always keeps the
diagonal block, selection masks later ones, and the Triton kernel writes -inf from the
diagonal on.
"""

import pytest
import torch

from engine.attention.backends import resolve
from engine.attention.layout import QueryLayout
from tests.engine.kernels.conftest import DEVICE, TOLERANCE, needs_gpu, poisoned, relative_error
from tests.engine.kernels.indexer_contract import IndexerContract, TritonIndexerContract, fresh_inputs


def oracle_exact_scores(q: torch.Tensor, k: torch.Tensor, layout: QueryLayout) -> torch.Tensor:
    """From the definition, in float64 on the CPU: [B, HKV, NQB, NKB].

    score(qb, kb) = max over the query heads sharing a KV head, the real queries of qb
    and the keys of kb of q . k: every token pair scored, then reduced block by block.
    """
    q, k = q.detach().cpu().double(), k.detach().cpu().double()
    b, hq, tq, d = q.shape
    hkv, tk = k.shape[1], k.shape[2]
    bs, n_qb, n_kb = layout.block_size, layout.n_q_blocks, layout.n_k_blocks
    tokens = torch.einsum("bhgtd,bhjd->bhgtj", q.view(b, hkv, hq // hkv, tq, d), k).amax(2)  # [B, HKV, Tq, Tk]
    # Onto the block grid: -inf where the first query block starts before the queries and
    # where the last blocks run past them and past the keys.
    lead = layout.q_offset - layout.first_block * bs
    grid = torch.nn.functional.pad(tokens, (0, n_kb * bs - tk, lead, n_qb * bs - lead - tq), value=float("-inf"))
    return grid.view(b, hkv, n_qb, bs, n_kb, bs).amax(dim=(3, 5))


def earlier(layout: QueryLayout) -> torch.Tensor:
    """[NQB, NKB] bool on the CPU: key blocks before each query block's own."""
    return torch.arange(layout.n_k_blocks)[None, :] < layout.q_blocks("cpu")[:, None]


class ExactIndexer:
    indexer = "exact"
    oracle = staticmethod(oracle_exact_scores)
    meaningful = staticmethod(earlier)


class TestTorchBackend(ExactIndexer, IndexerContract):
    backend_name = "torch"


class TestTritonBackend(ExactIndexer, TritonIndexerContract):
    def test_it_rejects_blocks_smaller_than_a_dot_product(self, scores_fn):
        q, k = torch.randn(1, 4, 40, 32).to(DEVICE), torch.randn(1, 2, 100, 32).to(DEVICE)
        with pytest.raises(ValueError, match="block size of at least 16"):
            scores_fn(q, k, QueryLayout(q_len=40, kv_len=100, block_size=8))

    @needs_gpu
    @pytest.mark.parametrize("hq, hkv, d", [(28, 4, 128), (32, 8, 128), (14, 2, 64)])
    def test_it_matches_the_reference_at_realistic_shapes(self, scores_fn, hq, hkv, d):
        # Qwen2.5-7B, Llama 3 and Qwen2.5-0.5B head layouts, an 8K prefill and a 1K chunk at its end. The
        # float64 oracle would hold every token pair; the torch reference, in fp32, does not.
        reference = resolve("torch", DEVICE).exact_scores
        for tq in (8192, 1024):
            layout = QueryLayout(q_len=tq, kv_len=8192, block_size=64)
            q, k, seed = fresh_inputs(1, hq, hkv, tq, 8192, d, torch.bfloat16)
            out = poisoned(1, hkv, layout.n_q_blocks, layout.n_k_blocks, dtype=torch.float32)
            scores = scores_fn(q, k, layout, out=out)
            keep = earlier(layout).to(DEVICE)
            expected = reference(q.float(), k.float(), layout)
            assert relative_error(scores[..., keep], expected[..., keep]) <= TOLERANCE[torch.bfloat16], f"seed {seed}"
            assert torch.isneginf(scores[..., ~keep]).all(), f"seed {seed}"
