"""Turning indexer scores into the key blocks each query block attends to.

The result is an index tensor `[B, HKV, NQB, S]` of key block ids, ascending, padded
with -1 at the end: the format the attention kernels read (torch reference and
Triton alike). S is the budget in blocks, capped by the number of key blocks.
"""

from __future__ import annotations

import torch

from engine.core.attention_config import AttentionConfig
from engine.attention.layout import QueryLayout


def forced_ids(cfg: AttentionConfig, layout: QueryLayout, device, with_globals: bool) -> torch.Tensor:
    """Blocks every query block keeps whatever the indexer says: [NQB, F] ascending ids,
    -1 padding last, F = sinks + window + globals.

    Sinks are the first `sink_blocks` blocks; the window is the diagonal block and
    the `window_blocks - 1` before it; the strided globals are `global_blocks` blocks
    spread evenly over the middle (between sinks and window):
        global_i = sink_blocks + floor(i * span / global_blocks),  i = 0 .. global_blocks-1
    where span is the middle's length in blocks. A count rather than a stride keeps
    the cost of a query block bounded however long the context grows. Built from
    these formulas, not from a [NQB, NKB] mask, for the same reason: at 1M tokens a
    mask row is 16K blocks wide.
    """
    qb = layout.q_blocks(device)[:, None]  # [NQB, 1]
    parts = [torch.arange(cfg.sink_blocks, device=device)[None, :].expand(len(qb), -1)]
    parts.append(qb - torch.arange(cfg.window_blocks - 1, -1, -1, device=device)[None, :])
    if with_globals and cfg.global_blocks:
        parts.append(_global_ids(cfg, qb))
    ids = torch.cat(parts, dim=1)
    ids = torch.where((ids >= 0) & (ids <= qb), ids, -1)
    return _ascending_unique(ids)


def _global_ids(cfg: AttentionConfig, qb: torch.Tensor) -> torch.Tensor:
    """[NQB, G] strided global ids (see forced_ids), -1 where the middle is too short."""
    middle_start = cfg.sink_blocks
    span = (qb - cfg.window_blocks + 1 - middle_start).clamp(min=0)
    i = torch.arange(cfg.global_blocks, device=qb.device)[None, :]
    spread = middle_start + (i * span) // cfg.global_blocks
    chosen = torch.where(span > cfg.global_blocks, spread, middle_start + i)
    return torch.where(i < span, chosen, -1)


def _ascending_unique(ids: torch.Tensor) -> torch.Tensor:
    """Sort each row ascending, blank repeats, and move -1 padding to the end."""
    big = torch.iinfo(ids.dtype).max
    ids = torch.where(ids < 0, big, ids).sort(dim=-1).values
    repeat = torch.zeros_like(ids, dtype=torch.bool)
    repeat[..., 1:] = ids[..., 1:] == ids[..., :-1]
    ids = torch.where(repeat, big, ids).sort(dim=-1).values
    return torch.where(ids == big, -1, ids)


def select_topk(cfg: AttentionConfig, scores: torch.Tensor, layout: QueryLayout, forced: torch.Tensor) -> torch.Tensor:
    """The indexer's picks among causal blocks not already forced: [B, HKV, NQB, K] ids, -1 = none.

    scores: [B, HKV, NQB, NKB], overwritten (masked in place: at long contexts a copy
    would be the largest tensor of the step); forced: [NQB, F] ids.
    Picking only outside the forced set means the union always fills the budget.
    """
    k = min(cfg.topk_blocks, scores.shape[-1])
    if k == 0:
        return torch.empty(*scores.shape[:-1], 0, dtype=torch.long, device=scores.device)
    n_kb = scores.shape[-1]
    is_forced = torch.zeros(forced.shape[0], n_kb + 1, dtype=torch.bool, device=scores.device)
    is_forced.scatter_(1, torch.where(forced < 0, n_kb, forced), True)  # padding lands in a spare column
    ineligible = is_forced[:, :n_kb] | ~causal_blocks(layout, scores.device)  # [NQB, NKB]
    masked = scores.float().masked_fill_(ineligible, float("-inf"))
    values, idx = masked.topk(k, dim=-1)
    return torch.where(values > float("-inf"), idx, -1)


def causal_blocks(layout: QueryLayout, device) -> torch.Tensor:
    """[NQB, NKB] bool: key block at or before the query block."""
    qb = layout.q_blocks(device)[:, None]
    kb = torch.arange(layout.n_k_blocks, device=device)[None, :]
    return kb <= qb


def block_index(
    cfg: AttentionConfig, layout: QueryLayout, batch: int, n_kv_heads: int, scores: torch.Tensor | None, device
) -> tuple[torch.Tensor, torch.Tensor | None]:
    """The blocks to attend, and the indexer's own picks (None without an indexer).

    Returns (index [B, HKV, NQB, S] ascending with -1 padding last, S = min(budget, NKB);
    picks [B, HKV, NQB, K] ids with -1 padding, or None). `scores` is overwritten.
    """
    forced = forced_ids(cfg, layout, device, with_globals=scores is not None)
    if scores is None:
        return _fit(forced.expand(batch, n_kv_heads, *forced.shape), _width(cfg, layout)), None
    picked = select_topk(cfg, scores, layout, forced)
    return _union(cfg, layout, forced, picked), picked


def index_with_picks(cfg: AttentionConfig, layout: QueryLayout, picked: torch.Tensor) -> torch.Tensor:
    """The blocks to attend when an earlier selection's picks are reused: this layout's sinks, window and globals
    with `picked` [B, HKV, NQB, K] (ids before the query blocks, -1 = none). Returns block_index's format."""
    return _union(cfg, layout, forced_ids(cfg, layout, picked.device, with_globals=True), picked)


def _union(cfg: AttentionConfig, layout: QueryLayout, forced: torch.Tensor, picked: torch.Tensor) -> torch.Tensor:
    # A reused pick the window has since reached appears twice: the union drops the repeat, so it stays in budget.
    union = torch.cat([forced.expand(*picked.shape[:-1], -1), picked], dim=-1)
    return _fit(_ascending_unique(union), _width(cfg, layout))


def _width(cfg: AttentionConfig, layout: QueryLayout) -> int:
    """Blocks in an index row: the budget, capped by the blocks there are."""
    return min(cfg.budget_blocks, layout.n_k_blocks)


def _fit(index: torch.Tensor, width: int) -> torch.Tensor:
    """Trim or pad (with -1) the last dim to `width`; real ids come first, so trimming drops padding."""
    if index.shape[-1] >= width:
        return index[..., :width].contiguous()
    return torch.nn.functional.pad(index, (0, width - index.shape[-1]), value=-1)
