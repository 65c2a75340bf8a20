"""The pooled indexer's block scores on every backend against a float64 oracle.

Only entries at or before each query block's own are meaningful (selection masks the
rest), so the contract compares those; the Triton kernel also promises -inf after
the diagonal. Inputs are fresh random draws in every test; the seed is in the
failure message.
"""

import pytest
import torch

from engine.attention.backends import resolve
from engine.attention.layout import QueryLayout
from tests.engine.kernels.conftest import DEVICE, TOLERANCE, changed_inputs, needs_gpu, poisoned, relative_error


def fresh_inputs(batch, hq, hkv, tq, tk, d, dtype):
    seed = int(torch.randint(0, 2**31, ()))
    generator = torch.Generator().manual_seed(seed)
    q = torch.randn(batch, hq, tq, d, generator=generator).to(DEVICE, dtype)
    k = torch.randn(batch, hkv, tk, d, generator=generator).to(DEVICE, dtype)
    return q, k, seed


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
    """[NQB, NKB] bool: key blocks at or before each query block's own."""
    return torch.arange(layout.n_k_blocks, device=DEVICE)[None, :] <= layout.q_blocks(DEVICE)[:, None]


class PooledIndexerContract:
    backend_name: str

    @pytest.fixture
    def pooled_scores(self):
        return resolve(self.backend_name, DEVICE).pooled_scores

    def run_case(self, pooled_scores, hq, hkv, tq, tk, d, block_size, dtype, batch=1):
        """(scores, oracle, layout, description) for one fresh draw."""
        layout = QueryLayout(q_len=tq, kv_len=tk, block_size=block_size)
        q, k, seed = fresh_inputs(batch, hq, hkv, tq, tk, d, dtype)
        out = poisoned(batch, hkv, layout.n_q_blocks, layout.n_k_blocks, dtype=torch.float32)
        scores = pooled_scores(q, k, layout, out=out)
        case = f"seed {seed}: B={batch} HQ={hq} HKV={hkv} Tq={tq} Tk={tk} D={d} block={block_size} {dtype}"
        assert scores.data_ptr() == out.data_ptr() and scores.dtype == torch.float32, case
        assert not scores.isnan().any(), f"some scores were never written ({case})"
        return scores, oracle_pooled_scores(q, k, layout), layout, case

    def error(self, scores, oracle, layout) -> float:
        keep = selectable(layout)
        return relative_error(scores[..., keep], oracle[..., keep])

    @pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
    @pytest.mark.parametrize("hq, hkv", [(2, 2), (6, 2), (8, 2)])  # groups of 1, 3 (not a power of two) and 4
    @pytest.mark.parametrize("d", [32, 64])
    def test_it_matches_the_oracle_on_a_full_prefill(self, pooled_scores, dtype, hq, hkv, d):
        t = int(torch.randint(100, 700, ()))  # rarely a whole number of blocks
        scores, oracle, layout, case = self.run_case(pooled_scores, hq, hkv, t, t, d, 16, dtype)
        assert self.error(scores, oracle, layout) <= TOLERANCE[dtype], case

    @pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
    @pytest.mark.parametrize("tq, tk", [(37, 150), (64, 640), (200, 1111), (1, 77), (1, 64)])
    def test_it_matches_the_oracle_on_a_chunked_prefill(self, pooled_scores, dtype, tq, tk):
        # Queries against a longer cache, starting on and off block boundaries; Tq=1 is decode.
        scores, oracle, layout, case = self.run_case(pooled_scores, 6, 2, tq, tk, 32, 16, dtype, batch=2)
        assert self.error(scores, oracle, layout) <= TOLERANCE[dtype], case

    @pytest.mark.parametrize("block_size, d", [(32, 40), (64, 64), (128, 32)])
    def test_it_handles_other_block_sizes_and_head_dims(self, pooled_scores, block_size, d):
        scores, oracle, layout, case = self.run_case(pooled_scores, 8, 2, 300, 5000, d, block_size, torch.bfloat16)
        assert self.error(scores, oracle, layout) <= TOLERANCE[torch.bfloat16], case

    def test_it_reads_strided_inputs(self, pooled_scores):
        # Queries and keys as transformers holds them before the transpose: [B, T, H, D].
        q = torch.randn(1, 90, 6, 64).to(DEVICE).transpose(1, 2)
        k = torch.randn(1, 170, 2, 64).to(DEVICE).transpose(1, 2)
        layout = QueryLayout(q_len=90, kv_len=170, block_size=16)
        scores = pooled_scores(q, k, layout)
        assert self.error(scores, oracle_pooled_scores(q, k, layout), layout) <= 1e-3


class TestTorchBackend(PooledIndexerContract):
    backend_name = "torch"


class TestTritonBackend(PooledIndexerContract):
    backend_name = "triton"

    @pytest.mark.parametrize("tq, tk", [(700, 700), (37, 150), (200, 1111), (1, 77)])
    def test_it_writes_minus_infinity_exactly_after_the_diagonal(self, pooled_scores, tq, tk):
        scores, _, layout, case = self.run_case(pooled_scores, 6, 2, tq, tk, 32, 16, torch.float32)
        keep = selectable(layout)
        assert torch.isneginf(scores[..., ~keep]).all(), case
        assert torch.isfinite(scores[..., keep]).all(), case

    @pytest.mark.parametrize(
        "change, message",
        [
            (dict(q=torch.randn(1, 5, 40, 32)), "share"),
            (dict(k=torch.randn(1, 2, 100, 16)), "disagree"),
            (dict(layout=QueryLayout(q_len=41, kv_len=100, block_size=16)), "layout"),
            (dict(q=torch.randn(1, 4, 40, 32, dtype=torch.float64)), "fp32, fp16, bf16"),
            (dict(out=torch.empty(1, 2, 3, 7)), "out must be"),
        ],
    )
    def test_it_rejects_inputs_it_cannot_score(self, pooled_scores, change, message):
        args = dict(
            q=torch.randn(1, 4, 40, 32),
            k=torch.randn(1, 2, 100, 32),
            layout=QueryLayout(q_len=40, kv_len=100, block_size=16),
            out=None,
        )
        args = changed_inputs(args, change)
        with pytest.raises(ValueError, match=message):
            pooled_scores(args["q"], args["k"], args["layout"], out=args["out"])

    @needs_gpu
    @pytest.mark.parametrize("hq, hkv", [(28, 4), (32, 8)])
    def test_it_matches_the_oracle_at_realistic_shapes(self, pooled_scores, hq, hkv):
        # Qwen2.5-7B and Llama 3 head layouts, a 32K prefill and a 4K chunk at its end.
        for tq in (32768, 4096):
            scores, oracle, layout, case = self.run_case(pooled_scores, hq, hkv, tq, 32768, 128, 64, torch.bfloat16)
            assert self.error(scores, oracle, layout) <= TOLERANCE[torch.bfloat16], case
            assert torch.isneginf(scores[..., ~selectable(layout)]).all(), case
