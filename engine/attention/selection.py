"""Turning indexer scores into the key blocks each query block attends to.

The result is an index tensor `[B, HKV, NQB, S]` of key block ids, ascending, padded
with -1 at the end: the format the attention kernels read (torch reference and
Triton alike). S is the budget in blocks, capped by the number of key blocks.
"""

from __future__ import annotations

import torch

from engine.attention.config import AttentionConfig
from engine.attention.layout import QueryLayout


def forced_blocks(cfg: AttentionConfig, layout: QueryLayout, device, with_globals: bool) -> torch.Tensor:
    """Blocks every query block keeps whatever the indexer says: [NQB, NKB] bool.

    Sinks are the first `sink_blocks` blocks; the window is the diagonal block and
    the `window_blocks - 1` before it; the strided globals are `global_blocks` blocks
    spread evenly over the middle (between sinks and window):
        global_i = sink_blocks + floor(i * span / global_blocks),  i = 0 .. global_blocks-1
    where span is the middle's length in blocks. A count rather than a stride keeps
    the cost of a query block bounded however long the context grows.
    """
    qb = layout.q_blocks(device)[:, None]  # [NQB, 1]
    kb = torch.arange(layout.n_k_blocks, device=device)[None, :]  # [1, NKB]
    causal = kb <= qb
    sinks = kb < cfg.sink_blocks
    window = kb > qb - cfg.window_blocks
    forced = (sinks | window) & causal
    if with_globals and cfg.global_blocks:
        middle_start = cfg.sink_blocks
        span = (qb - cfg.window_blocks + 1 - middle_start).clamp(min=0)  # [NQB, 1]
        i = torch.arange(cfg.global_blocks, device=device)[None, :]  # [1, G]
        spread = middle_start + (i * span) // cfg.global_blocks
        chosen = torch.where(span > cfg.global_blocks, spread, middle_start + i)
        chosen = torch.where(i < span, chosen, torch.full_like(chosen, -1))
        hits = (chosen[:, :, None] == kb[:, None, :]).any(dim=1)  # [NQB, NKB]
        forced = forced | hits
    return forced


def select_topk(cfg: AttentionConfig, scores: torch.Tensor, forced: torch.Tensor, causal: torch.Tensor) -> torch.Tensor:
    """The indexer's picks among blocks not already forced: [B, HKV, NQB, NKB] bool.

    scores: [B, HKV, NQB, NKB]; forced, causal: [NQB, NKB].
    Picking only outside the forced set means the union always fills the budget.
    """
    k = min(cfg.topk_blocks, scores.shape[-1])
    picked = torch.zeros_like(scores, dtype=torch.bool)
    if k == 0:
        return picked
    eligible = causal & ~forced
    masked = scores.float().masked_fill(~eligible, float("-inf"))
    values, idx = masked.topk(k, dim=-1)
    picked.scatter_(-1, idx, values > float("-inf"))
    return picked


def causal_blocks(layout: QueryLayout, device) -> torch.Tensor:
    """[NQB, NKB] bool: key block at or before the query block."""
    qb = layout.q_blocks(device)[:, None]
    kb = torch.arange(layout.n_k_blocks, device=device)[None, :]
    return kb <= qb


def to_index(mask: torch.Tensor, budget_blocks: int) -> torch.Tensor:
    """[..., NKB] bool -> [..., S] ascending block ids, padded with -1 (S = min(budget, NKB))."""
    n_kb = mask.shape[-1]
    s = min(budget_blocks, n_kb)
    ids = torch.arange(n_kb, device=mask.device).expand_as(mask)
    keyed = torch.where(mask, ids, torch.full_like(ids, n_kb))
    first = keyed.sort(dim=-1).values[..., :s]
    return torch.where(first < n_kb, first, torch.full_like(first, -1))


def block_index(
    cfg: AttentionConfig, layout: QueryLayout, batch: int, n_kv_heads: int, scores: torch.Tensor | None, device
) -> tuple[torch.Tensor, torch.Tensor | None]:
    """The blocks to attend, and the indexer's own picks (None without an indexer).

    Returns (index [B, HKV, NQB, S] with -1 padding, topk mask [B, HKV, NQB, NKB] or None).
    """
    forced = forced_blocks(cfg, layout, device, with_globals=scores is not None)
    if scores is None:
        union = forced.expand(batch, n_kv_heads, *forced.shape)
        return to_index(union, cfg.budget_blocks), None
    picked = select_topk(cfg, scores, forced, causal_blocks(layout, device))
    return to_index(picked | forced, cfg.budget_blocks), picked
