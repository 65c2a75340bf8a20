"""engine.core.decision.decide: one strategy recommended in one short sentence, with its reasons."""

from engine.core.decision import Option, View, decide
from engine.core.stats import Gate

WITHIN = Gate("within", 0.0, None, None)


def option(strategy, cost, correct, n=9, gate=WITHIN, spread=None, api=None):
    cost_range = (cost * spread[0], cost * spread[1]) if spread else None
    return Option(strategy, cost=cost, cost_range=cost_range, correct=correct, n_probes=n, gate=gate, api_cost=api)


VIEW = View(unit="contract", money=lambda v: f"${v:.2f}", basis="device dollars at $2.00/h", gate_points=5)


def test_it_recommends_the_cheapest_strategy_inside_the_gate_and_sets_it_against_chunking():
    d = decide([option("chunked", 3.0, 5), option("full_index_share", 1.0, 5), option("full_dense", 2.0, 5)], VIEW)
    assert d.recommended == "full_index_share"
    assert d.sentence == ("Recommended: Whole documents (Index Share), $1.00 per contract, answers 5 of 9 questions "
                          "(27–81%). Ask every chunk costs $3.00 and answers 5 of 9 questions (27–81%).")


def test_a_gated_strategy_is_never_recommended_however_cheap():
    gated = Gate("gated", 60.0, 0.002, None)
    d = decide([option("chunked", 3.0, 18, n=20), option("full_index_share", 0.1, 6, n=20, gate=gated)], VIEW)
    assert d.recommended == "chunked"
    assert any(r.startswith("Whole documents (Index Share) left out: clearly fewer right answers") for r in d.reasons)


def test_one_the_probes_cannot_tell_apart_is_not_recommended_over_one_inside_the_gate():
    unsure = Gate("cannot_tell", 44.4, 0.125, 13)
    d = decide([option("chunked", 3.0, 5), option("full_dense", 4.0, 5),
                option("full_index_share", 1.0, 1, gate=unsure)], VIEW)
    assert d.recommended == "chunked"
    assert d.sentence.startswith("Recommended: Ask every chunk")
    assert any("too few questions to tell that from chance; about 13 questions would settle it" in r
               for r in d.reasons)


def test_when_the_probes_cannot_tell_any_strategy_from_the_best_it_says_so_first_and_picks_the_cheapest():
    # The sample's run: one extra right answer of 9 made naive sparse "the best", every other "cannot tell yet".
    d = decide([option("full_naive_sparse", 1.89, 6), option("retrieval", 1.05, 5, gate=Gate("cannot_tell", 11, 1, 33)),
                option("full_index_share_cached", 0.80, 5, gate=Gate("cannot_tell", 11, 1, 30))], VIEW)
    assert d.recommended == "full_index_share_cached"
    assert d.sentence.startswith("Too few questions to tell these strategies apart yet: about 33 questions would "
                                 "settle it. Provisional choice, the cheapest of them: Whole documents, cached "
                                 "(Index Share), $0.80 per contract")


def test_costs_inside_each_others_spread_are_a_tie_won_by_the_more_accurate():
    d = decide([option("chunked", 1.0, 4, spread=(0.8, 1.5)),
                option("full_dense", 1.2, 5, spread=(0.9, 1.3))], VIEW)
    assert d.recommended == "full_dense"
    assert "Ask every chunk costs $1.00 ($0.80–$1.50), the same within measurement, and answers 4 of 9" in d.sentence
    assert "Recommended: Whole documents (dense), $1.20 ($1.08–$1.56) per contract" in d.sentence
    assert any("cost the same within measurement (their measured ranges overlap)" in r for r in d.reasons)


def test_the_cheapest_inside_the_gate_is_named_when_a_tie_recommends_another():
    d = decide([option("chunked", 3.0, 5, spread=(0.9, 1.1)), option("full_dense", 1.2, 5, spread=(0.9, 1.3)),
                option("full_index_share", 1.0, 4, spread=(0.8, 1.5))], VIEW)
    assert d.recommended == "full_dense"
    assert "Whole documents (Index Share) costs least, $1.00 ($0.80–$1.50), the same within measurement, and " \
           "answers 4 of 9" in d.sentence


def test_costs_apart_beyond_their_spread_are_not_a_tie():
    d = decide([option("chunked", 1.0, 4, spread=(0.9, 1.1)),
                option("full_dense", 2.0, 5, spread=(0.9, 1.1))], VIEW)
    assert d.recommended == "chunked"
    assert "Whole documents (dense) costs $2.00 ($1.80–$2.20) and answers" in d.sentence
    assert "Ask every chunk costs less than every other adequate strategy even at its slowest measured rate ($1.10 " \
           "per contract)." in d.reasons


def test_a_run_of_one_strategy_recommends_nothing_and_says_there_is_nothing_to_compare():
    d = decide([option("chunked", 1.0, 0, gate=Gate("none", 0, None, None))], VIEW)
    assert d.recommended is None
    assert "nothing to compare it against" in d.sentence


def test_no_right_answer_anywhere_recommends_nothing():
    d = decide([option("chunked", 1.0, 0), option("full_dense", 2.0, 0)], VIEW)
    assert d.recommended is None
    assert "No strategy answered any of your questions correctly" in d.sentence


def test_refusals_and_both_views_are_labelled_reasons():
    view = View(unit="contract", money=lambda v: f"${v:.2f}", basis="device dollars", api="ExampleAI small")
    d = decide([option("chunked", 3.0, 5, api=0.5), option("full_dense", 1.0, 5, api=0.2),
                Option("full_index_share", refused="the workload needs 9,000 positions")], view)
    assert "Device view: costs per contract in device dollars." in d.reasons
    assert any(r.startswith("API view (ExampleAI small): whole documents (dense) would bill $0.20")
               for r in d.reasons)
    assert "Refused: whole documents (Index Share) (the workload needs 9,000 positions)." in d.reasons


def test_a_reader_named_by_an_acronym_keeps_its_capitals_inside_a_sentence():
    cannot_tell = Gate("cannot_tell", 20.0, 0.5, 11)
    d = decide([option("This worker's engine: Ask every chunk", 1.0, 5),
                option("GPU box: Ask every chunk", 0.5, 3, gate=cannot_tell)], VIEW)
    assert d.sentence.startswith("Too few questions to tell these strategies apart yet")
    assert "GPU box: Ask every chunk" in d.sentence + " ".join(d.reasons)
    assert "gPU" not in d.sentence + " ".join(d.reasons)
