"""Torch reference attention: dense, and block-sparse over a block index.

Runs anywhere torch runs, in fp32 and bf16 (and fp64, for `engine check`'s oracle).
The Triton kernels share these signatures and docstrings' contracts and are tested
against them.

Shapes: q [B, HQ, Tq, D]; k, v [B, HKV, Tk, D]; queries are the last Tq positions
of the Tk keys (full prefill: Tq == Tk; chunked prefill: Tq < Tk; decode: Tq == 1).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F

from engine.attention.layout import QueryLayout

# Sparse attention runs per chunk of query blocks: at most this many blocks, and at
# most about 256 MiB of fp32 scores.
_SPARSE_CHUNK_ROWS = 8
_SPARSE_CHUNK_ELEMENTS = 1 << 26


def dense_attention(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, scale: float, mask: torch.Tensor | None = None
) -> torch.Tensor:
    """Causal attention through torch SDPA. mask: optional [B, 1, Tq, Tk] bool (True = attend)."""
    tq, tk = q.shape[2], k.shape[2]
    if mask is None and tq not in (1, tk):
        # Chunked prefill: causal with the queries offset to the end of the cache.
        q_pos = torch.arange(tk - tq, tk, device=q.device)
        mask = torch.arange(tk, device=q.device)[None, :] <= q_pos[:, None]
    is_causal = mask is None and tq == tk and tq > 1
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=is_causal, scale=scale, enable_gqa=True)


@dataclass(frozen=True)
class GatherPlan:
    """Which key blocks each query block reads, and which of their tokens each query may see.

    Derived once from a block index; Index Share reuses one plan across the layers
    of a group, so only the gather of each layer's own K and V, and its attention,
    run per layer.
    """

    blocks: torch.Tensor  # [B, HKV, NQB, S] key block ids, padding clamped to block 0
    allowed: torch.Tensor  # [B, HKV, NQB, BLOCK, S*BLOCK] bool: real key, at or before the query
    widths: list[int]  # per query block, the most real blocks any head selected (padding comes last)

    @classmethod
    def from_index(cls, block_idx: torch.Tensor, layout: QueryLayout) -> "GatherPlan":
        bs = layout.block_size
        tok = (block_idx[..., None] * bs + torch.arange(bs, device=block_idx.device)).flatten(-2)
        real = (block_idx >= 0).repeat_interleave(bs, dim=-1) & (tok < layout.kv_len)
        q_pos = layout.q_positions(block_idx.device)  # [NQB, BLOCK]
        allowed = real[:, :, :, None, :] & (tok[:, :, :, None, :] <= q_pos[None, None, :, :, None])
        widths = (block_idx >= 0).sum(-1).amax(dim=(0, 1)).tolist()
        return cls(blocks=block_idx.clamp(min=0), allowed=allowed, widths=widths)


def block_sparse_attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    block_idx: torch.Tensor,
    scale: float,
    block_size: int,
    plan: GatherPlan | None = None,
    out: torch.Tensor | None = None,
) -> torch.Tensor:
    """One softmax over the union of selected key blocks, causal inside each block.

    q: [B, HQ, Tq, D]; k, v: [B, HKV, Tk, D], the queries the last Tq of the Tk positions.
    block_idx: [B, HKV, NQB, S] ascending key block ids per query block on the absolute
    block grid, -1 padding last (selection.block_index's format). plan: the reference's
    GatherPlan of the same index, or None. out: [B, HQ, Tq, D] to write into, or None.
    Returns [B, HQ, Tq, D] in q's dtype.

    Keys are gathered block by block (contiguous copies, not per element), and each
    (batch, KV head, query block) becomes one SDPA batch entry: the group's query
    heads x the block's queries against the gathered keys, so the fused CPU kernel
    does the softmax without materialising fp32 scores.
    """
    b, hq, tq, d = q.shape
    hkv, tk = k.shape[1], k.shape[2]
    layout = QueryLayout(q_len=tq, kv_len=tk, block_size=block_size)
    if block_idx.shape[:3] != (b, hkv, layout.n_q_blocks):
        raise ValueError(f"block index {tuple(block_idx.shape)} does not match {layout.n_q_blocks} query blocks")
    plan = plan or GatherPlan.from_index(block_idx, layout)
    group, nqb, s = hq // hkv, layout.n_q_blocks, block_idx.shape[-1]
    k_blocks = _as_blocks(k, layout)  # [B, HKV, NKB, BLOCK, D]
    v_blocks = _as_blocks(v, layout)
    bi = torch.arange(b, device=q.device)[:, None, None, None]
    hi = torch.arange(hkv, device=q.device)[None, :, None, None]
    qp = layout.pad(q).view(b, hkv, group, nqb, block_size, d).transpose(2, 3)  # [B, HKV, NQB, G, BLOCK, D]
    # NaN first: a query block the loop never writes shows up in the tests.
    padded = torch.full((b, hkv, nqb, group, block_size, d), float("nan"), device=q.device, dtype=q.dtype)
    # Small chunks of query blocks, each trimmed to its widest real selection: early
    # blocks have few earlier blocks to attend, and need not pay for the full budget.
    rows = max(1, min(_SPARSE_CHUNK_ROWS, _SPARSE_CHUNK_ELEMENTS // (hq * block_size * s * block_size)))
    for start in range(0, nqb, rows):
        stop = min(start + rows, nqb)
        n = b * hkv * (stop - start)
        used = max(plan.widths[start:stop])
        width = used * block_size
        blocks = plan.blocks[:, :, start:stop, :used]
        k_sel = k_blocks[bi, hi, blocks].view(n, 1, width, d)
        v_sel = v_blocks[bi, hi, blocks].view(n, 1, width, d)
        mask = plan.allowed[:, :, start:stop, :, :width].reshape(n, 1, block_size, width)
        q_c = qp[:, :, start:stop].reshape(n, group, block_size, d)
        o = F.scaled_dot_product_attention(q_c, k_sel, v_sel, attn_mask=mask, scale=scale, enable_gqa=True)
        padded[:, :, start:stop] = o.view(b, hkv, stop - start, group, block_size, d)
    result = layout.unpad(padded.transpose(2, 3).reshape(b, hq, nqb, block_size, d))
    return result if out is None else out.copy_(result)


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

    Not the prefill path with one query: that pads the query to a whole block (63 idle rows of 64) and builds a
    [BLOCK, S*BLOCK] mask, three times dense decode's work at 16K (issue 35). Here the selected keys' rows are
    gathered straight from the cache (no padded copy of it), the GQA group's query heads are the rows of one SDPA
    entry per KV head, and the mask is one row: the only keys hidden are padding ids and the diagonal block's
    positions past the cache's end, as every selected key sits at or before the query. The Triton kernel splits
    the selected blocks over programs and merges their partial softmaxes by log-sum-exp.
    """
    if q.shape[2] != 1:
        raise ValueError(f"decode takes one query per sequence, got {q.shape[2]}")
    b, hq, _, d = q.shape
    hkv, tk = k.shape[1], k.shape[2]
    if block_idx.shape[:3] != (b, hkv, 1):
        raise ValueError(f"block index {tuple(block_idx.shape)} does not match one query block")
    # Padding (-1) comes last in every row, so the widest row's real blocks bound what must be read.
    used = max(1, int((block_idx >= 0).sum(-1).max()))
    blocks = block_idx[:, :, 0, :used]  # [B, HKV, U]
    tok = (blocks.clamp(min=0)[..., None] * block_size + torch.arange(block_size, device=q.device)).flatten(-2)
    visible = (blocks >= 0).repeat_interleave(block_size, dim=-1) & (tok < tk)  # [B, HKV, U*BLOCK]
    rows = tok.clamp(max=tk - 1)
    bi = torch.arange(b, device=q.device)[:, None, None]
    hi = torch.arange(hkv, device=q.device)[None, :, None]
    k_sel = k[bi, hi, rows].view(b * hkv, 1, -1, d)
    v_sel = v[bi, hi, rows].view(b * hkv, 1, -1, d)
    q_rows = q.reshape(b * hkv, 1, hq // hkv, d)  # a KV head's query heads are consecutive (repeat_kv's order)
    mask = visible.view(b * hkv, 1, 1, -1)
    o = F.scaled_dot_product_attention(q_rows, k_sel, v_sel, attn_mask=mask, scale=scale)
    result = o.view(b, hq, 1, d)
    return result if out is None else out.copy_(result)


def _as_blocks(x: torch.Tensor, layout: QueryLayout) -> torch.Tensor:
    """[B, H, Tk, D] -> [B, H, NKB, BLOCK, D], the last block zero-padded."""
    b, h, tk, d = x.shape
    padded = F.pad(x, (0, 0, 0, layout.n_k_blocks * layout.block_size - tk))
    return padded.view(b, h, layout.n_k_blocks, layout.block_size, d)
