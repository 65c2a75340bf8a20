"""SmolLM2 finds a fact stated ~3K tokens earlier in real text, with a budget far below the context."""

import pytest

from engine.attention import AttentionConfig
from engine.demo import ANSWER, DEMO_BUDGET, needle_prompt
from engine.model.generate import generate

pytestmark = pytest.mark.model


@pytest.fixture(scope="module")
def prompt(smollm2):
    ids = needle_prompt(smollm2, haystack_tokens=3500)
    text = smollm2.tokenizer.decode(ids)
    assert text.index(ANSWER) < len(text) / 10, "the needle sits at the start, ~3K tokens before the question"
    return ids


@pytest.mark.parametrize("indexer", ["pooled", "exact"])
def test_index_share_finds_the_needle(smollm2, prompt, indexer):
    cfg = AttentionConfig(mode="index_share", indexer=indexer, **DEMO_BUDGET)
    assert cfg.budget_tokens * 5 < len(prompt)
    result = generate(smollm2, prompt, cfg, max_new_tokens=16, measure_overlap=True)
    print(f"\n{indexer}: {result.text!r}, index overlap {result.index_overlap:.3f}")
    assert ANSWER in result.text
    assert 0 < result.index_overlap <= 1


def test_the_same_budget_without_the_indexers_picks_cannot_see_it(smollm2, prompt):
    """Top-k 0 keeps all but the indexer's picks: sinks, window and the strided global blocks. Missing the fact then
    shows that the indexer finds it, not a global block that happens to land on the needle. The answer's own top-k
    is picks too, so it goes to 0 with them."""
    cfg = AttentionConfig(mode="index_share", **{**DEMO_BUDGET, "topk": 0, "answer_topk": 0})
    assert cfg.global_blocks > 0 and cfg.topk_blocks == 0 and cfg.for_answer().topk_blocks == 0
    result = generate(smollm2, prompt, cfg, max_new_tokens=16)
    assert result.indexer_passes > 0  # the indexer still runs; only its picks are gone
    assert ANSWER not in result.text


def test_a_sliding_window_alone_cannot_see_it(smollm2, prompt):
    """The same window without an indexer misses the fact: the indexer is what finds it."""
    result = generate(smollm2, prompt, AttentionConfig(mode="sliding_window", **DEMO_BUDGET), max_new_tokens=16)
    assert ANSWER not in result.text
