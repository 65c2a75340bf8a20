"""Triton exact indexer: the best token-level score of each earlier key block.

Same signature and semantics as engine.attention.indexers.exact_scores:
    q [B, HQ, Tq, D], k [B, HKV, Tk, D] -> scores [B, HKV, NQB, NKB] fp32,
    score(qb, kb) = max over the group's query heads, qb's real queries t and kb's keys j of q_t . k_j
for every key block before the query block's own; from its own block on the kernel
writes -inf (the window always keeps the diagonal block; later ones are never selectable).

The reference materialises token scores chunk by chunk and reduces them. Here one
program holds a query tile (TOKENS queries of one query block, for all the query heads
of a KV group, as in the prefill kernel) and streams the earlier key blocks past it the
way a flash-attention forward streams K, folding each tile of products into one max
per key block: the [HQ, Tq, Tk] token scores never reach memory. The tiles of a query
block meet in the output through an atomic max, which is order-free: the result is
deterministic, and the autotuner may rerun a launch on the same buffer.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from engine.attention.kernels.portable import autotune_configs, check_block_size, dot
from engine.attention.kernels.query_tiles import CONFIGS, fitting, tile_rows
from engine.attention.kernels.score_inputs import check_score_inputs
from engine.attention.layout import QueryLayout

# Keys per dot product: a larger block is walked in tiles, each folded into the block's max.
_MAX_KEY_TILE = 64


# Query and score tiles, no output accumulator beside them: ptxas for sm_90 gave every
# tile within 6,144 bf16-sized values per warp at most 100 registers a thread and spilled
# none; past that, 161 (compiled for the Llama 3 and Qwen2.5 shapes, D 64 and 128).
_FITS = fitting(values_per_warp=6144, max_rows=512)


# The length is left out of the key: every tile runs the same loop body, only more often.
@triton.autotune(
    configs=autotune_configs(CONFIGS),
    key=["BLOCK_SIZE", "GROUP_PAD", "HEAD_DIM_PAD"],
    prune_configs_by={"early_config_prune": _FITS},
)
@triton.jit
def _exact_scores_kernel(
    Q, K, Out,
    stride_qb, stride_qh, stride_qt,
    stride_kb, stride_kh, stride_kt,
    stride_ob, stride_oh, stride_oq, stride_ok,
    q_len, kv_len, n_kv_heads, group,
    BLOCK_SIZE: tl.constexpr, KEY_TILE: tl.constexpr, GROUP_PAD: tl.constexpr,
    HEAD_DIM: tl.constexpr, HEAD_DIM_PAD: tl.constexpr, TOKENS: tl.constexpr,
):  # fmt: skip
    """Grid (query tiles, B*HKV); Out must hold -inf (or earlier maxima) where this adds its own."""
    # Longest first: a tile's work grows with its query block, and tiles start in program
    # order, so the last query blocks go first and the short early ones fill the tail.
    tile = tl.num_programs(0) - 1 - tl.program_id(0)
    batch_head = tl.program_id(1)
    b = (batch_head // n_kv_heads).to(tl.int64)  # int64 bases: see the prefill kernel
    kv_head = (batch_head % n_kv_heads).to(tl.int64)
    # Rows are (query head of the group, token of the tile), heads padded to a power of two.
    q_block, first, head, token, _, row_ok = tile_rows(tile, q_len, kv_len, group, BLOCK_SIZE, GROUP_PAD, TOKENS)
    own_block = (kv_len - q_len) // BLOCK_SIZE + q_block  # absolute block of the tile's queries
    offs_d = tl.arange(0, HEAD_DIM_PAD)
    d_ok = offs_d < HEAD_DIM
    q_tile = Q + b * stride_qb + kv_head * group * stride_qh + first * stride_qt
    in_tile = head * stride_qh + token * stride_qt
    q = tl.load(q_tile + in_tile[:, None] + offs_d[None, :], mask=row_ok[:, None] & d_ok[None, :], other=0.0)

    k_base = K + b * stride_kb + kv_head * stride_kh
    out_row = Out + b * stride_ob + kv_head * stride_oh + q_block * stride_oq
    # Keys of earlier blocks all precede the tile's queries: no causal mask, no bound on
    # the keys. A tile of padding only (the head of a chunk that starts mid-block) has no
    # query to score with and skips the loop.
    tiles_per_block = BLOCK_SIZE // KEY_TILE
    n_steps = tl.where(tl.max(row_ok.to(tl.int32), 0) > 0, own_block * tiles_per_block, 0)
    for step in range(0, n_steps):
        offs_n = step * KEY_TILE + tl.arange(0, KEY_TILE)
        k = tl.load(k_base + offs_n[None, :] * stride_kt + offs_d[:, None], mask=d_ok[:, None], other=0.0)
        s = tl.where(row_ok[:, None], dot(q, k), float("-inf"))  # [ROWS, KEY_TILE]
        best = tl.max(tl.max(s, 1), 0)
        tl.atomic_max(out_row + (step // tiles_per_block) * stride_ok, best, sem="relaxed")


def _launch(q: torch.Tensor, k: torch.Tensor, layout: QueryLayout, out: torch.Tensor) -> None:
    b, hq, _, d = q.shape
    hkv = k.shape[1]
    bs = layout.block_size
    out.fill_(float("-inf"))  # the floor of every max, and the promise from the diagonal on

    def grid(meta):
        return layout.n_q_blocks * (bs // meta["TOKENS"]), b * hkv

    _exact_scores_kernel[grid](
        q, k, out,
        q.stride(0), q.stride(1), q.stride(2),
        k.stride(0), k.stride(1), k.stride(2),
        *out.stride(),
        layout.q_len, layout.kv_len, hkv, hq // hkv,
        BLOCK_SIZE=bs, KEY_TILE=min(bs, _MAX_KEY_TILE), GROUP_PAD=triton.next_power_of_2(hq // hkv),
        HEAD_DIM=d, HEAD_DIM_PAD=max(16, triton.next_power_of_2(d)),
    )  # fmt: skip


def exact_scores(
    q: torch.Tensor, k: torch.Tensor, layout: QueryLayout, out: torch.Tensor | None = None
) -> torch.Tensor:
    """Exact block scores: q [B, HQ, Tq, D], k [B, HKV, Tk, D] -> [B, HKV, NQB, NKB] fp32.

    score(qb, kb) = max over the query heads sharing a KV head, qb's real queries and kb's
    keys of q . k, defined for kb before qb's own block.
    layout: the block grid of the Tq queries and Tk keys. out: a [B, HKV, NQB, NKB] fp32
    buffer to write into, or None.

    From qb's own block on the kernel writes -inf.
    """
    out = check_score_inputs(q, k, layout, out)
    check_block_size(layout.block_size)
    if layout.kv_len * k.stride(2) >= 2**31 or (q.shape[1] // k.shape[1]) * q.stride(1) >= 2**31:
        raise ValueError(f"{layout.kv_len} keys at these strides pass the kernel's int32 offsets within a head")
    q, k = (t if t.stride(-1) == 1 else t.contiguous() for t in (q, k))
    _launch(q, k, layout, out)
    return out
