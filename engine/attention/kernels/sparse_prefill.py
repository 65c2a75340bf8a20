"""Block-sparse flash attention, forward: the Triton kernel behind `block_sparse_attention`.

Same signature and shapes as the torch reference (engine/attention/reference.py):
q [B, HQ, Tq, D]; k, v [B, HKV, Tk, D], the queries being the last Tq of the Tk
positions (full prefill Tq == Tk, chunked prefill Tq < Tk); block_idx [B, HKV, NQB, S]
ascending key block ids per query block on the absolute block grid, -1 padding last.

One program takes one query tile (TOKENS consecutive positions of one query block)
for all the query heads of one KV head: the group's heads share the selection, so
the tile reads its index row and each selected K/V block once for the whole group
(rows = heads x tokens). Over the selected blocks it runs an online softmax in fp32
(exp2, with log2(e) folded into the scale), causal inside the diagonal block, and
writes each real query's output once. The reference gathers the blocks into a copy
first; here they are read in place, which is the bandwidth the sparse design saves.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from engine.attention.kernels.portable import INTERPRETED, autotune_configs, check_block_size, dot
from engine.attention.kernels.query_tiles import CONFIGS, fitting, tile_rows
from engine.attention.layout import QueryLayout

_LOG2E = 1.4426950408889634
# Largest key tile one dot product takes (FlashAttention's choice for D 128): a larger
# block is walked in tiles. fp32 takes half: at D 128 its 64-key K/V tiles overflowed
# the H200's shared memory in every config the register bound keeps (gpu_config_sweep).
_MAX_KEY_TILE = 64
_MAX_KEY_TILE_FP32 = 32
# Index ids read per load while a program looks for its row's last real id.
_SLOT_CHUNK = 64


@triton.jit
def _attend_key_tile(
    acc, m_i, l_i, q, k_base, v_base, stride_kt, stride_vt, key_start, q_pos, kv_len, qk_scale,
    KEY_TILE: tl.constexpr, HEAD_DIM: tl.constexpr, HEAD_DIM_PAD: tl.constexpr,
):
    """Fold one tile of keys into the running softmax of every row. Returns (acc, m, l)."""
    offs_n = key_start + tl.arange(0, KEY_TILE)  # absolute key positions
    offs_d = tl.arange(0, HEAD_DIM_PAD)
    k_ok = (offs_n >= 0) & (offs_n < kv_len)
    d_ok = offs_d < HEAD_DIM
    k = tl.load(k_base + offs_n[None, :] * stride_kt + offs_d[:, None], mask=k_ok[None, :] & d_ok[:, None], other=0.0)
    s = dot(q, k) * qk_scale  # [ROWS, KEY_TILE], log2 units
    # Causal: only the diagonal block holds keys after some of the tile's queries, but
    # the compare is cheap beside the two dot products, so every tile applies it.
    allowed = k_ok[None, :] & (offs_n[None, :] <= q_pos[:, None])
    s = tl.where(allowed, s, float("-inf"))
    m_new = tl.maximum(m_i, tl.max(s, 1))
    # A row with no allowed key so far (a padding row, or keys all in its future) keeps
    # m = -inf; shifting by 0 then gives exp2(-inf) = 0 rather than NaN.
    m_shift = tl.where(m_new == float("-inf"), 0.0, m_new)
    alpha = tl.exp2(m_i - m_shift)
    v = tl.load(v_base + offs_n[:, None] * stride_vt + offs_d[None, :], mask=k_ok[:, None] & d_ok[None, :], other=0.0)
    # Normalise by the weights the product actually uses: summing p after rounding it to
    # v's dtype cancels that rounding's bias (bf16 keeps 8 bits) in acc / l.
    p = tl.exp2(s - m_shift[:, None]).to(v.dtype)
    l_i = l_i * alpha + tl.sum(p.to(tl.float32), 1)
    acc = acc * alpha[:, None] + dot(p, v)
    return acc, m_new, l_i


# Query, accumulator and score tiles in fp32 or the input dtype: ptxas for sm_90 spilled
# registers once they passed 4,096 bf16-sized values per warp (compiled for the Llama 3
# and Qwen2.5 shapes, D 64 and 128).
_FITS = fitting(values_per_warp=4096, max_rows=256)


# The key leaves out the length on purpose: a tile's work is its selection, which the budget
# caps whatever the context, so past the budget (about 3.4K tokens by default) a longer
# context only adds tiles, and the config chosen at the first length serves the rest.
@triton.autotune(
    configs=autotune_configs(CONFIGS),
    key=["BLOCK_SIZE", "GROUP_PAD", "HEAD_DIM_PAD"],
    prune_configs_by={"early_config_prune": _FITS},
)
@triton.jit
def _sparse_prefill_kernel(
    Q, K, V, Out, Idx, qk_scale,
    stride_qb, stride_qh, stride_qt,
    stride_kb, stride_kh, stride_kt,
    stride_vb, stride_vh, stride_vt,
    stride_ob, stride_oh, stride_ot,
    stride_ib, stride_ih, stride_iq, stride_is,
    q_len, kv_len, n_kv_heads, n_slots, group,
    BLOCK_SIZE: tl.constexpr, KEY_TILE: tl.constexpr, GROUP_PAD: tl.constexpr,
    HEAD_DIM: tl.constexpr, HEAD_DIM_PAD: tl.constexpr, TOKENS: tl.constexpr, SLOT_CHUNK: tl.constexpr,
):
    tile = tl.program_id(0)
    batch_head = tl.program_id(1)
    # Bases in int64 scalars: at 1M tokens one head's K is 2^27 elements, and a batch or
    # the tile's first row times a [B, T, HQ, D] stride passes 2^31. Offsets within a
    # head (a key position times its stride) and within a tile stay int32: int64 ones
    # per element spilled registers.
    b = (batch_head // n_kv_heads).to(tl.int64)
    kv_head = (batch_head % n_kv_heads).to(tl.int64)
    # Rows are (query head of the group, token of the tile), heads padded to a power of two.
    q_block, first, head, token, q_pos, row_ok = tile_rows(tile, q_len, kv_len, group, BLOCK_SIZE, GROUP_PAD, TOKENS)
    offs_d = tl.arange(0, HEAD_DIM_PAD)
    d_ok = offs_d < HEAD_DIM
    in_tile = head * stride_qh + token * stride_qt
    q_tile = Q + b * stride_qb + kv_head * group * stride_qh + first * stride_qt
    q = tl.load(q_tile + in_tile[:, None] + offs_d[None, :], mask=row_ok[:, None] & d_ok[None, :], other=0.0)

    k_base = K + b * stride_kb + kv_head * stride_kh
    v_base = V + b * stride_vb + kv_head * stride_vh
    idx_row = Idx + b * stride_ib + kv_head * stride_ih + q_block * stride_iq
    m_i = tl.full([GROUP_PAD * TOKENS], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([GROUP_PAD * TOKENS], dtype=tl.float32)
    acc = tl.zeros([GROUP_PAD * TOKENS, HEAD_DIM_PAD], dtype=tl.float32)
    # The loop runs to the last real id and its body has no branch: a branch around the
    # loads kept Triton's pipeliner from prefetching the next K/V tile (the sm_90 TTGIR
    # had no async copies). A -1 the loop meets (padding is last, so only in a malformed
    # index) becomes keys before position 0, which the tile masks out.
    n_used = 0
    for first_slot in range(0, n_slots, SLOT_CHUNK):
        slots = first_slot + tl.arange(0, SLOT_CHUNK)
        ids = tl.load(idx_row + slots * stride_is, mask=slots < n_slots, other=-1)
        n_used = tl.maximum(n_used, tl.max(tl.where(ids >= 0, slots + 1, 0), 0))
    for step in range(0, n_used * (BLOCK_SIZE // KEY_TILE)):
        # Ids arrive as the selection made them (int64 from torch.topk): narrowing here
        # saves a host-side copy of the index in every layer of a group.
        key_block = tl.load(idx_row + (step // (BLOCK_SIZE // KEY_TILE)) * stride_is).to(tl.int32)
        key_start = key_block * BLOCK_SIZE + (step % (BLOCK_SIZE // KEY_TILE)) * KEY_TILE
        acc, m_i, l_i = _attend_key_tile(
            acc, m_i, l_i, q, k_base, v_base, stride_kt, stride_vt,
            key_start, q_pos, kv_len, qk_scale, KEY_TILE, HEAD_DIM, HEAD_DIM_PAD,
        )
    out = acc / tl.where(l_i == 0.0, 1.0, l_i)[:, None]
    o_tile = Out + b * stride_ob + kv_head * group * stride_oh + first * stride_ot
    o_rows = head * stride_oh + token * stride_ot
    o_ok = row_ok[:, None] & d_ok[None, :]
    tl.store(o_tile + o_rows[:, None] + offs_d[None, :], out.to(Out.dtype.element_ty), mask=o_ok)


def key_tile(block_size: int, dtype: torch.dtype) -> int:
    """Keys per dot product for this block size and dtype."""
    return min(block_size, _MAX_KEY_TILE_FP32 if dtype == torch.float32 else _MAX_KEY_TILE)


def _launch(q, k, v, block_idx, out, scale: float, layout: QueryLayout) -> None:
    b, hq, _, d = q.shape
    hkv = k.shape[1]
    group = hq // hkv
    bs = layout.block_size
    grid = lambda meta: (layout.n_q_blocks * (bs // meta["TOKENS"]), b * hkv)  # noqa: E731
    _sparse_prefill_kernel[grid](
        q, k, v, out, block_idx, scale * _LOG2E,
        q.stride(0), q.stride(1), q.stride(2),
        k.stride(0), k.stride(1), k.stride(2),
        v.stride(0), v.stride(1), v.stride(2),
        out.stride(0), out.stride(1), out.stride(2),
        block_idx.stride(0), block_idx.stride(1), block_idx.stride(2), block_idx.stride(3),
        layout.q_len, layout.kv_len, hkv, block_idx.shape[-1], group,
        BLOCK_SIZE=bs, KEY_TILE=key_tile(bs, q.dtype), GROUP_PAD=triton.next_power_of_2(group),
        HEAD_DIM=d, HEAD_DIM_PAD=max(16, triton.next_power_of_2(d)), SLOT_CHUNK=_SLOT_CHUNK,
    )


def check_inputs(q, k, v, block_idx, block_size: int) -> QueryLayout:
    """Shapes, dtypes and devices the kernels accept; ValueError naming the first mismatch."""
    if q.dim() != 4 or k.dim() != 4 or v.shape != k.shape:
        raise ValueError(f"expected q [B, HQ, Tq, D] and k, v [B, HKV, Tk, D]; got {tuple(q.shape)}, "
                         f"{tuple(k.shape)}, {tuple(v.shape)}")
    b, hq, tq, d = q.shape
    hkv, tk = k.shape[1], k.shape[2]
    if k.shape[0] != b or k.shape[3] != d or hq % hkv:
        raise ValueError(f"q {tuple(q.shape)} and k {tuple(k.shape)} disagree on batch, head dim or head groups")
    if not 1 <= tq <= tk:
        raise ValueError(f"queries must be the last of the keys: {tq} queries, {tk} keys")
    check_block_size(block_size)
    if d > 256:
        raise ValueError(f"head dim {d} is past the kernels' 256")
    if not (q.dtype == k.dtype == v.dtype) or q.dtype not in (torch.float32, torch.float16, torch.bfloat16):
        raise ValueError(f"q, k, v must share one of fp32, fp16, bf16; got {q.dtype}, {k.dtype}, {v.dtype}")
    if block_idx.dtype not in (torch.int32, torch.int64):
        raise ValueError(f"block index must hold int32 or int64 ids, got {block_idx.dtype}")
    if not (q.device == k.device == v.device == block_idx.device):
        raise ValueError("q, k, v and the block index must be on one device")
    if q.device.type != "cuda" and not INTERPRETED:
        raise ValueError(f"the Triton kernels need CUDA tensors (or TRITON_INTERPRET=1), got {q.device}")
    if tk * max(k.stride(2), v.stride(2)) >= 2**31 or (hq // hkv) * q.stride(1) >= 2**31:
        raise ValueError(f"{tk} keys at these strides pass the kernels' int32 offsets within a head")
    layout = QueryLayout(q_len=tq, kv_len=tk, block_size=block_size)
    if block_idx.dim() != 4 or block_idx.shape[:3] != (b, hkv, layout.n_q_blocks):
        raise ValueError(f"block index {tuple(block_idx.shape)} does not match "
                         f"[{b}, {hkv}, {layout.n_q_blocks}, S] query blocks")
    return layout


def block_sparse_attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    block_idx: torch.Tensor,
    scale: float,
    block_size: int,
    plan=None,
    out: torch.Tensor | None = None,
) -> torch.Tensor:
    """One softmax over the union of selected key blocks, causal inside each block.

    q: [B, HQ, Tq, D]; k, v: [B, HKV, Tk, D], the queries the last Tq of the Tk positions.
    block_idx: [B, HKV, NQB, S] ascending key block ids per query block on the absolute
    block grid, -1 padding last (selection.block_index's format). plan: the reference's
    GatherPlan of the same index, or None. out: [B, HQ, Tq, D] to write into, or None.
    Returns [B, HQ, Tq, D] in q's dtype.

    The kernel ignores `plan` (it reads block_idx directly; the argument keeps the two
    signatures one). Without `out` the result is allocated as a view of [B, Tq, HQ, D]
    memory, the layout the model's output projection reads, so the transpose after
    attention costs no copy.
    """
    layout = check_inputs(q, k, v, block_idx, block_size)
    b, hq, tq, d = q.shape
    if out is None:
        out = q.new_empty(b, tq, hq, d).transpose(1, 2)
    elif out.shape != q.shape or out.dtype != q.dtype or out.stride(-1) != 1:
        raise ValueError(f"out must be {tuple(q.shape)} {q.dtype} with a contiguous last dim")
    # The kernel assumes unit stride along the head dim.
    q, k, v = (t if t.stride(-1) == 1 else t.contiguous() for t in (q, k, v))
    _launch(q, k, v, block_idx, out, scale, layout)
    return out

