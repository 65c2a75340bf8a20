"""Training-free indexers: score every earlier key block for each query block.

Both score from the layer's own (post-RoPE) queries and keys, one score per KV head:
the best over the query heads that share it, so one selection serves the whole GQA
group. Shapes: q [B, HQ, Tq, D], k [B, HKV, Tk, D] -> scores [B, HKV, NQB, NKB];
blocks at or after the query block's causal limit may hold anything (the selection
masks them).

pooled  score(qb, kb) = max_h  mean_{t in qb} q_t,h  .  mean_{j in kb} k_j
        Cost per query block: 2*HQ*D per key block, so a prefill costs about
        HQ*D*(N/B)^2: negligible beside attention. Mean pooling works because keys
        of neighbouring tokens point alike after RoPE at this block size; Quest's
        min/max bounds are tighter but cost twice as much, and this indexer exists
        to be the cheap end of the comparison.

exact   score(qb, kb) = max_h max_{t in qb, j in kb, j <= t}  q_t,h . k_j
        Every earlier token is scored, as a DeepSeek-style lightning indexer does, and
        a block counts as good as its best token. Cost 2*HQ*D per causal (t, j) pair,
        about HQ*D*N^2 for a prefill: the same order as attention itself, which is
        the regime where running it once per group (Index Share) pays.
"""

from __future__ import annotations

import torch

from engine.attention.layout import QueryLayout

# Exact scoring materialises [HQ, rows, Tk] fp32 scores; rows are chunked to keep
# that under about 256 MiB.
_EXACT_CHUNK_ELEMENTS = 1 << 26


def pooled_scores(q: torch.Tensor, k: torch.Tensor, layout: QueryLayout) -> torch.Tensor:
    b, hq, _, d = q.shape
    hkv = k.shape[1]
    bs = layout.block_size
    real = layout.real_queries(q.device).to(torch.float32)  # [NQB, BLOCK]
    q_sum = (layout.pad(q).float() * real[None, None, :, :, None]).sum(3)  # [B, HQ, NQB, D]
    q_mean = q_sum / real.sum(1)[None, None, :, None]
    n_kb = layout.n_k_blocks
    k_pad = torch.nn.functional.pad(k.float(), (0, 0, 0, n_kb * bs - k.shape[2]))
    counts = torch.full((n_kb,), float(bs), device=k.device)
    counts[-1] = k.shape[2] - (n_kb - 1) * bs
    k_mean = k_pad.view(b, hkv, n_kb, bs, d).sum(3) / counts[None, None, :, None]  # [B, HKV, NKB, D]
    q_grouped = q_mean.view(b, hkv, hq // hkv, layout.n_q_blocks, d)
    scores = torch.einsum("bhgqd,bhkd->bhgqk", q_grouped, k_mean)
    return scores.amax(dim=2)


def exact_scores(q: torch.Tensor, k: torch.Tensor, layout: QueryLayout) -> torch.Tensor:
    b, hq, _, d = q.shape
    hkv = k.shape[1]
    bs = layout.block_size
    n_kb = layout.n_k_blocks
    tk = k.shape[2]
    q_blocks = layout.pad(q).view(b, hkv, hq // hkv, layout.n_q_blocks, bs, d)
    q_pos = layout.q_positions(q.device)  # [NQB, BLOCK]
    real = layout.real_queries(q.device)
    k_pos = torch.arange(tk, device=q.device)
    rows_per_chunk = max(1, _EXACT_CHUNK_ELEMENTS // (hq * bs * tk))
    out = torch.empty(b, hkv, layout.n_q_blocks, n_kb, device=q.device, dtype=torch.float32)
    for start in range(0, layout.n_q_blocks, rows_per_chunk):
        stop = min(start + rows_per_chunk, layout.n_q_blocks)
        qc = q_blocks[:, :, :, start:stop]  # [B, HKV, G, C, BLOCK, D]
        s = torch.einsum("bhgctd,bhjd->bhgctj", qc, k).float()
        allowed = (k_pos[None, None, :] <= q_pos[start:stop, :, None]) & real[start:stop, :, None]
        s = s.masked_fill(~allowed, float("-inf")).amax(dim=2)  # [B, HKV, C, BLOCK, Tk]
        s = torch.nn.functional.pad(s, (0, n_kb * bs - tk), value=float("-inf"))
        out[:, :, start:stop] = s.view(b, hkv, stop - start, bs, n_kb, bs).amax(dim=(3, 5))
    return out


INDEXERS = {"pooled": pooled_scores, "exact": exact_scores}
