"""The pooled_mass indexer's Triton kernel against its torch reference run in float64, on the CPU through
Triton's interpreter (or on CUDA): every entry of the scores, the zeros after each block's visible keys
included, in prefill, in a chunk that starts at a later block and in a decode step.

Bounds, on ||out - ref|| / ||ref||: in the interpreter the kernel's products and exponentials are fp32
against the same fp32 means of the same inputs, so only fp32 rounding separates it from the float64
reference (measured at most 3e-7 here); 1e-5 leaves room for summation order and nothing for a wrong key
or block. On a GPU the products run on the tensor cores (tf32x3 for fp32 inputs, tf32 for bf16:
engine/attention/kernels/pooled_indexer.py says why), so the engine's kernel bounds apply (conftest.TOLERANCE).
"""

import pytest
import torch

from engine.attention import indexers
from engine.attention.backends import resolve
from engine.attention.kernels import pooled_mass_indexer
from engine.attention.layout import QueryLayout
from tests.engine.kernels.conftest import DEVICE, ON_GPU, TOLERANCE, needs_gpu, poisoned, relative_error
from tests.engine.kernels.indexer_contract import fresh_inputs

BOUND = TOLERANCE if ON_GPU else {torch.float32: 1e-5, torch.bfloat16: 1e-5}
# (query heads, KV heads, head dim): Qwen2.5-Coder-0.5B (groups of 7) and SmolLM2-135M (groups of 3).
GQA_SHAPES = [(14, 2, 64), (9, 3, 64)]
DTYPES = [torch.float32, torch.bfloat16]


def assert_matches_reference(hq, hkv, d, tq, tk, dtype, block_size=64, batch=1, bound=None):
    layout = QueryLayout(q_len=tq, kv_len=tk, block_size=block_size)
    q, k, seed = fresh_inputs(batch, hq, hkv, tq, tk, d, dtype)
    out = poisoned(batch, hkv, layout.n_q_blocks, layout.n_k_blocks, dtype=torch.float32)
    scores = pooled_mass_indexer.pooled_mass_scores(q, k, layout, out=out)
    case = f"seed {seed}: B={batch} HQ={hq} HKV={hkv} Tq={tq} Tk={tk} D={d} block={block_size} {dtype}"
    assert scores.data_ptr() == out.data_ptr() and not scores.isnan().any(), f"some scores were never written ({case})"
    expected = indexers.pooled_mass_scores(q.double(), k.double(), layout)
    assert relative_error(scores, expected) <= (bound or BOUND[dtype]), case
    # Blocks after a row's last visible key hold exactly no mass, as the reference's softmax gives them.
    rows = layout.q_blocks("cpu")[:-1]  # the pooled rows; the last is mass_scores' own
    later = torch.arange(layout.n_k_blocks)[None, :] > rows[:, None]
    assert (scores.cpu()[:, :, :-1][..., later] == 0).all(), case
    # Each head spends a mass of 1 over its visible keys.
    sums = scores.cpu()[:, :, :-1].sum(-1)
    assert torch.allclose(sums, torch.full_like(sums, hq // hkv), rtol=1e-5), case


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("hq, hkv, d", GQA_SHAPES)
@pytest.mark.parametrize("t", [64, 130, 321])  # one block (its row is mass_scores'), then partial last blocks
def test_it_matches_the_reference_on_a_full_prefill(hq, hkv, d, t, dtype):
    assert_matches_reference(hq, hkv, d, t, t, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("hq, hkv, d", GQA_SHAPES)
@pytest.mark.parametrize("tq, tk", [(150, 400), (128, 448)])  # starting inside block 3; on the boundary of block 5
def test_it_matches_the_reference_on_a_chunk_that_starts_at_a_later_block(hq, hkv, d, tq, tk, dtype):
    assert_matches_reference(hq, hkv, d, tq, tk, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("hq, hkv, d", GQA_SHAPES)
@pytest.mark.parametrize("tk", [77, 300])
def test_it_matches_the_reference_on_a_decode_step(hq, hkv, d, tk, dtype):
    assert_matches_reference(hq, hkv, d, 1, tk, dtype)


@pytest.mark.parametrize("block_size", [16, 128])
def test_it_handles_other_block_sizes_and_a_batch(block_size):
    # Block 16: 18 pooled rows, two tiles of query blocks; block 128: two key tiles per block.
    assert_matches_reference(9, 3, 64, 300, 300, torch.bfloat16, block_size=block_size, batch=2)


def test_it_reads_strided_inputs():
    # Queries and keys as transformers holds them before the transpose: [B, T, H, D].
    q = torch.randn(1, 200, 6, 32).to(DEVICE).transpose(1, 2)
    k = torch.randn(1, 260, 2, 32).to(DEVICE).transpose(1, 2)
    layout = QueryLayout(q_len=200, kv_len=260, block_size=64)
    scores = pooled_mass_indexer.pooled_mass_scores(q, k, layout)
    assert relative_error(scores, indexers.pooled_mass_scores(q.double(), k.double(), layout)) <= BOUND[torch.float32]


def test_it_rejects_blocks_smaller_than_a_dot_product():
    q, k = torch.randn(1, 4, 40, 32).to(DEVICE), torch.randn(1, 2, 100, 32).to(DEVICE)
    with pytest.raises(ValueError, match="block size of at least 16"):
        pooled_mass_indexer.pooled_mass_scores(q, k, QueryLayout(q_len=40, kv_len=100, block_size=8))


def test_the_triton_backend_scores_pooled_mass_with_the_kernel_and_torch_with_the_reference():
    assert resolve("triton", DEVICE).scorer("pooled_mass") is pooled_mass_indexer.pooled_mass_scores
    assert resolve("torch", DEVICE).scorer("pooled_mass") is indexers.pooled_mass_scores


@needs_gpu
@pytest.mark.parametrize("hq, hkv, d", [*GQA_SHAPES, (32, 8, 128)])
def test_it_matches_the_reference_at_realistic_shapes(hq, hkv, d):
    # The two default models and Llama 3 8B: an 8K prefill and a 1K chunk at its end, block 64, bf16.
    for tq in (8192, 1024):
        assert_matches_reference(hq, hkv, d, tq, 8192, torch.bfloat16)
