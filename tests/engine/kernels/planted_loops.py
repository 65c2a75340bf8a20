"""Two loops that multiply tiles chosen through an index, compiled for sm_90 with
scripts/compile_kernels.py's own compile step. Run as a script (Triton must not be in
interpreter mode); prints each loop's async copies. The loop whose loads sit under a
branch (what the prefill kernel had before its loop became branch-free) gets none;
its masked, branch-free twin gets them: the pipeliner prefetches its tiles.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))

import compile_kernels  # noqa: E402  (switches Triton's interpreter off before Triton loads)
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402


@triton.jit
def branchy(A, X, Idx, Out, n, TILE: tl.constexpr):
    rows = tl.arange(0, TILE)[:, None] * TILE + tl.arange(0, TILE)[None, :]
    a = tl.load(A + rows)
    acc = tl.zeros([TILE, TILE], dtype=tl.float32)
    for i in range(0, n):
        block = tl.load(Idx + i)
        if block >= 0:
            acc += tl.dot(a, tl.load(X + block * TILE * TILE + rows))
    tl.store(Out + rows, acc)


@triton.jit
def branch_free(A, X, Idx, Out, n, TILE: tl.constexpr):
    rows = tl.arange(0, TILE)[:, None] * TILE + tl.arange(0, TILE)[None, :]
    a = tl.load(A + rows)
    acc = tl.zeros([TILE, TILE], dtype=tl.float32)
    for i in range(0, n):
        block = tl.load(Idx + i)
        acc += tl.dot(a, tl.load(X + block * TILE * TILE + rows, mask=block >= 0, other=0.0))
    tl.store(Out + rows, acc)


if __name__ == "__main__":
    args = {
        "A": torch.empty(64 * 64, device="meta", dtype=torch.bfloat16),
        "X": torch.empty(1 << 20, device="meta", dtype=torch.bfloat16),
        "Idx": torch.empty(64, device="meta", dtype=torch.int64),
        "Out": torch.empty(64 * 64, device="meta"),
        "n": 53,
    }
    config = triton.Config({}, num_warps=4, num_stages=3)
    for kernel in (branchy, branch_free):
        print(kernel.__name__, compile_kernels.compile_for_hopper(kernel, args, {"TILE": 64}, config)["async_copies"])
