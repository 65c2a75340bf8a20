"""The tilings the autotuner may time for the prefill kernel leave out those a GPU found wrong.

On an H200 with Triton 3.6 (benchmarks/gpu_config_sweep.py, 2026-12-04), fp32 tiles of
64 rows over 8 warps with 16-key tiles gave a relative error of 0.87 or an illegal memory
access, while the same tilings in bf16 were right. The autotuner times every config its pruning keeps
and checks none, so a wrong one could win on speed: the pruning must drop them.
"""

import torch

from engine.attention.kernels.query_tiles import CONFIGS, fitting
from engine.attention.kernels.sparse_prefill import _FITS


def kept(dtype, block=16, group_pad=4, head_dim=32) -> list:
    q = torch.empty(1, dtype=dtype)
    return _FITS(CONFIGS, {"Q": q}, BLOCK_SIZE=block, GROUP_PAD=group_pad, HEAD_DIM_PAD=head_dim,
                 KEY_TILE=min(block, 32))


def test_fp32_tiles_under_128_rows_run_on_4_warps_only():
    tilings = [(c.kwargs["TOKENS"], c.num_warps) for c in kept(torch.float32)]

    assert tilings and all(warps == 4 for _, warps in tilings)


def test_bf16_keeps_its_8_warp_tilings():
    assert {c.num_warps for c in kept(torch.bfloat16)} == {4, 8}


def test_fp32_tiles_of_128_rows_may_use_8_warps():
    # 32 tokens x 4 heads: rows enough for two warp groups.
    generous = fitting(values_per_warp=1 << 20, max_rows=512)
    q = torch.empty(1, dtype=torch.float32)
    configs = generous(CONFIGS, {"Q": q}, BLOCK_SIZE=32, GROUP_PAD=4, HEAD_DIM_PAD=32, KEY_TILE=32)

    assert any(c.kwargs["TOKENS"] == 32 and c.num_warps == 8 for c in configs)
