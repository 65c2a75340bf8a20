"""Training-free indexers: score every earlier key block for each query block.

Both score from the layer's own (post-RoPE) queries and keys, one score per KV head:
the best over the query heads that share it, so one selection serves the whole GQA
group. Shapes: q [B, HQ, Tq, D], k [B, HKV, Tk, D] -> scores [B, HKV, NQB, NKB].
Only blocks before the query block's own are meaningful: the diagonal block is
always kept by the window and later blocks are never selectable, so their scores
may hold anything.

pooled  score(qb, kb) = max_h  mean_{t in qb} q_t,h  .  mean_{j in kb} k_j
        Cost per query block: 2*HQ*D per key block, so a prefill costs about
        HQ*D*(N/B)^2: negligible beside attention. Mean pooling works because keys
        of neighbouring tokens point alike after RoPE at this block size; Quest's
        min/max bounds are tighter but cost twice as much, and this indexer exists
        to be the cheap end of the comparison.

exact   score(qb, kb) = max_h max_{t in qb, j in kb}  q_t,h . k_j     (kb < qb)
        Every earlier token is scored, as a DeepSeek-style lightning indexer does, and
        a block counts as good as its best token. Cost 2*HQ*D per causal (t, j) pair,
        about HQ*D*N^2 for a prefill: the same order as attention itself, which is
        the regime where running it once per group (Index Share) pays.
"""

from __future__ import annotations

import torch

from engine.attention.layout import QueryLayout

# Exact scoring materialises [HQ, rows, Tk] scores in the input dtype; rows are
# chunked to keep that under about 2^26 elements.
_EXACT_CHUNK_ELEMENTS = 1 << 26


def pooled_scores(
    q: torch.Tensor, k: torch.Tensor, layout: QueryLayout, out: torch.Tensor | None = None
) -> torch.Tensor:
    """Pooled block scores: q [B, HQ, Tq, D], k [B, HKV, Tk, D] -> [B, HKV, NQB, NKB] fp32.

    score(qb, kb) = max over the query heads sharing a KV head of
    (mean of qb's real queries) . (mean of kb's keys), defined for kb before qb's own block.
    layout: the block grid of the Tq queries and Tk keys. out: a [B, HKV, NQB, NKB] fp32
    buffer to write into, or None.

    Blocks from qb's own on get their pooled score too. fp64 inputs give fp64 scores, which
    is how `engine check` gets its oracle.
    """
    b, hq, _, d = q.shape
    hkv = k.shape[1]
    bs = layout.block_size
    acc = torch.promote_types(q.dtype, torch.float32)
    real = layout.real_queries(q.device).to(acc)  # [NQB, BLOCK]
    q_sum = (layout.pad(q).to(acc) * real[None, None, :, :, None]).sum(3)  # [B, HQ, NQB, D]
    q_mean = q_sum / real.sum(1)[None, None, :, None]
    n_kb = layout.n_k_blocks
    k_pad = torch.nn.functional.pad(k.to(acc), (0, 0, 0, n_kb * bs - k.shape[2]))
    counts = torch.full((n_kb,), float(bs), device=k.device, dtype=acc)
    counts[-1] = k.shape[2] - (n_kb - 1) * bs
    k_mean = k_pad.view(b, hkv, n_kb, bs, d).sum(3) / counts[None, None, :, None]  # [B, HKV, NKB, D]
    q_grouped = q_mean.view(b, hkv, hq // hkv, layout.n_q_blocks, d)
    scores = torch.einsum("bhgqd,bhkd->bhgqk", q_grouped, k_mean).amax(dim=2)
    return scores if out is None else out.copy_(scores)


def exact_scores(
    q: torch.Tensor, k: torch.Tensor, layout: QueryLayout, out: torch.Tensor | None = None
) -> torch.Tensor:
    """Exact block scores: q [B, HQ, Tq, D], k [B, HKV, Tk, D] -> [B, HKV, NQB, NKB] fp32.

    score(qb, kb) = max over the query heads sharing a KV head, qb's real queries and kb's
    keys of q . k, defined for kb before qb's own block.
    layout: the block grid of the Tq queries and Tk keys. out: a [B, HKV, NQB, NKB] fp32
    buffer to write into, or None.

    From qb's own block on, the scores are what the chunked computation leaves (a score or
    -inf): selection never reads them.
    """
    b, hq, _, d = q.shape
    hkv = k.shape[1]
    bs = layout.block_size
    n_kb = layout.n_k_blocks
    q_blocks = layout.pad(q).view(b, hkv, hq // hkv, layout.n_q_blocks, bs, d)
    # Padding keys only ever land in the last block, which is some query block's
    # diagonal (always kept by the window) or in its future (never selectable); the
    # same holds for the j <= t mask, so neither needs applying here.
    k_blocks = torch.nn.functional.pad(k, (0, 0, 0, n_kb * bs - k.shape[2]))
    padding_query = ~layout.real_queries(q.device)  # [NQB, BLOCK]
    rows_per_chunk = max(1, _EXACT_CHUNK_ELEMENTS // (hq * bs * n_kb * bs))
    scores = torch.full((b, hkv, layout.n_q_blocks, n_kb), float("-inf"), device=q.device)
    for start in range(0, layout.n_q_blocks, rows_per_chunk):
        stop = min(start + rows_per_chunk, layout.n_q_blocks)
        # Keys after the chunk's last query block are never selectable: skip them, so
        # the work is the causal half the ledger counts (up to the chunk's own triangle).
        seen = min(layout.first_block + stop, n_kb)
        s = torch.einsum("bhgctd,bhjd->bhgctj", q_blocks[:, :, :, start:stop], k_blocks[:, :, : seen * bs])
        s = s.unflatten(-1, (seen, bs)).amax(dim=-1).amax(dim=2).float()  # [B, HKV, C, BLOCK, SEEN]
        s = s.masked_fill(padding_query[None, None, start:stop, :, None], float("-inf"))
        scores[:, :, start:stop, :seen] = s.amax(dim=3)
    return scores if out is None else out.copy_(scores)
