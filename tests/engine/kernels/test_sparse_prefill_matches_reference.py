"""Block-sparse attention (prefill and chunked prefill) on every backend against a float64 oracle."""

import pytest
import torch

from engine.attention import AttentionConfig
from engine.attention.backends import resolve
from engine.attention.layout import QueryLayout
from engine.attention.reference import block_sparse_attention as reference_attention
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


class SparsePrefillContract:
    backend_name: str

    @pytest.fixture
    def attention(self):
        return resolve(self.backend_name, DEVICE).sparse_attention

    def run_case(self, attention, hq, hkv, tq, tk, d, block_size, dtype, slots=5, seed=0):
        generator = torch.Generator().manual_seed(seed)
        layout = QueryLayout(q_len=tq, kv_len=tk, block_size=block_size)
        q = torch.randn(1, hq, tq, d, generator=generator).to(DEVICE, dtype)
        k = torch.randn(1, hkv, tk, d, generator=generator).to(DEVICE, dtype)
        v = torch.randn(1, hkv, tk, d, generator=generator).to(DEVICE, dtype)
        index = random_block_index(1, hkv, layout.q_blocks("cpu"), slots, generator)
        out = attention(q, k, v, index, d**-0.5, block_size, out=poisoned(1, hq, tq, d, dtype=dtype))
        assert out.shape == q.shape and out.dtype == dtype
        assert not out.isnan().any(), "some outputs were never written"
        return relative_error(out, oracle_attention(q, k, v, index, d**-0.5, block_size))

    @pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
    @pytest.mark.parametrize("hq, hkv, d", [(2, 2, 32), (6, 2, 64), (8, 2, 32), (14, 2, 64)])  # last: the default model
    def test_it_matches_the_oracle_on_a_full_prefill(self, attention, dtype, hq, hkv, d):
        # 150 tokens: the last block is partial.
        assert self.run_case(attention, hq, hkv, 150, 150, d, 16, dtype) <= TOLERANCE[dtype]

    @pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
    @pytest.mark.parametrize("tq, tk", [(37, 150), (16, 64), (1, 77)])
    def test_it_matches_the_oracle_on_a_chunked_prefill(self, attention, dtype, tq, tk):
        # Queries offset against a longer cache, starting on and off block boundaries.
        assert self.run_case(attention, 6, 2, tq, tk, 32, 16, dtype) <= TOLERANCE[dtype]

    @pytest.mark.parametrize("block_size", [32, 256])
    def test_it_handles_blocks_smaller_and_larger_than_one_key_tile(self, attention, block_size):
        assert self.run_case(attention, 4, 2, 300, 300, 32, block_size, torch.float32, slots=3) <= 1e-3

    def test_it_matches_the_oracle_when_rows_keep_only_their_own_block(self, attention):
        assert self.run_case(attention, 4, 1, 96, 96, 32, 16, torch.float32, slots=1) <= 1e-3

    def test_it_matches_the_oracle_over_a_selection_made_by_the_engine(self, attention):
        cfg = AttentionConfig(block_size=16, window=32, topk=32, global_blocks=2)
        layout = QueryLayout(q_len=200, kv_len=200, block_size=16)
        q, k, v = (torch.randn(1, h, 200, 32).to(DEVICE) for h in (4, 2, 2))
        scores = torch.randn(1, 2, layout.n_q_blocks, layout.n_k_blocks).to(DEVICE)
        index, _ = block_index(cfg, layout, 1, 2, scores, DEVICE)
        out = attention(q, k, v, index, 0.2, 16, out=poisoned(1, 4, 200, 32, dtype=torch.float32))
        assert relative_error(out, oracle_attention(q, k, v, index, 0.2, 16)) <= 1e-3


class TestTorchBackend(SparsePrefillContract):
    backend_name = "torch"


class TestTritonBackend(SparsePrefillContract):
    backend_name = "triton"

    def test_it_writes_into_the_layout_the_output_projection_reads(self, attention):
        q, k, v = (torch.randn(1, h, 64, 32).to(DEVICE) for h in (4, 2, 2))
        index = random_block_index(1, 2, QueryLayout(64, 64, 16).q_blocks("cpu"), 3, torch.Generator())
        out = attention(q, k, v, index, 0.2, 16)
        assert out.transpose(1, 2).is_contiguous()

    def test_a_minus_one_amid_the_ids_reads_nothing(self, attention):
        # Padding comes last by contract; the branch-free loop still must not read before
        # position 0 when a malformed row has a -1 in the middle (the oracle skips it).
        q, k, v = (torch.randn(1, h, 64, 32).to(DEVICE) for h in (4, 2, 2))
        rows = torch.tensor([[0, -1, -1, -1], [-1, 1, -1, -1], [0, -1, 2, -1], [1, -1, -1, 3]])
        index = torch.stack([rows, rows.roll(1, dims=1)])[None].to(DEVICE)  # [1, HKV 2, 4 query blocks, 4]
        out = attention(q, k, v, index, 0.2, 16, out=poisoned(1, 4, 64, 32, dtype=torch.float32))
        assert relative_error(out, oracle_attention(q, k, v, index, 0.2, 16)) <= 1e-3

    @pytest.mark.parametrize(
        "change, message",
        [
            (dict(k=torch.randn(1, 3, 64, 32), v=torch.randn(1, 3, 64, 32)), "head groups"),
            (dict(index=torch.zeros(1, 2, 3, 2, dtype=torch.int64)), "block index"),
            (dict(index=torch.zeros(1, 2, 4, 2)), "int32 or int64"),
            (dict(q=torch.randn(1, 4, 65, 32)), "last of the keys"),
            *rejected_by_both_sparse_attentions(q_len=64),
        ],
    )
    def test_it_rejects_inputs_it_cannot_attend(self, attention, change, message):
        index = torch.zeros(1, 2, 4, 2, dtype=torch.int64)
        assert_sparse_attention_rejects(attention, dict(q=torch.randn(1, 4, 64, 32), index=index), change, message)

    @needs_gpu
    @pytest.mark.parametrize("hq, hkv, d", [(32, 8, 128), (28, 4, 128), (32, 8, 64), (14, 2, 64)])
    def test_it_matches_the_reference_at_realistic_shapes(self, attention, hq, hkv, d):
        # Llama 3 and Qwen2.5 head layouts at 16K tokens, the engine's default selection.
        cfg = AttentionConfig()
        t = 16384
        layout = QueryLayout(q_len=t, kv_len=t, block_size=cfg.block_size)
        q, k, v = (torch.randn(1, h, t, d, device=DEVICE, dtype=torch.bfloat16) for h in (hq, hkv, hkv))
        scores = torch.randn(1, hkv, layout.n_q_blocks, layout.n_k_blocks, device=DEVICE)
        index, _ = block_index(cfg, layout, 1, hkv, scores, DEVICE)
        out = attention(q, k, v, index, d**-0.5, cfg.block_size, out=poisoned(1, hq, t, d, dtype=torch.bfloat16))
        ref = reference_attention(q.float(), k.float(), v.float(), index, d**-0.5, cfg.block_size)
        assert relative_error(out, ref) <= TOLERANCE[torch.bfloat16]
