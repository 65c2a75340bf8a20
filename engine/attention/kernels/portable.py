"""What lets one kernel source run compiled on a GPU and in Triton's interpreter on the CPU.

Triton decides at decoration time whether a kernel is compiled or interpreted, from
TRITON_INTERPRET; it is read here once, when the kernel modules are imported, the
same moment. Two things differ under the interpreter:
- Autotuning: the autotuner times even a single surviving config, and timing needs
  a GPU driver, so the interpreter gets a one-config list (run untimed).
- bf16 products: the interpreter keeps bf16 as raw 16-bit integers and multiplies
  the bit patterns in `tl.dot` (triton-lang/triton#11584; maintainers: "we just
  don't support it yet"), so there the operands are widened to fp32 first. Widening
  is exact, as a tensor core's products are; only the summation order differs.
"""

import os

import triton
import triton.language as tl

INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
# The kernels' smallest block: tl.dot needs 16 along every dimension.
MIN_KERNEL_BLOCK = 16
_WIDEN = tl.constexpr(INTERPRETED)


def autotune_configs(candidates: list[triton.Config]) -> list[triton.Config]:
    """The autotuning candidates, or under the interpreter the first alone."""
    return candidates[:1] if INTERPRETED else candidates


def check_block_size(block_size: int) -> None:
    """ValueError unless the kernels take this block size: a power of two of at least MIN_KERNEL_BLOCK."""
    if block_size < MIN_KERNEL_BLOCK or block_size & (block_size - 1):
        raise ValueError(f"the Triton kernels take a power-of-two block size of at least {MIN_KERNEL_BLOCK}, "
                         f"got {block_size}")


@triton.jit
def dot(a, b):
    """a @ b accumulated in fp32. fp32 operands take "tf32x3" (three TF32 products on the
    tensor cores, about fp32 accuracy): plain TF32 keeps 10 mantissa bits and would miss
    the fp32 bound. bf16 and fp16 operands ignore the setting."""
    if _WIDEN:
        a = a.to(tl.float32)
        b = b.to(tl.float32)
    return tl.dot(a, b, input_precision="tf32x3")
