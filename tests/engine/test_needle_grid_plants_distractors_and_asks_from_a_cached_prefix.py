"""The needle grid plants facts of the same shape around the asked one, and can ask from the documents' cache."""

import pytest

from engine.evaluation import needle
from engine.attention import AttentionConfig

RUNS = AttentionConfig(window=256, topk=256, global_blocks=2)


def test_a_setting_names_its_own_budget_and_whether_it_is_cached():
    fixed = needle.parse_setting("index_share:pooled_mass@fixed+cached", 0.25, RUNS)
    assert (fixed.budget, fixed.cached, fixed.name) == (0.0, True, "index_share:pooled_mass@704+cached")
    assert fixed.config(32000).topk == 256  # the runs' budget at every length
    share = needle.parse_setting("index_share:pooled_mass+doc@0.125", 0.25, RUNS)
    assert (share.budget, share.cached, share.anchors) == (0.125, False, "workload")
    assert share.config(16384).budget_tokens == 2048
    assert needle.parse_setting("dense+cached", 0.25, RUNS).name == "dense+cached"


def test_the_distractors_are_other_companies_with_other_fees():
    asked = needle.facts(3)[2]
    others = needle.distractors_of(asked, 7)
    assert len({f.company for f in [asked, *others]}) == 8
    assert len({f.amount for f in [asked, *others]}) == 8


@pytest.mark.model
def test_every_fact_is_planted_once_and_the_cached_prefix_ends_before_the_question(smollm2):
    haystack = "\n\n".join(d.text.strip() for d in needle.default_documents())
    asked = needle.facts(1)[0]
    others = needle.distractors_of(asked, 4)
    ids, prefix = needle.planted_with_prefix(smollm2, haystack, asked, 1500, 0.5, others)
    assert ids == needle.planted_prompt(smollm2, haystack, asked, 1500, 0.5, others)[0]
    text = smollm2.tokenizer.decode(ids)
    for fact in [asked, *others]:
        assert text.count(fact.sentence) == 1
    # What every question about these documents shares is cached, up to the company's name.
    assert asked.question not in smollm2.tokenizer.decode(ids[:prefix])
    assert smollm2.tokenizer.decode(ids[prefix:]).strip().startswith(asked.company)
    assert len(ids) <= 1500
