"""Sparse decode (one new token against its selected blocks) on every backend against a float64 oracle.

Inputs are random draws from a seed fixed per test (conftest.fixed_seed); the seed of
each draw is in the failure message, so a failing case can be replayed on its own.
"""

import pytest
import torch

from engine.attention import AttentionConfig
from engine.attention.backends import resolve
from engine.attention.layout import QueryLayout
from engine.attention.reference import sparse_decode as reference_decode
from engine.attention.selection import block_index
from tests.engine.kernels.conftest import (
    DEVICE,
    TOLERANCE,
    assert_sparse_attention_rejects,
    needs_gpu,
    oracle_attention,
    poisoned,
    random_block_index,
    rejected_by_both_sparse_attentions,
    relative_error,
)


def fresh_generator() -> tuple[torch.Generator, int]:
    seed = int(torch.randint(0, 2**31, ()))
    return torch.Generator().manual_seed(seed), seed


class SparseDecodeContract:
    backend_name: str

    @pytest.fixture
    def decode(self):
        return resolve(self.backend_name, DEVICE).sparse_decode

    def run_case(self, decode, hq, hkv, tk, d, block_size, dtype, slots, batch=1, index=None):
        """Relative error against the oracle, and a description of the case for failure messages."""
        generator, seed = fresh_generator()
        q, k, v = (torch.randn(batch, h, t, d, generator=generator) for h, t in ((hq, 1), (hkv, tk), (hkv, tk)))
        q, k, v = (x.to(DEVICE, dtype) for x in (q, k, v))
        if index is None:
            index = random_block_index(batch, hkv, torch.tensor([(tk - 1) // block_size]), slots, generator)
        out = poisoned(batch, hq, 1, d, dtype=dtype)
        result = decode(q, k, v, index, d**-0.5, block_size, out=out)
        case = f"seed {seed}: B={batch} HQ={hq} HKV={hkv} Tk={tk} D={d} block={block_size} {dtype} S={slots}"
        assert result.data_ptr() == out.data_ptr() and result.shape == q.shape and result.dtype == dtype, case
        assert not result.isnan().any(), f"some outputs were never written ({case})"
        return relative_error(result, oracle_attention(q, k, v, index, d**-0.5, block_size)), case

    @pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
    @pytest.mark.parametrize("hq, hkv", [(2, 2), (6, 2), (8, 2)])  # groups of 1, 3 (not a power of two) and 4
    @pytest.mark.parametrize("d", [32, 64])
    def test_it_matches_the_oracle_for_each_group_size(self, decode, dtype, hq, hkv, d):
        tk = int(torch.randint(40, 400, ()))
        error, case = self.run_case(decode, hq, hkv, tk, d, 16, dtype, slots=6)
        assert error <= TOLERANCE[dtype], case

    @pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
    def test_it_matches_the_oracle_at_the_default_models_shape(self, decode, dtype):
        # Qwen2.5-Coder-0.5B, the default model: 14 query heads over 2 KV heads (groups of 7) of 64.
        tk = int(torch.randint(40, 400, ()))
        error, case = self.run_case(decode, 14, 2, tk, 64, 16, dtype, slots=6)
        assert error <= TOLERANCE[dtype], case

    @pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
    @pytest.mark.parametrize("past_boundary", [1, 15])
    def test_it_masks_the_keys_after_the_query_in_a_partial_last_block(self, decode, dtype, past_boundary):
        # The query is key Tk-1; the rest of its block holds no keys yet.
        error, case = self.run_case(decode, 6, 2, 9 * 16 + past_boundary, 32, 16, dtype, slots=4)
        assert error <= TOLERANCE[dtype], case

    @pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
    def test_it_merges_many_splits_of_a_long_index(self, decode, dtype):
        # 48 slots against 67 blocks: the index splits over many programs per KV head.
        error, case = self.run_case(decode, 8, 2, 67 * 16 - 5, 32, 16, dtype, slots=48, batch=2)
        assert error <= TOLERANCE[dtype], case

    def test_it_skips_padding_even_when_whole_splits_hold_nothing_else(self, decode):
        # Only the query's own block and the first one are real; 38 slots of -1 follow.
        index = torch.full((1, 2, 1, 40), -1, dtype=torch.int64)
        index[..., :2] = torch.tensor([0, 30])
        error, case = self.run_case(decode, 4, 2, 30 * 16 + 7, 32, 16, torch.float32, slots=40, index=index.to(DEVICE))
        assert error <= TOLERANCE[torch.float32], case

    @pytest.mark.parametrize("block_size, d", [(32, 40), (64, 64), (128, 32), (256, 128)])
    def test_it_handles_other_block_sizes_and_head_dims(self, decode, block_size, d):
        error, case = self.run_case(decode, 6, 2, 5 * block_size + 3, d, block_size, torch.bfloat16, slots=4)
        assert error <= TOLERANCE[torch.bfloat16], case

    def test_it_reads_strided_inputs_and_an_int32_index(self, decode):
        generator, seed = fresh_generator()
        # A cache laid out [B, Tk, HKV, D] and a query [B, 1, HQ, D], seen through transposes.
        k, v = (torch.randn(2, 100, 2, 64, generator=generator).to(DEVICE).transpose(1, 2) for _ in range(2))
        q = torch.randn(2, 1, 6, 64, generator=generator).to(DEVICE).transpose(1, 2)
        index = random_block_index(2, 2, torch.tensor([99 // 16]), 5, generator).int()
        out = decode(q, k, v, index, 0.125, 16, out=poisoned(2, 6, 1, 64, dtype=torch.float32))
        assert relative_error(out, oracle_attention(q, k, v, index, 0.125, 16)) <= 1e-3, f"seed {seed}"


class TestTorchBackend(SparseDecodeContract):
    backend_name = "torch"


class TestTritonBackend(SparseDecodeContract):
    backend_name = "triton"

    @pytest.mark.parametrize(
        "change, message",
        [
            (dict(q=torch.randn(1, 5, 1, 32)), "share"),
            (dict(q=torch.randn(1, 4, 2, 32)), "one query"),
            (dict(index=torch.zeros(1, 2, 2, 3, dtype=torch.int64)), "block index"),
            (dict(index=torch.zeros(1, 1, 1, 3, dtype=torch.int64)), "block index"),
            (dict(index=torch.zeros(1, 2, 1, 3)), "int32 or int64"),
            *rejected_by_both_sparse_attentions(q_len=1),
        ],
    )
    def test_it_rejects_inputs_it_cannot_attend(self, decode, change, message):
        index = torch.zeros(1, 2, 1, 3, dtype=torch.int64)
        assert_sparse_attention_rejects(decode, dict(q=torch.randn(1, 4, 1, 32), index=index), change, message)

    @needs_gpu
    @pytest.mark.parametrize("hq, hkv, d", [(32, 8, 128), (28, 4, 128), (14, 2, 64)])
    def test_it_matches_the_reference_at_realistic_shapes(self, decode, hq, hkv, d):
        # Llama 3, Qwen2.5-7B and Qwen2.5-0.5B head layouts at 128K keys, the engine's default selection (53 blocks).
        cfg, tk = AttentionConfig(), 131072
        layout = QueryLayout(q_len=1, kv_len=tk, block_size=cfg.block_size)
        shapes = ((hq, 1), (hkv, tk), (hkv, tk))
        q, k, v = (torch.randn(2, h, t, d, device=DEVICE, dtype=torch.bfloat16) for h, t in shapes)
        scores = torch.randn(2, hkv, 1, layout.n_k_blocks, device=DEVICE)
        index, _ = block_index(cfg, layout, 2, hkv, scores, DEVICE)
        assert index.shape[-1] == 53
        out = decode(q, k, v, index, d**-0.5, cfg.block_size, out=poisoned(2, hq, 1, d, dtype=torch.bfloat16))
        ref = reference_decode(q.float(), k.float(), v.float(), index, d**-0.5, cfg.block_size)
        assert not out.isnan().any()
        assert relative_error(out, ref) <= TOLERANCE[torch.bfloat16]
