"""The inputs both indexer kernels take: q [B, HQ, Tq, D] and k [B, HKV, Tk, D] on one layout,
and an optional fp32 [B, HKV, NQB, NKB] buffer for the scores."""

from __future__ import annotations

import torch

from engine.attention.kernels.portable import INTERPRETED
from engine.attention.layout import QueryLayout


def check_score_inputs(q: torch.Tensor, k: torch.Tensor, layout: QueryLayout, out: torch.Tensor | None) -> torch.Tensor:
    """Shapes, dtypes and devices an indexer kernel accepts (ValueError naming the first mismatch); returns out."""
    if q.dim() != 4 or k.dim() != 4:
        raise ValueError(f"q and k must be [B, H, T, D], got {tuple(q.shape)} and {tuple(k.shape)}")
    b, hq, tq, d = q.shape
    _, hkv, tk, _ = k.shape
    if k.shape[0] != b or k.shape[3] != d:
        raise ValueError(f"q {tuple(q.shape)} and k {tuple(k.shape)} disagree on batch or head dim")
    if hkv == 0 or hq % hkv:
        raise ValueError(f"{hq} query heads cannot share {hkv} KV heads evenly")
    if (tq, tk) != (layout.q_len, layout.kv_len):
        raise ValueError(f"layout is for {layout.q_len} queries and {layout.kv_len} keys, got {tq} and {tk}")
    if not 0 < tq <= tk:
        raise ValueError(f"need 1..{tk} queries against {tk} keys, got {tq}")
    if q.dtype not in (torch.float32, torch.float16, torch.bfloat16) or k.dtype != q.dtype:
        raise ValueError(f"q and k must share one of fp32, fp16, bf16; got {q.dtype} and {k.dtype}")
    if not 1 <= d <= 256:
        raise ValueError(f"head dim must be 1..256, got {d}")
    shape = (b, hkv, layout.n_q_blocks, layout.n_k_blocks)
    if out is None:
        out = torch.empty(shape, device=q.device, dtype=torch.float32)
    if tuple(out.shape) != shape or out.dtype != torch.float32:
        raise ValueError(f"out must be {shape} float32, got {tuple(out.shape)} {out.dtype}")
    if (layout.n_q_blocks - 1) * out.stride(2) + (layout.n_k_blocks - 1) * out.stride(3) >= 2**31:
        raise ValueError(f"{layout.n_q_blocks} x {layout.n_k_blocks} block scores per head pass the kernels' "
                         "int32 offsets")
    if len({t.device for t in (q, k, out)}) != 1:
        raise ValueError("q, k and out must be on one device")
    if q.device.type != "cuda" and not INTERPRETED:
        raise ValueError(f"the Triton kernels need CUDA tensors (or TRITON_INTERPRET=1), got {q.device}")
    return out
