"""Triton split-KV decode over a block index: one new token per sequence.

Same signature and shapes as engine.attention.reference.sparse_decode:
    q [B, HQ, 1, D]; k, v [B, HKV, Tk, D], the query at position Tk-1;
    block_idx [B, HKV, 1, S] ascending key block ids, -1 padding last;
    returns [B, HQ, 1, D] in q's dtype.

Decode has one query row per head, far too little work for a program per head, so
each program takes every query head of one KV head (the GQA group shares its keys,
and the group becomes the rows of a tensor-core tile) and a share of the selected
blocks (split-KV). Each split keeps its own softmax statistics; a second kernel
merges the splits by log-sum-exp.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from engine.attention.kernels.portable import INTERPRETED, autotune_configs, check_block_size, dot

# tl.dot needs at least 16 rows: a GQA group (7 heads for Qwen2.5-7B) is padded up to this.
_MIN_DOT_ROWS = 16
# A block is walked in key tiles of at most this many values (128 keys x 128 dims):
# larger K and V tiles spilled registers in ptxas for sm_90 (D=256, block 128).
_KEY_TILE_VALUES = 128 * 128
# From a K tile of this size (64 keys x 128 dims in bf16) 4 warps spilled registers
# in ptxas for sm_90 (Triton 3.6); smaller tiles gain nothing from 8.
_WIDE_TILE_BYTES = 64 * 128 * 2
# A split should walk at least this many blocks, or the partial outputs and the
# merge cost more than the parallelism gains.
_MIN_BLOCKS_PER_SPLIT = 4
# Aim for about this many programs per streaming multiprocessor, so a long index
# fills the GPU even at batch 1 with few KV heads.
_PROGRAMS_PER_SM = 2
# The interpreter has no device to ask; an H200's count keeps CPU tests on the GPU's split rule.
_NOMINAL_SMS = 132
_LOG2E = 1.4426950408889634
@triton.jit
def _softmax_step(acc, m_i, l_i, qk, v):
    """One key tile of online softmax. qk: [G, TILE] scores already in log2 units,
    -inf where masked; acc [G, D], m_i, l_i [G] fp32; v [TILE, D]."""
    m_new = tl.maximum(m_i, tl.max(qk, 1))
    alpha = tl.exp2(m_i - m_new)
    # Normalise by the weights the product actually uses: summing p after rounding it
    # to v's dtype cancels that rounding's bias (bf16 keeps 8 bits) in acc / l_i.
    p = tl.exp2(qk - m_new[:, None]).to(v.dtype)
    l_i = l_i * alpha + tl.sum(p.to(tl.float32), 1)
    acc = acc * alpha[:, None] + dot(p, v)
    return acc, m_new, l_i


def _keep(configs, named_args, **kwargs):
    """Configs worth timing: 8 warps only pay once a K tile outgrows 4 warps' registers.

    Configs whose pipelined K/V buffers overflow shared memory (large fp32 tiles) need
    no pruning here: the autotuner records them as out of resources and moves on.
    """
    tile_bytes = kwargs["KEY_TILE"] * kwargs["D_PAD"] * named_args["K"].element_size()
    return [c for c in configs if c.num_warps == 4 or tile_bytes >= _WIDE_TILE_BYTES]


# num_stages=1 is the one that fits a 128x256 fp32 tile.
_CONFIGS = [
    triton.Config({}, num_warps=4, num_stages=2),
    triton.Config({}, num_warps=4, num_stages=1),
    triton.Config({}, num_warps=8, num_stages=2),
    triton.Config({}, num_warps=8, num_stages=1),
]


@triton.autotune(
    configs=autotune_configs(_CONFIGS),
    key=["GROUP", "HEAD_DIM", "KEY_TILE"],
    prune_configs_by={"early_config_prune": _keep},
)
@triton.jit
def _decode_split_kernel(
    Q, K, V, IDX, O_PART, LSE,
    sqb, sqh, sqd,
    skb, skh, skt, skd,
    svb, svh, svt, svd,
    sib, sih, sis,
    n_kv_heads, kv_len, n_slots, n_splits, qk_scale,
    GROUP: tl.constexpr, G_PAD: tl.constexpr, HEAD_DIM: tl.constexpr, D_PAD: tl.constexpr,
    BLOCK: tl.constexpr, KEY_TILE: tl.constexpr,
):  # fmt: skip
    """Grid (B*HKV, splits): the GQA group of one KV head over every n_splits-th index slot."""
    bh = tl.program_id(0)
    split = tl.program_id(1)
    b = (bh // n_kv_heads).to(tl.int64)
    h = (bh % n_kv_heads).to(tl.int64)
    rows = tl.arange(0, G_PAD)
    cols = tl.arange(0, D_PAD)
    row_ok = rows < GROUP
    col_ok = cols < HEAD_DIM
    q = tl.load(
        Q + b * sqb + (h * GROUP + rows)[:, None] * sqh + cols[None, :] * sqd,
        mask=row_ok[:, None] & col_ok[None, :],
        other=0.0,
    )
    k_base = K + b * skb + h * skh
    v_base = V + b * svb + h * svh
    idx_base = IDX + b * sib + h * sih
    # A finite start keeps exp2(m_i - m_new) at 1, not NaN, while every key so far was masked.
    m_i = tl.full([G_PAD], -1.0e30, dtype=tl.float32)
    l_i = tl.zeros([G_PAD], dtype=tl.float32)
    acc = tl.zeros([G_PAD, D_PAD], dtype=tl.float32)
    # Splits take slots round-robin: the -1 padding sits at the end of the index, so
    # contiguous shares would leave the last splits idle and the first ones long.
    for slot in range(split, n_slots, n_splits):
        blk = tl.load(idx_base + slot * sis)
        for start in range(0, BLOCK, KEY_TILE):
            keys = blk * BLOCK + start + tl.arange(0, KEY_TILE)
            # Padding (-1) loads nothing; keys past the query (the last block may be partial) are masked.
            key_ok = (blk >= 0) & (keys < kv_len)
            kv_mask = key_ok[:, None] & col_ok[None, :]
            k = tl.load(k_base + keys[:, None] * skt + cols[None, :] * skd, mask=kv_mask, other=0.0)
            v = tl.load(v_base + keys[:, None] * svt + cols[None, :] * svd, mask=kv_mask, other=0.0)
            qk = dot(q, tl.trans(k)) * qk_scale
            qk = tl.where(key_ok[None, :], qk, float("-inf"))
            acc, m_i, l_i = _softmax_step(acc, m_i, l_i, qk, v)
    # A split whose slots were all padding has l_i == 0: its log-sum-exp is -inf, so the
    # merge gives it weight 0, and its (zero) output must not be divided by 0.
    has_keys = l_i > 0
    lse = tl.where(has_keys, m_i + tl.log2(tl.where(has_keys, l_i, 1.0)), float("-inf"))
    o = acc / tl.where(has_keys, l_i, 1.0)[:, None]
    part = bh * n_splits + split  # O_PART [B*HKV, NS, GROUP, D], LSE [B*HKV, NS, GROUP]
    tl.store(
        O_PART + (part * GROUP + rows)[:, None] * HEAD_DIM + cols[None, :],
        o,
        mask=row_ok[:, None] & col_ok[None, :],
    )
    tl.store(LSE + part * GROUP + rows, lse, mask=row_ok)


@triton.jit
def _merge_splits_kernel(
    O_PART, LSE, OUT,
    sob, soh, sod,
    n_q_heads, n_splits,
    GROUP: tl.constexpr, HEAD_DIM: tl.constexpr, D_PAD: tl.constexpr, SPLITS_PAD: tl.constexpr,
):  # fmt: skip
    """One program per query head: weight each split's output by exp2(lse - max lse)."""
    bq = tl.program_id(0)
    b = bq // n_q_heads
    hq = bq % n_q_heads
    bh = b * (n_q_heads // GROUP) + hq // GROUP
    splits = tl.arange(0, SPLITS_PAD)
    cols = tl.arange(0, D_PAD)
    split_ok = splits < n_splits
    part = bh * n_splits + splits
    lse = tl.load(LSE + part * GROUP + hq % GROUP, mask=split_ok, other=float("-inf"))
    o = tl.load(
        O_PART + (part * GROUP + hq % GROUP)[:, None] * HEAD_DIM + cols[None, :],
        mask=split_ok[:, None] & (cols < HEAD_DIM)[None, :],
        other=0.0,
    )
    w = tl.exp2(lse - tl.max(lse, 0))
    merged = tl.sum(w[:, None] * o, 0) / tl.sum(w, 0)
    tl.store(OUT + b.to(tl.int64) * sob + hq * soh + cols * sod, merged, mask=cols < HEAD_DIM)


def _num_splits(n_slots: int, programs: int, device: torch.device) -> int:
    """Splits per (batch, KV head).

    Enough programs for about _PROGRAMS_PER_SM per SM, but never fewer than
    _MIN_BLOCKS_PER_SPLIT index slots per split: a large batch already fills the GPU
    with one split each, and a short index is not worth splitting.
    """
    sms = torch.cuda.get_device_properties(device).multi_processor_count if device.type == "cuda" else _NOMINAL_SMS
    wanted = triton.cdiv(_PROGRAMS_PER_SM * sms, programs)
    return max(1, min(wanted, triton.cdiv(n_slots, _MIN_BLOCKS_PER_SPLIT)))


def check_inputs(q, k, v, block_idx, block_size: int, out: torch.Tensor | None) -> torch.Tensor:
    """Shapes, dtypes and devices the kernel accepts (ValueError naming the first mismatch); returns out."""
    if q.dim() != 4 or k.dim() != 4 or k.shape != v.shape:
        raise ValueError(
            f"q must be [B, HQ, 1, D] and k, v both [B, HKV, Tk, D]; got {tuple(q.shape)}, {tuple(k.shape)}, "
            f"{tuple(v.shape)}"
        )
    b, hq, tq, d = q.shape
    _, hkv, tk, _ = k.shape
    if tq != 1:
        raise ValueError(f"decode takes one query per sequence, got {tq}")
    if k.shape[0] != b or k.shape[3] != d:
        raise ValueError(f"q {tuple(q.shape)} and k {tuple(k.shape)} disagree on batch or head dim")
    if hkv == 0 or hq % hkv:
        raise ValueError(f"{hq} query heads cannot share {hkv} KV heads evenly")
    if block_idx.dim() != 4 or tuple(block_idx.shape[:3]) != (b, hkv, 1):
        raise ValueError(f"block index must be [{b}, {hkv}, 1, S], got {tuple(block_idx.shape)}")
    if block_idx.dtype not in (torch.int32, torch.int64):
        raise ValueError(f"block index must hold int32 or int64 ids, got {block_idx.dtype}")
    if q.dtype not in (torch.float32, torch.float16, torch.bfloat16) or k.dtype != q.dtype or v.dtype != q.dtype:
        raise ValueError(f"q, k, v must share one of fp32, fp16, bf16; got {q.dtype}, {k.dtype}, {v.dtype}")
    if not 1 <= d <= 256:
        raise ValueError(f"head dim must be 1..256, got {d}")
    if tk < 1:
        raise ValueError("decode needs at least the query's own key")
    check_block_size(block_size)
    if out is None:
        out = torch.empty_like(q)
    if tuple(out.shape) != tuple(q.shape) or out.dtype != q.dtype:
        raise ValueError(f"out must be {tuple(q.shape)} {q.dtype}, got {tuple(out.shape)} {out.dtype}")
    if len({t.device for t in (q, k, v, block_idx, out)}) != 1:
        raise ValueError("q, k, v, block_idx and out must be on one device")
    if q.device.type != "cuda" and not INTERPRETED:
        raise ValueError(f"the Triton kernels need CUDA tensors (or TRITON_INTERPRET=1), got {q.device}")
    return out


def _launch(q, k, v, block_idx, scale: float, block_size: int, out: torch.Tensor) -> None:
    b, hq, _, d = q.shape
    hkv, tk = k.shape[1], k.shape[2]
    group = hq // hkv
    n_slots = block_idx.shape[3]
    n_splits = _num_splits(n_slots, b * hkv, q.device)
    d_pad = max(16, triton.next_power_of_2(d))
    # fp32 partials: the merge must see each split's output before rounding to q's dtype.
    o_part = torch.empty(b * hkv, n_splits, group, d, device=q.device, dtype=torch.float32)
    lse = torch.empty(b * hkv, n_splits, group, device=q.device, dtype=torch.float32)
    _decode_split_kernel[(b * hkv, n_splits)](
        q, k, v, block_idx, o_part, lse,
        q.stride(0), q.stride(1), q.stride(3),
        *k.stride(), *v.stride(),
        block_idx.stride(0), block_idx.stride(1), block_idx.stride(3),
        hkv, tk, n_slots, n_splits, scale * _LOG2E,
        GROUP=group, G_PAD=max(_MIN_DOT_ROWS, triton.next_power_of_2(group)),
        HEAD_DIM=d, D_PAD=d_pad, BLOCK=block_size, KEY_TILE=min(block_size, _KEY_TILE_VALUES // d_pad),
    )  # fmt: skip
    # The merge is its own small kernel rather than torch ops: one launch instead of
    # about six (max, exp, weight, sum, divide, cast), which is most of decode's
    # latency, and it writes q's dtype straight into `out`, whatever its strides.
    _merge_splits_kernel[(b * hq,)](
        o_part, lse, out,
        out.stride(0), out.stride(1), out.stride(3),
        hq, n_splits,
        GROUP=group, HEAD_DIM=d, D_PAD=d_pad, SPLITS_PAD=triton.next_power_of_2(n_splits),
    )  # fmt: skip


def sparse_decode(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    block_idx: torch.Tensor,
    scale: float,
    block_size: int,
    out: torch.Tensor | None = None,
) -> torch.Tensor:
    """One new token per sequence against its selected key blocks.

    q: [B, HQ, 1, D]; k, v: [B, HKV, Tk, D], the query at position Tk-1.
    block_idx: [B, HKV, 1, S] ascending key block ids, -1 padding last.
    out: [B, HQ, 1, D] to write into, or None. Returns [B, HQ, 1, D] in q's dtype.
    """
    out = check_inputs(q, k, v, block_idx, block_size, out)
    _launch(q, k, v, block_idx, scale, block_size, out)
    return out
