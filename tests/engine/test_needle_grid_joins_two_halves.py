"""`needle --hops 2`: each fact in two halves at two depths (a company's tariff, that tariff's fee), asked by the
company's name, and the report's accuracy against the distance between the halves."""

import pytest

from engine.evaluation import needle
from engine.evaluation.needle_plot import plot_grid


def test_each_join_has_its_own_tariff_and_fee_and_is_asked_by_its_company():
    joins = needle.facts(8, hops=2)
    assert len({j.tariff for j in joins}) == len({j.amount for j in joins}) == 8
    for join in joins:
        first, second = join.sentences
        assert join.company in first and join.tariff in first and str(join.amount) not in first
        assert join.tariff in second and str(join.amount) in second and join.company not in second
        assert join.company in join.question and join.tariff not in join.question
        assert join.tariff not in join.answer_start


def test_a_joins_distractors_are_joins_about_other_companies():
    asked = needle.facts(2, hops=2)[1]
    others = needle.distractors_of(asked, 7)
    assert all(isinstance(o, needle.Join) for o in others)
    assert len({o.tariff for o in [asked, *others]}) == 8


def test_the_first_half_stays_at_the_first_depth_and_the_second_moves_away():
    assert needle.depth_pairs([0.1, 0.3, 0.9]) == [(0.1, 0.3), (0.1, 0.9)]


@pytest.mark.model
def test_both_halves_and_the_distractors_halves_are_planted_at_their_depths(smollm2):
    haystack = "\n\n".join(d.text.strip() for d in needle.default_documents())
    asked = needle.facts(1, hops=2)[0]
    others = needle.distractors_of(asked, 3)
    ids, (first, second) = needle.planted_join(smollm2, haystack, asked, 1500, (0.1, 0.6), others)
    assert len(ids) <= 1500
    text = smollm2.tokenizer.decode(ids)
    for fact in [asked, *others]:
        for half in fact.sentences:
            assert text.count(half) == 1
    assert abs(first / len(ids) - 0.1) < 0.05 and abs(second / len(ids) - 0.6) < 0.05
    # The offsets count the chat template's few closing tokens too: each half starts within a few tokens of its own.
    for offset, half in zip((first, second), asked.sentences):
        assert half in smollm2.tokenizer.decode(ids[offset - 8:offset + 24])
    question = text[text.rindex(asked.sentences[1]) + len(asked.sentences[1]):]
    assert asked.company in question and asked.tariff not in question


@pytest.mark.model
def test_a_join_grid_reports_accuracy_per_distance_between_the_halves(smollm2, tmp_path):
    partials = []
    report = needle.run_grid(smollm2, needle.default_documents(), [needle.Setting("dense")], [1024], (0.1, 0.5, 0.9),
                             n_facts=1, partial=partials.append, distractors=1, hops=2)
    assert (report["hops"], report["distances"]) == (2, [0.4, 0.8])
    assert len(partials) == 2 and partials[0]["partial"] and partials[0]["summary"]["dense"]["prompts"] == 1
    rows = report["rows"]
    assert [(r["first_depth"], r["depth"], r["distance"]) for r in rows] == [(0.1, 0.5, 0.4), (0.1, 0.9, 0.8)]
    assert 0 < rows[0]["distance_tokens"] < rows[1]["distance_tokens"] < 1024
    summary = report["summary"]["dense"]
    assert set(summary["by_distance"]) == {"0.4", "0.8"}
    assert set(summary["distance_cells"]) == set(summary["distance_tokens"]) == {"1024@0.4", "1024@0.8"}
    plot_grid(report, tmp_path / "joins.png")
    assert (tmp_path / "joins.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
