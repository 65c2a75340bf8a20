"""SmolLM2 finds a fact stated ~3K tokens earlier in real text, with a budget far below the context."""

import pytest

from engine.attention import AttentionConfig
from engine.generate import encode_prompt, generate

pytestmark = pytest.mark.model

NEEDLE = "The secret code of the archive room is 4817."
QUESTION = "Question: What is the secret code of the archive room? Answer with the number."
BUDGET = dict(window=256, topk=256, global_blocks=2)  # 704 tokens attended per query block


def _prompt(lm, text: str, tokens: int) -> list[int]:
    paragraphs = text.split("\n\n")
    haystack = "\n\n".join(paragraphs[:3] + [NEEDLE] + paragraphs[3:])
    cut = lm.tokenizer.decode(lm.tokenizer(haystack)["input_ids"][:tokens])
    return encode_prompt(lm, f"{cut}\n\n{QUESTION}")


@pytest.mark.parametrize("indexer", ["pooled", "exact"])
def test_index_share_finds_the_needle(smollm2, gpl_text, indexer):
    ids = _prompt(smollm2, gpl_text, 3500)
    needle_at = smollm2.tokenizer.decode(ids).index("4817")
    assert needle_at < len(smollm2.tokenizer.decode(ids)) / 10, "the needle sits at the start, ~3K tokens back"
    cfg = AttentionConfig(mode="index_share", indexer=indexer, **BUDGET)
    assert cfg.budget_tokens * 5 < len(ids)
    result = generate(smollm2, ids, cfg, max_new_tokens=16, measure_overlap=True)
    print(f"\n{indexer}: {result.text!r}, index overlap {result.index_overlap:.3f}, prefill {result.prefill.seconds:.1f}s")
    assert "4817" in result.text
    assert 0 < result.index_overlap <= 1


def test_a_sliding_window_alone_cannot_see_it(smollm2, gpl_text):
    """The same budget without an indexer misses the fact: the indexer is what finds it."""
    ids = _prompt(smollm2, gpl_text, 3500)
    result = generate(smollm2, ids, AttentionConfig(mode="sliding_window", **BUDGET), max_new_tokens=16)
    assert "4817" not in result.text
