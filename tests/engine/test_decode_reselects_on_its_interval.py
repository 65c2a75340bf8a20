"""Decoding re-runs the indexer every `decode_reselect`-th token and reuses the last picks in between; the ledger
counts the indexer passes that run, and a prompt forward always selects afresh."""

import pytest
import torch

from engine.core import ledger
from engine.attention import AttentionConfig, LayerPlan, SparseAttention
from engine.attention.layout import QueryLayout
from engine.attention.selection import index_with_picks
from engine.core.errors import EngineError
from tests.engine.conftest import random_qkv

# The answer selects at the documents' top-k (answer_topk 0): at the default 2,048 a 200-token prompt's answer would
# keep every block, and re-selecting could change nothing.
BASE = AttentionConfig(mode="index_share", window=32, topk=32, block_size=16, indexer="exact", global_blocks=0,
                       answer_topk=0)
PROMPT = 200


def _decode(cfg: AttentionConfig, steps: int) -> tuple[SparseAttention, list[torch.Tensor]]:
    """A prompt forward then `steps` one-token forwards through layers 0 and 2 (dense, index); the index at each."""
    attention = SparseAttention(cfg, LayerPlan.build(cfg, 4))
    torch.manual_seed(1)
    q, k, v = random_qkv(PROMPT, PROMPT)
    attention.attend(0, q, k, v, 0.2)
    attention.attend(2, q, k, v, 0.2)
    indexes = []
    for step in range(1, steps + 1):
        q, k, v = random_qkv(1, PROMPT + step)
        attention.attend(0, q, k, v, 0.2)
        attention.attend(2, q, k, v, 0.2)
        indexes.append(attention._shared[2].index)
    return attention, indexes


@pytest.mark.parametrize("interval,passes", [(1, 1 + 6), (3, 1 + 2), (0, 1)])
def test_the_indexer_runs_at_the_prompt_and_every_intervalth_token(interval, passes):
    attention, _ = _decode(BASE.replace(decode_reselect=interval), steps=6)
    assert attention.indexer_passes == passes


def test_between_reselections_a_token_attends_over_the_last_picks_with_its_own_window():
    attention, indexes = _decode(BASE.replace(decode_reselect=0), steps=4)
    picks = attention._picks[2]
    for step, index in enumerate(indexes, start=1):
        layout = QueryLayout(q_len=1, kv_len=PROMPT + step, block_size=16)
        assert torch.equal(index, index_with_picks(BASE, layout, picks))
        real = index[index >= 0]
        assert int(real.max()) == (PROMPT + step - 1) // 16  # the new token's own block, from the window


def test_a_reselecting_token_picks_differently_from_one_that_reuses():
    # Random keys give each step a different best block: re-selecting must show it, reusing must not.
    _, every = _decode(BASE.replace(decode_reselect=1), steps=5)
    _, never = _decode(BASE.replace(decode_reselect=0), steps=5)
    assert any(not torch.equal(a, b) for a, b in zip(every, never))


def test_a_prompt_forward_after_decoding_selects_afresh():
    attention, _ = _decode(BASE.replace(decode_reselect=0), steps=2)
    q, k, v = random_qkv(20, PROMPT + 22)
    attention.attend(0, q, k, v, 0.2)
    attention.attend(2, q, k, v, 0.2)
    assert attention.indexer_passes == 2 and attention._decode_step == 0


@pytest.mark.parametrize("interval", [0, 1, 4])
def test_the_ledger_counts_the_decode_passes_that_run(interval):
    shape = ledger.SMOLLM2_135M
    cfg = BASE.replace(decode_reselect=interval)
    forwards = 9
    call = ledger.call_costs(shape, cfg, 4096, forwards)
    prefill = ledger.prefill_costs(shape, cfg, 4096)
    indexer_layers = shape.plan(cfg).roles.count("index")
    reselecting = [s for s in range(1, forwards + 1) if interval and s % interval == 0]
    per_token = {s: ledger._indexer_decode(shape, cfg, 4096 + s)[0] * indexer_layers for s in reselecting}
    assert call.flops["indexer"] == pytest.approx(prefill.flops["indexer"] + sum(per_token.values()))
    assert len(reselecting) == {0: 0, 1: 9, 4: 2}[interval]


def test_a_negative_interval_is_refused():
    with pytest.raises(EngineError, match="decode re-selection interval"):
        BASE.replace(decode_reselect=-1)
