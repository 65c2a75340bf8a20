"""engine.decision.decide: one strategy recommended in one short sentence, with its reasons."""

from engine.decision import Option, View, decide
from engine.stats import Gate

WITHIN = Gate("within", 0.0, None, None)


def option(strategy, cost, correct, n=9, gate=WITHIN, spread=None, api=None):
    cost_range = (cost * spread[0], cost * spread[1]) if spread else None
    return Option(strategy, cost=cost, cost_range=cost_range, correct=correct, n_probes=n, gate=gate, api_cost=api)


VIEW = View(unit="contract", money=lambda v: f"${v:.2f}", basis="device dollars at $2.00/h", gate_points=5)


def test_it_recommends_the_cheapest_strategy_inside_the_gate_and_sets_it_against_chunking():
    d = decide([option("chunked", 3.0, 5), option("full_index_share", 1.0, 5), option("full_dense", 2.0, 5)], VIEW)
    assert d.recommended == "full_index_share"
    assert d.sentence == ("Recommended: Whole documents (Index Share), $1.00 per contract, answers 56% (±27) of your "
                          "questions. Ask every chunk costs $3.00 and answers 56% (±27).")


def test_a_gated_strategy_is_never_recommended_however_cheap():
    gated = Gate("gated", 60.0, 0.002, None)
    d = decide([option("chunked", 3.0, 18, n=20), option("full_index_share", 0.1, 6, n=20, gate=gated)], VIEW)
    assert d.recommended == "chunked"
    assert any("is gated: 60 points below" in r for r in d.reasons)


def test_one_the_probes_cannot_tell_apart_is_not_recommended_and_the_reason_says_how_many_probes_would():
    unsure = Gate("cannot_tell", 44.4, 0.125, 13)
    d = decide([option("chunked", 3.0, 5), option("full_index_share", 1.0, 1, gate=unsure)], VIEW)
    assert d.recommended == "chunked"
    assert any("cannot tell that from chance" in r and "about 13 probes" in r for r in d.reasons)


def test_costs_inside_each_others_spread_are_a_tie_won_by_the_more_accurate():
    d = decide([option("chunked", 1.0, 4, spread=(0.8, 1.5)),
                option("full_dense", 1.2, 5, spread=(0.9, 1.3))], VIEW)
    assert d.recommended == "full_dense"
    assert "Ask every chunk costs the same within measurement ($1.00)" in d.sentence
    assert any(r.startswith("Noise: ") and "cost the same within measurement" in r for r in d.reasons)


def test_costs_apart_beyond_their_spread_are_not_a_tie():
    d = decide([option("chunked", 1.0, 4, spread=(0.9, 1.1)),
                option("full_dense", 2.0, 5, spread=(0.9, 1.1))], VIEW)
    assert d.recommended == "chunked"
    assert "Whole documents (dense) costs $2.00" in d.sentence


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
