"""Triton pooled-mass indexer: the softmax mass each head's mean query puts on each key block.

Same signature and semantics as engine.attention.indexers.pooled_mass_scores:
    q [B, HQ, Tq, D], k [B, HKV, Tk, D] -> scores [B, HKV, NQB, NKB] fp32,
    score(qb, kb) = sum over the group's query heads h of sum_{j in kb} softmax_j(mean_{t in qb} q_t,h . k_j / sqrt(D)),
the softmax over the keys up to qb's last query; 0 for the blocks after them.

The reference materialises [HQ, NQB, Tk] token scores. Here the means come from torch
(one strided read of q) and one program holds a tile of BQ query blocks for every query
head of a KV group, as rows (head, query block), so each key tile is read once for the
group. It streams the causal key tiles past them twice: first an online max and
log-sum-exp per row, then exp(s - lse) summed per key block and over the group's heads
into the output. Storing the products between the passes would take the [HQ, NQB, Tk]
the reference holds; recomputing them costs one more product per (row, key) on the tensor
cores. The heads meet inside the program, so the sum is deterministic without atomics.
The last query block's row is the torch mass_scores' own, as in the reference: one block
of queries against every key.
"""

from __future__ import annotations

import math

import torch
import triton
import triton.language as tl

from engine.attention.indexers import last_block_queries, last_query_block, mass_scores
from engine.attention.kernels.pooled_indexer import block_means, means_precision
from engine.attention.kernels.portable import autotune_configs, check_block_size
from engine.attention.kernels.score_inputs import check_score_inputs
from engine.attention.layout import QueryLayout

# Keys per dot product: a larger block is walked in tiles, each added into the block's mass.
_MAX_KEY_TILE = 64
# Rows x (D + key tile) fp32 values per warp: the query and score tiles side by side. Every
# tiling within it compiled for sm_90 without spilling, at 68 to 144 registers a thread
# (scripts/compile_kernels.py, triton 3.7.1, Llama 3 8B, Qwen2.5-7B and Llama 3.2 1B layouts).
_VALUES_PER_WARP = 4096


def _keep(configs, named_args, **kwargs):
    """Tiles of 16 to 256 rows (heads x query blocks; tl.dot needs 16) whose values fit the warps' registers."""

    def fits(c: triton.Config) -> bool:
        rows = kwargs["GROUP_PAD"] * c.kwargs["BQ"]
        width = kwargs["HEAD_DIM_PAD"] + kwargs["KEY_TILE"]
        return 16 <= rows <= 256 and rows * width <= _VALUES_PER_WARP * c.num_warps

    return [c for c in configs if fits(c)] or configs[:1]


# Query blocks per tile, warps and pipeline stages; the interpreter takes the first.
_CONFIGS = [
    triton.Config({"BQ": bq}, num_warps=warps, num_stages=stages)
    for bq in (16, 32, 64)
    for warps in (4, 8)
    for stages in (2, 3)
]


# The length is left out of the key: every tile runs the same loop body, only more often.
@triton.autotune(
    configs=autotune_configs(_CONFIGS),
    key=["BLOCK_SIZE", "GROUP_PAD", "HEAD_DIM_PAD", "PRECISION"],
    prune_configs_by={"early_config_prune": _keep},
)
@triton.jit
def _pooled_mass_kernel(
    QM, K, OUT,
    sqb, sqh, sqn,
    skb, skh, skt,
    sob, soh, soq, sok,
    n_kv_heads, n_rows, n_k_blocks, first_block, group,
    BLOCK_SIZE: tl.constexpr, KEY_TILE: tl.constexpr, GROUP_PAD: tl.constexpr,
    HEAD_DIM: tl.constexpr, HEAD_DIM_PAD: tl.constexpr, PRECISION: tl.constexpr, BQ: tl.constexpr,
):  # fmt: skip
    """QM [B, HQ, n_rows, D] fp32 means, pre-scaled by log2(e)/sqrt(D); K [B, HKV, Tk, D] -> OUT [B, HKV, n_rows, NKB].

    Grid (query tiles, B*HKV). The rows are the query blocks before the last: each is full
    up to its end, so it sees exactly the keys of blocks 0 .. first_block + row, all of
    which exist, and no key load needs a bound.
    """
    # Longest first: a tile's work grows with its query blocks, as in the exact indexer.
    tile = tl.num_programs(0) - 1 - tl.program_id(0)
    batch_head = tl.program_id(1)
    b = (batch_head // n_kv_heads).to(tl.int64)  # int64 bases: B*H*T*D passes int32 at long contexts
    kv_head = (batch_head % n_kv_heads).to(tl.int64)
    rows = tl.arange(0, GROUP_PAD * BQ)
    head = rows // BQ
    q_block = tile * BQ + rows % BQ
    row_ok = (head < group) & (q_block < n_rows)
    # Padding rows load q = 0 and still see key 0: their log-sum-exp stays finite (no NaN
    # to mask out), and the second pass drops them.
    limit = (first_block + q_block + 1) * BLOCK_SIZE  # keys [0, limit) are visible to the row
    offs_d = tl.arange(0, HEAD_DIM_PAD)
    d_ok = offs_d < HEAD_DIM
    q_rows = QM + b * sqb + (kv_head * group + head) * sqh + q_block * sqn
    q = tl.load(q_rows[:, None] + offs_d[None, :], mask=row_ok[:, None] & d_ok[None, :], other=0.0)
    k_base = K + b * skb + kv_head * skh
    # Key blocks the tile's last query block sees; tiles after them are skipped.
    n_blocks = first_block + tl.minimum(tile * BQ + BQ, n_rows)
    tiles_per_block: tl.constexpr = BLOCK_SIZE // KEY_TILE

    # Pass 1: online max and log-sum-exp (base 2) per row over its visible keys.
    m = tl.full([GROUP_PAD * BQ], float("-inf"), dtype=tl.float32)
    total = tl.zeros([GROUP_PAD * BQ], dtype=tl.float32)
    for step in range(0, n_blocks * tiles_per_block):
        keys = step * KEY_TILE + tl.arange(0, KEY_TILE)
        k = tl.load(k_base + keys[None, :] * skt + offs_d[:, None], mask=d_ok[:, None], other=0.0)
        s = tl.dot(q, k.to(tl.float32), input_precision=PRECISION)
        s = tl.where(keys[None, :] < limit[:, None], s, float("-inf"))
        m_new = tl.maximum(m, tl.max(s, 1))  # finite from the first tile on: key 0 is always visible
        total = total * tl.exp2(m - m_new) + tl.sum(tl.exp2(s - m_new[:, None]), 1)
        m = m_new
    lse = m + tl.log2(total)

    # Pass 2: each row's probabilities summed over a key block, then over the group's heads.
    q_blocks = tile * BQ + tl.arange(0, BQ)
    out_col = OUT + b * sob + kv_head * soh + q_blocks * soq
    out_ok = q_blocks < n_rows
    for kb in range(0, n_blocks):
        mass = tl.zeros([BQ], dtype=tl.float32)
        for part in tl.static_range(tiles_per_block):
            keys = kb * BLOCK_SIZE + part * KEY_TILE + tl.arange(0, KEY_TILE)
            k = tl.load(k_base + keys[None, :] * skt + offs_d[:, None], mask=d_ok[:, None], other=0.0)
            s = tl.dot(q, k.to(tl.float32), input_precision=PRECISION)
            seen = row_ok[:, None] & (keys[None, :] < limit[:, None])
            p = tl.where(seen, tl.exp2(s - lse[:, None]), 0.0)
            mass += tl.sum(tl.reshape(tl.sum(p, 1), GROUP_PAD, BQ), 0)
        tl.store(out_col + kb * sok, mass, mask=out_ok)
    # Blocks after the tile's last visible key get no mass, as the reference's softmax gives them.
    for kb in range(n_blocks, n_k_blocks):
        tl.store(out_col + kb * sok, tl.zeros([BQ], dtype=tl.float32), mask=out_ok)


def _launch(q: torch.Tensor, k: torch.Tensor, layout: QueryLayout, out: torch.Tensor) -> None:
    """The pooled rows: every query block but the last, into out[:, :, :-1]."""
    b, hq, _, d = q.shape
    hkv = k.shape[1]
    bs = layout.block_size
    n_rows = layout.n_q_blocks - 1
    if not n_rows:  # one query block (a decode step, a short chunk): its row is mass_scores'
        return
    pooled = q[:, :, : layout.q_len - last_block_queries(layout)]
    # log2(e) folded in here, so the kernel's exponentials are exp2.
    q_mean = block_means(pooled, layout.q_offset, bs).mul_(math.log2(math.e) / math.sqrt(d))  # [B, HQ, rows, D]

    def grid(meta):
        return triton.cdiv(n_rows, meta["BQ"]), b * hkv

    _pooled_mass_kernel[grid](
        q_mean, k, out,
        q_mean.stride(0), q_mean.stride(1), q_mean.stride(2),
        k.stride(0), k.stride(1), k.stride(2),
        *out.stride(),
        hkv, n_rows, layout.n_k_blocks, layout.first_block, hq // hkv,
        BLOCK_SIZE=bs, KEY_TILE=min(bs, _MAX_KEY_TILE), GROUP_PAD=triton.next_power_of_2(hq // hkv),
        HEAD_DIM=d, HEAD_DIM_PAD=max(16, triton.next_power_of_2(d)), PRECISION=means_precision(q.dtype),
    )  # fmt: skip


def pooled_mass_scores(
    q: torch.Tensor, k: torch.Tensor, layout: QueryLayout, out: torch.Tensor | None = None
) -> torch.Tensor:
    """Pooled attention-mass block scores: q [B, HQ, Tq, D], k [B, HKV, Tk, D] -> [B, HKV, NQB, NKB] fp32.

    score(qb, kb) = sum_h sum_{j in kb} softmax_j(mean_{t in qb} q_t,h . k_j / sqrt(D)) over the query heads h
    sharing a KV head and qb's real queries t, the softmax over the keys up to qb's last real query; except
    the last query block, whose row is mass_scores' own (see the module docstring).
    layout: the block grid of the Tq queries and Tk keys. out: a [B, HKV, NQB, NKB] fp32
    buffer to write into, or None.

    Blocks after the keys qb sees score 0, as the reference's softmax gives them. The last row
    comes from the torch mass_scores itself.
    """
    out = check_score_inputs(q, k, layout, out)
    check_block_size(layout.block_size)
    if k.stride(-1) != 1:
        k = k.contiguous()
    if layout.kv_len * k.stride(2) >= 2**31:
        raise ValueError(f"{layout.kv_len} keys at these strides pass the kernel's int32 offsets within a head")
    _launch(q, k, layout, out)
    mass_scores(q[:, :, -last_block_queries(layout) :], k, last_query_block(layout), out=out[:, :, -1:])
    return out
