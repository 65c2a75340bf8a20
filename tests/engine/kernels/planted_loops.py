"""Loops that multiply tiles chosen through an index, compiled for sm_90 with
scripts/compile_kernels.py's own compile step. Run as a script (Triton must not be in
interpreter mode); prints, per loop, its async copies and tensor-core instructions.

- branchy: the loads sit under a branch, as the prefill kernel's did before its loop
  became branch-free: the pipeliner prefetches nothing.
- branch free: a mask instead, and the tiles are prefetched; on fp32 tiles with
  "ieee" precision the products run on the CUDA cores, as the pooled indexer's did.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))

import compile_kernels  # noqa: E402  (switches Triton's interpreter off before Triton loads)
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402


@triton.jit
def indexed_loop(A, X, Idx, Out, n, TILE: tl.constexpr, PRECISION: tl.constexpr, BRANCHY: tl.constexpr):
    """acc += a @ X[block] over the index's blocks; -1 skipped by a branch (BRANCHY) or by a mask."""
    rows = tl.arange(0, TILE)[:, None] * TILE + tl.arange(0, TILE)[None, :]
    a = tl.load(A + rows)
    acc = tl.zeros([TILE, TILE], dtype=tl.float32)
    for i in range(0, n):
        block = tl.load(Idx + i)
        if BRANCHY:
            if block >= 0:
                acc += tl.dot(a, tl.load(X + block * TILE * TILE + rows), input_precision=PRECISION)
        else:
            tile = tl.load(X + block * TILE * TILE + rows, mask=block >= 0, other=0.0)
            acc += tl.dot(a, tile, input_precision=PRECISION)
    tl.store(Out + rows, acc)


def compiled(branchy: bool, dtype: torch.dtype, precision: str) -> dict:
    args = {
        "A": torch.empty(64 * 64, device="meta", dtype=dtype),
        "X": torch.empty(1 << 20, device="meta", dtype=dtype),
        "Idx": torch.empty(64, device="meta", dtype=torch.int64),
        "Out": torch.empty(64 * 64, device="meta"),
        "n": 53,
    }
    config = triton.Config({}, num_warps=4, num_stages=3)
    constexprs = {"TILE": 64, "PRECISION": precision, "BRANCHY": branchy}
    return compile_kernels.compile_for_hopper(indexed_loop, args, constexprs, config)


if __name__ == "__main__":
    for name, branchy, dtype, precision in (
        ("branchy", True, torch.bfloat16, "tf32"),
        ("branch_free", False, torch.bfloat16, "tf32"),
        ("branch_free_ieee", False, torch.float32, "ieee"),
    ):
        usage = compiled(branchy, dtype, precision)
        print(name, usage["async_copies"], usage["tensor_core_ops"])
