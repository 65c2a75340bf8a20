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

A raw maximum of q.k is not attention: a key with a large norm, or a head that never
attends there, wins it. The two mass indexers rank blocks by what attention would put
on them instead, each query head normalised by its own softmax before the heads of a
GQA group are summed:

mass         score(qb, kb) = sum_h sum_{t in qb} sum_{j in kb} softmax_j(q_t,h . k_j / sqrt(D))
             Dense attention's own block mass, so its top blocks are dense attention's top
             blocks in this layer. Cost as exact (2*HQ*D per causal pair) plus one exp
             per pair: the TidalDecode choice, full attention scores at the layers that select.

pooled_mass  the same with each head's mean query over qb in place of its B queries,
             normalised by a per-head log-sum-exp over the causal keys: 2*HQ*D per
             (query block, key token) pair, 1/B of mass. Except the pass's last query
             block, scored as mass scores it: its last query writes the next token (at a
             prompt's end, the answer's first), and a mean over a question and a chat
             template's closing tokens can miss what that one query reads (measured:
             docs/engine.md, the needle grid). One block of exact mass adds
             2*HQ*D per (query, key) pair of one block: 1/NQB of mass, about what the
             pooled rows cost.
"""

from __future__ import annotations

import torch

from engine.attention.layout import QueryLayout

# Exact scoring materialises [HQ, rows, Tk] scores in the input dtype; rows are
# chunked to keep that under about 2^26 elements.
_EXACT_CHUNK_ELEMENTS = 1 << 26
# The pooled_mass indexer's score rows are chunked to about 2^25 elements at a time (64 MiB in bf16): rows of fewer
# queries made the CPU's matrix products slower (random inputs at 32K on the 2-core CPU: 2^24 1.4 s an indexer
# layer, 2^25 0.85 s).
_POOLED_MASS_CHUNK_ELEMENTS = 1 << 25


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


def mass_scores(
    q: torch.Tensor, k: torch.Tensor, layout: QueryLayout, out: torch.Tensor | None = None
) -> torch.Tensor:
    """Attention-mass block scores: q [B, HQ, Tq, D], k [B, HKV, Tk, D] -> [B, HKV, NQB, NKB] fp32.

    score(qb, kb) = sum over the query heads sharing a KV head and over qb's real queries t of
    sum_{j in kb} softmax_j(q_t,h . k_j / sqrt(D)), the softmax over t's causal keys:
    the attention mass dense attention would put on kb. Every block up to qb's own is scored.
    layout, out: as for exact_scores.
    """
    if layout.n_q_blocks == 1:
        scores = _one_block_mass(q, k, layout)
        return scores if out is None else out.copy_(scores)
    b, hq, _, d = q.shape
    hkv = k.shape[1]
    bs = layout.block_size
    n_kb = layout.n_k_blocks
    scale = d**-0.5
    acc = torch.promote_types(q.dtype, torch.float32)
    # fp32 products: exp amplifies bf16's rounding, and CPUs multiply bf16 far slower than fp32.
    q_blocks = layout.pad(q).to(acc).view(b, hkv, hq // hkv, layout.n_q_blocks, bs, d)
    k_blocks = torch.nn.functional.pad(k.to(acc), (0, 0, 0, n_kb * bs - k.shape[2]))
    real = layout.real_queries(q.device)  # [NQB, BLOCK]
    q_pos = layout.q_positions(q.device)  # [NQB, BLOCK]
    rows_per_chunk = max(1, _EXACT_CHUNK_ELEMENTS // (hq * bs * n_kb * bs))
    scores = torch.zeros((b, hkv, layout.n_q_blocks, n_kb), device=q.device, dtype=acc)
    for start in range(0, layout.n_q_blocks, rows_per_chunk):
        stop = min(start + rows_per_chunk, layout.n_q_blocks)
        seen = min(layout.first_block + stop, n_kb)
        s = torch.einsum("bhgctd,bhjd->bhgctj", q_blocks[:, :, :, start:stop], k_blocks[:, :, : seen * bs])
        key_pos = torch.arange(seen * bs, device=q.device)
        visible = (key_pos[None, None, :] <= q_pos[start:stop, :, None]) & (key_pos < layout.kv_len)  # [C, BLOCK, J]
        # In place: at 2K tokens one chunk of scores is ~0.5 GB, and each copy costs as much as the products.
        p = torch.softmax(s.mul_(scale).masked_fill_(~visible, float("-inf")), dim=-1)
        p.nan_to_num_(0.0).mul_(real[start:stop, :, None])  # padding queries see no key: their row is NaN
        scores[:, :, start:stop, :seen] = p.unflatten(-1, (seen, bs)).sum(dim=(2, 4, 6))
    scores = scores.float()
    return scores if out is None else out.copy_(scores)


def _one_block_mass(q: torch.Tensor, k: torch.Tensor, layout: QueryLayout) -> torch.Tensor:
    """mass_scores for queries that all sit in one block (a decode step, a question's tail): only the real
    queries are scored. The chunked path pads them to a whole block, 64 rows for a decode step's one, which made
    an indexer layer's decode step cost more than the model's linear layers at 16K (issue 35).

    fp32 products, as mass_scores': for these few rows against a cache view, bf16 products were 2-2.5x slower on
    the 2-core CPU (16-21 ms against 8 at 32K keys), where the pooled rows' larger products gain from them."""
    b, hq, tq, d = q.shape
    hkv, tk = k.shape[1], k.shape[2]
    acc = torch.promote_types(q.dtype, torch.float32)
    q_rows = (q.to(acc) * d**-0.5).reshape(b, hkv, hq // hkv * tq, d)
    s = torch.matmul(q_rows, k.to(acc).transpose(-1, -2)).view(b, hkv, hq // hkv, tq, tk)
    if tq > 1:
        q_pos = torch.arange(tk - tq, tk, device=q.device)
        s.masked_fill_(torch.arange(tk, device=q.device)[None, :] > q_pos[:, None], float("-inf"))
    mass = torch.softmax(s, dim=-1).sum(dim=(2, 3))  # [B, HKV, Tk]
    n_kb = layout.n_k_blocks
    mass = torch.nn.functional.pad(mass, (0, n_kb * layout.block_size - tk))
    return mass.view(b, hkv, 1, n_kb, layout.block_size).sum(-1).float()


def pooled_mass_scores(
    q: torch.Tensor, k: torch.Tensor, layout: QueryLayout, out: torch.Tensor | None = None
) -> torch.Tensor:
    """Pooled attention-mass block scores: q [B, HQ, Tq, D], k [B, HKV, Tk, D] -> [B, HKV, NQB, NKB] fp32.

    score(qb, kb) = sum_h sum_{j in kb} softmax_j(mean_{t in qb} q_t,h . k_j / sqrt(D)) over the query heads h
    sharing a KV head and qb's real queries t, the softmax over the keys up to qb's last real query; except
    the last query block, whose row is mass_scores' own (see the module docstring).
    layout: the block grid of the Tq queries and Tk keys. out: a [B, HKV, NQB, NKB] fp32
    buffer to write into, or None.

    Each query head's mean query over qb scores every key token; a per-head log-sum-exp over the
    causal keys normalises them, so each head spends a mass of 1, and a block's score is the mass
    its keys get. One query row per block instead of B: 1/B of mass_scores' work, and a single key
    that stands out (a planted fact) still wins its block, which mean-pooled keys would blur away.

    Precision: the pooled rows' products are computed in the keys' dtype (bf16 in a model; fp64 stays fp64 for the
    oracle) and their softmax in fp32, its probabilities stored in the keys' dtype. A bf16 product accumulates in
    fp32 and rounds once; it runs on the CPU's bf16 units and never writes an fp32 copy of the keys, which at 32K
    made this indexer 2.5x slower on the 2-core CPU (issue 35). The last row, mass_scores', keeps fp32 products,
    and so does the Triton kernel (its module docstring).
    """
    if layout.n_q_blocks == 1:  # a decode step, a short question: the one query block is the last
        return mass_scores(q, k, layout, out)
    b, hq, _, d = q.shape
    hkv, group = k.shape[1], hq // k.shape[1]
    bs, nqb, n_kb = layout.block_size, layout.n_q_blocks, layout.n_k_blocks
    acc = torch.promote_types(q.dtype, torch.float32)
    real = layout.real_queries(q.device).to(acc)  # [NQB, BLOCK]
    # Padding slots are zeros: the sum over a block is its real queries' sum.
    q_mean = layout.pad(q).sum(3, dtype=acc) / real.sum(1)[None, None, :, None]
    # The products in the keys' dtype (bf16 on the AMX/AVX-512 units; fp64 stays fp64 for the oracle), the scale
    # folded into the queries, the softmax in fp32. A pooled query stands for its whole block: it sees every key up
    # to its block's last real query.
    q_rows = (q_mean * d**-0.5).to(k.dtype).view(b, hkv, group, nqb, d)
    last = layout.q_positions(q.device).masked_fill(real == 0, -1).amax(1)  # [NQB]
    scores = torch.zeros((b, hkv, nqb, n_kb), device=q.device, dtype=torch.float32)
    # Rows in chunks, each reading only the keys its last row sees: about the causal half of the work, and scores of
    # _POOLED_MASS_CHUNK_ELEMENTS at a time. At 32K one unchunked fp32 pass wrote and re-read ~1 GB several times:
    # 2.2 computed seconds an indexer layer on the 2-core CPU, 20% of Index Share's prefill (issue 35).
    rows = max(1, _POOLED_MASS_CHUNK_ELEMENTS // (hq * layout.kv_len))
    for start in range(0, nqb - 1, rows):  # the last row is mass_scores' own, below
        stop = min(start + rows, nqb - 1)
        seen_blocks = int(last[stop - 1]) // bs + 1
        seen = min(seen_blocks * bs, layout.kv_len)  # whole blocks, but for the cache's last one
        chunk = q_rows[:, :, :, start:stop].reshape(b, hkv, group * (stop - start), d)
        s = torch.matmul(chunk, k[:, :, :seen].transpose(-1, -2)).view(b, hkv, group, stop - start, seen)
        first_hidden = int(last[start]) + 1  # keys before it are visible to every row of the chunk
        if first_hidden < seen:
            key_pos = torch.arange(first_hidden, seen, device=q.device)
            s[..., first_hidden:].masked_fill_(key_pos[None, :] > last[start:stop, None], float("-inf"))
        p = torch.softmax(s, dim=-1)  # computed in fp32 inside, stored in the keys' dtype: one pass fewer
        if seen < seen_blocks * bs:
            p = torch.nn.functional.pad(p, (0, seen_blocks * bs - seen))
        blocks = p.view(*p.shape[:-1], seen_blocks, bs).sum(-1)  # accumulated in fp32, rounded once
        scores[:, :, start:stop, :seen_blocks] = blocks.to(acc).sum(2).float()
    scores[:, :, -1:] = mass_scores(q[:, :, -last_block_queries(layout):], k, last_query_block(layout))
    return scores if out is None else out.copy_(scores)


def last_block_queries(layout: QueryLayout) -> int:
    """How many of the layout's queries sit in its last query block."""
    return min(layout.q_len, layout.kv_len - (layout.first_block + layout.n_q_blocks - 1) * layout.block_size)


def last_query_block(layout: QueryLayout) -> QueryLayout:
    """The layout of the last query block's queries alone (same keys)."""
    return QueryLayout(q_len=last_block_queries(layout), kv_len=layout.kv_len, block_size=layout.block_size)
