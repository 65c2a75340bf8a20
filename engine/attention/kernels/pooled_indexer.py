"""Triton pooled indexer: block scores of mean-pooled queries against mean-pooled keys.

Same signature and semantics as engine.attention.indexers.pooled_scores:
    q [B, HQ, Tq, D], k [B, HKV, Tk, D] -> scores [B, HKV, NQB, NKB] fp32,
    score(qb, kb) = max over the group's query heads of mean(q of qb) . mean(k of kb),
and -inf wherever kb comes after the query block (never selectable).

Pooling is one read of q and k in torch (a strided mean per block, no padded copy);
the scores are a small matmul per (batch, KV head) tiled over (query blocks x key
blocks) in Triton, so the max over the group never materialises per-head scores
and tiles wholly after the diagonal cost no dot products.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from engine.attention.kernels.portable import autotune_configs
from engine.attention.kernels.score_inputs import check_score_inputs
from engine.attention.layout import QueryLayout

# Pooled query and key tiles, (BQ + BK) x D fp32 values, that fit in registers beside
# the scores: larger ones spilled in ptxas for sm_90.
_MAX_TILE_VALUES = 64 * 256


def means_precision(dtype: torch.dtype) -> str:
    """tl.dot's precision for the fp32 means of q and k in `dtype`, on the tensor cores.

    One TF32 product keeps 11 significant bits, as many as fp16 inputs carry and more
    than bf16's 8, so it loses nothing their scores can resolve; fp32 inputs take
    "tf32x3", three TF32 products, about fp32 accuracy. Plain fp32 ("ieee") runs on
    the CUDA cores at about a seventh of the rate (NVIDIA's H100/H200 datasheet: 67
    against 495 TFLOP/s dense), and at 1M tokens these products are about 1 TFLOP per
    layer of Llama 3 8B (2 x 32 heads x 128 dims x 16K^2/2 block pairs).
    """
    return "tf32x3" if dtype == torch.float32 else "tf32"


def _keep(configs, named_args, **kwargs):
    """Drop tiles whose pooled queries and keys together would spill registers (D=256)."""
    return [c for c in configs if (c.kwargs["BQ"] + c.kwargs["BK"]) * kwargs["D_PAD"] <= _MAX_TILE_VALUES]


# Under the interpreter only the first (smallest tiles) runs.
_CONFIGS = [
    triton.Config({"BQ": 32, "BK": 32}, num_warps=4),
    triton.Config({"BQ": 32, "BK": 64}, num_warps=4),
    triton.Config({"BQ": 64, "BK": 64}, num_warps=8),
]


@triton.autotune(
    configs=autotune_configs(_CONFIGS),
    key=["GROUP", "HEAD_DIM", "PRECISION"],
    prune_configs_by={"early_config_prune": _keep},
)
@triton.jit
def _pooled_scores_kernel(
    QM, KM, OUT,
    sqb, sqh, sqn, sqd,
    skb, skh, skn, skd,
    sob, soh, soq, sok,
    n_kv_heads, n_q_blocks, n_k_blocks, first_block,
    GROUP: tl.constexpr, HEAD_DIM: tl.constexpr, D_PAD: tl.constexpr, PRECISION: tl.constexpr,
    BQ: tl.constexpr, BK: tl.constexpr,
):  # fmt: skip
    """QM [B, HQ, NQB, D] and KM [B, HKV, NKB, D] fp32 means -> OUT [B, HKV, NQB, NKB]."""
    pid_k = tl.program_id(0)
    pid_q = tl.program_id(1)
    bh = tl.program_id(2)
    b = (bh // n_kv_heads).to(tl.int64)
    h = (bh % n_kv_heads).to(tl.int64)
    qbs = pid_q * BQ + tl.arange(0, BQ)
    kbs = pid_k * BK + tl.arange(0, BK)
    cols = tl.arange(0, D_PAD)
    q_ok = qbs < n_q_blocks
    k_ok = kbs < n_k_blocks
    col_ok = cols < HEAD_DIM
    best = tl.full([BQ, BK], float("-inf"), dtype=tl.float32)
    # Only tiles reaching the diagonal hold selectable entries; the rest just get -inf.
    if pid_k * BK <= first_block + pid_q * BQ + BQ - 1:
        km = tl.load(
            KM + b * skb + h * skh + kbs[:, None] * skn + cols[None, :] * skd,
            mask=k_ok[:, None] & col_ok[None, :],
            other=0.0,
        )
        for g in range(GROUP):
            qm = tl.load(
                QM + b * sqb + (h * GROUP + g) * sqh + qbs[:, None] * sqn + cols[None, :] * sqd,
                mask=q_ok[:, None] & col_ok[None, :],
                other=0.0,
            )
            best = tl.maximum(best, tl.dot(qm, tl.trans(km), input_precision=PRECISION))
    # Query block qb sits at absolute block first_block + qb; later key blocks are never selectable.
    causal = kbs[None, :] <= (first_block + qbs)[:, None]
    tl.store(
        OUT + b * sob + h * soh + qbs[:, None] * soq + kbs[None, :] * sok,
        tl.where(causal, best, float("-inf")),
        mask=q_ok[:, None] & k_ok[None, :],
    )


def block_means(x: torch.Tensor, first: int, block_size: int) -> torch.Tensor:
    """[B, H, T, D] -> [B, H, NB, D] fp32 means over the absolute block grid.

    x's first row sits at absolute position `first`; a partial block at either end
    averages only the rows it holds. The full blocks in between are a strided view,
    so nothing is padded or copied before the reduction.
    """
    t = x.shape[2]
    head = min(t, -first % block_size)  # rows that finish a block begun before x
    body = (t - head) // block_size * block_size
    parts = []
    if head:
        parts.append(x[:, :, :head].mean(2, keepdim=True, dtype=torch.float32))
    if body:
        parts.append(x[:, :, head : head + body].unflatten(2, (-1, block_size)).mean(3, dtype=torch.float32))
    if head + body < t:
        parts.append(x[:, :, head + body :].mean(2, keepdim=True, dtype=torch.float32))
    return torch.cat(parts, dim=2) if len(parts) > 1 else parts[0]


def _launch(q: torch.Tensor, k: torch.Tensor, layout: QueryLayout, out: torch.Tensor) -> None:
    b, hq, _, d = q.shape
    hkv = k.shape[1]
    q_mean = block_means(q, layout.q_offset, layout.block_size)  # [B, HQ, NQB, D]
    k_mean = block_means(k, 0, layout.block_size)  # [B, HKV, NKB, D]

    def grid(meta):
        return triton.cdiv(layout.n_k_blocks, meta["BK"]), triton.cdiv(layout.n_q_blocks, meta["BQ"]), b * hkv

    _pooled_scores_kernel[grid](
        q_mean, k_mean, out,
        *q_mean.stride(), *k_mean.stride(), *out.stride(),
        hkv, layout.n_q_blocks, layout.n_k_blocks, layout.first_block,
        GROUP=hq // hkv, HEAD_DIM=d, D_PAD=max(16, triton.next_power_of_2(d)), PRECISION=means_precision(q.dtype),
    )  # fmt: skip


def pooled_scores(
    q: torch.Tensor, k: torch.Tensor, layout: QueryLayout, out: torch.Tensor | None = None
) -> torch.Tensor:
    """Pooled block scores: q [B, HQ, Tq, D], k [B, HKV, Tk, D] -> [B, HKV, NQB, NKB] fp32.

    score(qb, kb) = max over the query heads sharing a KV head of
    (mean of qb's real queries) . (mean of kb's keys), defined for kb before qb's own block.
    layout: the block grid of the Tq queries and Tk keys. out: a [B, HKV, NQB, NKB] fp32
    buffer to write into, or None.

    The diagonal block gets its pooled score, and blocks after it -inf.
    """
    out = check_score_inputs(q, k, layout, out)
    _launch(q, k, layout, out)
    return out
