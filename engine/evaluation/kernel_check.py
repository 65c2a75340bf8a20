"""`python -m engine check`: every attention kernel of a backend against a float64 reference.

Fresh random inputs each case; outputs start as NaN, so an element a kernel never
writes counts as an error. On a CPU the Triton kernels run in Triton's interpreter
at small shapes; on a GPU the shapes are realistic (Llama 3 and Qwen2.5 head
layouts, thousands of tokens). Prints the worst relative error ||out - ref|| / ||ref||
per kernel and dtype, and fails past the bound: fp32 1e-3, bf16 1e-2.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import torch

from engine.attention.backends import resolve
from engine.core.attention_config import AttentionConfig
from engine.attention.indexers import exact_scores as reference_exact_scores
from engine.attention.indexers import pooled_scores as reference_scores
from engine.attention.layout import QueryLayout
from engine.attention.reference import block_sparse_attention as reference_attention
from engine.attention.selection import block_index
from engine.core.backend_names import BACKENDS
from engine.core.errors import EngineError

TOLERANCE = {torch.float32: 1e-3, torch.bfloat16: 1e-2}


@dataclass(frozen=True)
class Case:
    hq: int
    hkv: int
    d: int
    q_len: int
    kv_len: int


# Small enough for the interpreter: GQA groups of 3 (not a power of two) and 4, a partial
# last block, a chunk that starts mid-block.
CPU_CASES = (Case(6, 2, 32, 200, 200), Case(8, 2, 64, 75, 300))
# Llama 3 (32/8, D 128 and 64) and Qwen2.5-7B (28/4) at 8K tokens, and a chunk of 2K against 16K.
GPU_CASES = (Case(32, 8, 128, 8192, 8192), Case(28, 4, 128, 2048, 16384), Case(32, 8, 64, 8192, 8192))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--backend", default="triton", choices=[b for b in BACKENDS if b != "auto"])
    parser.add_argument("--seed", type=int, default=None, help="fix the random inputs (default: fresh each run)")


def run(args: argparse.Namespace) -> int:
    if args.seed is not None and not 0 <= args.seed < 1 << 64:  # what torch's generator holds
        raise EngineError(f"--seed must be between 0 and {(1 << 64) - 1}, got {args.seed}")
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    generator = torch.Generator()
    if args.seed is None:
        generator.seed()
    else:
        generator.manual_seed(args.seed)
    on_gpu = device.type == "cuda"
    cases = GPU_CASES if on_gpu else CPU_CASES
    # On the CPU a budget of a few blocks still leaves most keys unselected at 300 tokens.
    cfg = AttentionConfig() if on_gpu else AttentionConfig(block_size=32, window=64, topk=64, global_blocks=2)
    backend = resolve(args.backend, device, cfg.block_size)
    worst: dict[tuple[str, torch.dtype], float] = {}
    for case in cases:
        for dtype in TOLERANCE:
            for kernel, error in _check_case(backend, cfg, case, dtype, device, generator).items():
                worst[kernel, dtype] = max(worst.get((kernel, dtype), 0.0), error, key=_nan_first)
    where = f"{backend.name}{' (interpreter)' if backend.interpreted else ''} on {_device_name(device)}"
    print(f"worst relative error against float64, {where}:")
    failed = False
    for (kernel, dtype), error in worst.items():
        bound = TOLERANCE[dtype]
        ok = error <= bound  # NaN fails
        failed |= not ok
        print(
            f"  {kernel:16} {str(dtype).removeprefix('torch.'):9} {error:.2e}  "
            f"(bound {bound:.0e})  {'ok' if ok else 'FAIL'}"
        )
    return 1 if failed else 0


def _check_case(backend, cfg, case: Case, dtype, device, generator) -> dict[str, float]:
    layout = QueryLayout(q_len=case.q_len, kv_len=case.kv_len, block_size=cfg.block_size)

    def randn(heads: int, tokens: int) -> torch.Tensor:
        return torch.randn(1, heads, tokens, case.d, generator=generator).to(device, dtype)

    def poisoned(like: torch.Tensor, dtype=dtype) -> torch.Tensor:
        return torch.full(like.shape, float("nan"), dtype=dtype, device=device)

    q, k, v = randn(case.hq, case.q_len), randn(case.hkv, case.kv_len), randn(case.hkv, case.kv_len)
    q64, k64, v64 = (t.double() for t in (q, k, v))
    scale = case.d**-0.5
    errors = {}

    expected = reference_scores(q64, k64, layout)
    scores = backend.pooled_scores(q, k, layout, out=poisoned(expected, torch.float32))
    # Only causal entries count: the rest are never selectable and may hold anything.
    causal = torch.arange(layout.n_k_blocks, device=device)[None, :] <= layout.q_blocks(device)[:, None]
    errors["pooled_indexer"] = _relative_error(scores[..., causal], expected[..., causal])

    exact = reference_exact_scores(q64, k64, layout)
    scores = backend.exact_scores(q, k, layout, out=poisoned(exact, torch.float32))
    # The exact indexer's contract is the blocks before the query block's own.
    earlier = torch.arange(layout.n_k_blocks, device=device)[None, :] < layout.q_blocks(device)[:, None]
    errors["exact_indexer"] = _relative_error(scores[..., earlier], exact[..., earlier])

    index, _ = block_index(cfg, layout, 1, case.hkv, expected.float(), device)
    out = backend.sparse_attention(q, k, v, index, scale, cfg.block_size, out=poisoned(q))
    errors["sparse_prefill"] = _relative_error(out, reference_attention(q64, k64, v64, index, scale, cfg.block_size))

    q_last, q64_last = q[:, :, -1:], q64[:, :, -1:]
    one = QueryLayout(q_len=1, kv_len=case.kv_len, block_size=cfg.block_size)
    index, _ = block_index(cfg, one, 1, case.hkv, reference_scores(q64_last, k64, one).float(), device)
    out = backend.sparse_decode(q_last, k, v, index, scale, cfg.block_size, out=poisoned(q_last))
    errors["sparse_decode"] = _relative_error(
        out, reference_attention(q64_last, k64, v64, index, scale, cfg.block_size)
    )
    return errors


def _relative_error(out: torch.Tensor, ref: torch.Tensor) -> float:
    out, ref = out.double(), ref.double()
    return float((out - ref).norm() / ref.norm())


def _nan_first(error: float) -> float:
    return float("inf") if error != error else error


def _device_name(device: torch.device) -> str:
    return torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu"
