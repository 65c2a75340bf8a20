"""Which key blocks a query block attends: sinks, window, strided globals and top-k."""

import torch

from engine.attention import AttentionConfig
from engine.attention.layout import QueryLayout
from engine.attention.selection import block_index

CFG = AttentionConfig(mode="naive_sparse", block_size=16, window=64, sink_blocks=1, global_blocks=3, topk=48)


def _select(tokens: int, scores: torch.Tensor | None = None, cfg: AttentionConfig = CFG):
    layout = QueryLayout(q_len=tokens, kv_len=tokens, block_size=cfg.block_size)
    if scores is None:
        scores = torch.randn(1, 2, layout.n_q_blocks, layout.n_k_blocks)
    index, picked = block_index(cfg, layout, 1, 2, scores, torch.device("cpu"))
    return layout, index, picked


def test_it_never_exceeds_the_budget_however_long_the_context():
    for tokens in (160, 1600, 16000):
        layout, index, _ = _select(tokens)
        counts = (index >= 0).sum(-1)  # [1, HKV, NQB]
        available = torch.arange(layout.n_q_blocks) + 1  # blocks at or before each query block
        assert torch.equal(counts, available.clamp(max=CFG.budget_blocks).expand_as(counts))


def test_it_keeps_sinks_window_and_a_fixed_count_of_globals():
    torch.manual_seed(0)
    layout, index, picked = _select(3200)
    qb = layout.n_q_blocks - 1
    chosen = set(index[0, 0, qb].tolist())
    window = set(range(qb - CFG.window_blocks + 1, qb + 1))
    assert {0} | window <= chosen
    topk = {i for i in picked[0, 0, qb].tolist() if i >= 0}
    globals_ = chosen - {0} - window - topk
    assert len(globals_) == CFG.global_blocks
    assert len(topk) == CFG.topk_blocks


def test_it_is_causal_ascending_and_padded_at_the_end():
    layout, index, _ = _select(500)
    qb = torch.arange(layout.n_q_blocks)[None, None, :, None]
    assert bool(((index <= qb) | (index == -1)).all())
    real = index.masked_fill(index < 0, 10**9)
    assert bool((real[..., 1:] >= real[..., :-1]).all()), "ids ascend and -1 padding comes last"


def test_it_picks_the_blocks_the_indexer_rates_highest():
    layout = QueryLayout(q_len=1600, kv_len=1600, block_size=16)
    scores = torch.zeros(1, 2, layout.n_q_blocks, layout.n_k_blocks)
    scores[0, 1, -1, 17] = 5.0  # far outside the window of the last query block
    _, index, _ = _select(1600, scores)
    assert 17 in index[0, 1, -1].tolist()


def test_sliding_window_mode_keeps_only_sinks_and_window():
    cfg = CFG.replace(mode="sliding_window")
    layout = QueryLayout(q_len=800, kv_len=800, block_size=16)
    index, picked = block_index(cfg, layout, 1, 2, None, torch.device("cpu"))
    assert picked is None
    last = layout.n_q_blocks - 1
    assert sorted(i for i in index[0, 0, last].tolist() if i >= 0) == [0, *range(last - 3, last + 1)]


def _selection_from_masks(cfg, layout, scores):
    """The selection written from its definition with dense [NQB, NKB] masks: the oracle."""
    qb = layout.q_blocks("cpu")[:, None]
    kb = torch.arange(layout.n_k_blocks)[None, :]
    forced = ((kb < cfg.sink_blocks) | (kb > qb - cfg.window_blocks)) & (kb <= qb)
    span = (qb - cfg.window_blocks + 1 - cfg.sink_blocks).clamp(min=0)
    for i in range(cfg.global_blocks):
        at = torch.where(
            span > cfg.global_blocks, cfg.sink_blocks + (i * span) // cfg.global_blocks, cfg.sink_blocks + i
        )
        forced |= (kb == at) & (i < span)
    eligible = (kb <= qb) & ~forced
    values, idx = scores.masked_fill(~eligible, float("-inf")).topk(min(cfg.topk_blocks, layout.n_k_blocks), dim=-1)
    picked = torch.zeros_like(scores, dtype=torch.bool).scatter_(-1, idx, values > float("-inf"))
    return [sorted(torch.nonzero(row).flatten().tolist()) for row in (picked | forced).flatten(0, 2)]


def test_it_selects_what_the_definition_selects_in_full_and_chunked_prefill():
    torch.manual_seed(1)
    for q_len, kv_len, cfg in [
        (1600, 1600, CFG), (300, 1700, CFG), (1, 999, CFG), (500, 500, CFG.replace(sink_blocks=0))
    ]:
        layout = QueryLayout(q_len=q_len, kv_len=kv_len, block_size=cfg.block_size)
        scores = torch.randn(1, 2, layout.n_q_blocks, layout.n_k_blocks)
        expected = _selection_from_masks(cfg, layout, scores)
        index, _ = block_index(cfg, layout, 1, 2, scores.clone(), torch.device("cpu"))
        assert [[i for i in row if i >= 0] for row in index.flatten(0, 2).tolist()] == expected
