"""The exact McNemar test and the gate, against values worked out by hand.

Exact McNemar: with b probes only the first got right and c only the second, p = 2·P(X ≤ min(b, c))
for X ~ Binomial(b + c, 1/2), capped at 1.
"""

import pytest

from engine.core.stats import discordant, gate, gates, mcnemar_exact, probes_to_tell


@pytest.mark.parametrize(
    ("b", "c", "p"),
    [
        (5, 0, 2 / 32),  # 0.0625: five discordant probes all one way are not yet significant
        (6, 0, 2 / 64),  # 0.03125: six are
        (4, 1, 2 * (1 + 5) / 32),  # 0.375
        (3, 3, 1.0),
        (0, 0, 1.0),
        (10, 2, 2 * (1 + 12 + 66) / 4096),  # 0.03857
    ],
)
def test_it_matches_the_binomial_tail(b, c, p):
    assert mcnemar_exact(b, c) == pytest.approx(p)


def test_it_pairs_the_probes_in_order():
    assert discordant([True, True, False, False], [True, False, True, False]) == (1, 1)
    with pytest.raises(ValueError, match="same probes"):
        discordant([True], [True, False])


def test_a_gap_inside_the_gate_points_is_within():
    best = [True] * 19 + [False]
    this = [True] * 18 + [False, False]  # 5 points below, gate 5
    assert gate(best, this, 5.0, is_best=False).call == "within"


def test_a_large_significant_gap_is_gated():
    best = [True] * 20
    this = [True] * 12 + [False] * 8  # 40 points below; 8 discordant all one way: p = 2/256
    result = gate(best, this, 5.0, is_best=False)
    assert (result.call, result.points_below) == ("gated", 40.0)
    assert result.p_value == pytest.approx(2 / 256)


def test_a_large_gap_on_few_probes_cannot_be_told_and_says_how_many_would():
    best = [True, True, True, True, True, False, False, False, False]  # the sample: 5 of 9
    this = [True, False, False, False, False, False, False, False, False]  # 1 of 9; 4 discordant, p = 0.125
    result = gate(best, this, 5.0, is_best=False)
    assert result.call == "cannot_tell"
    assert result.p_value == pytest.approx(0.125)
    # At 12 probes the 4 discordant scale to round(5.33) = 5 (p = 0.0625); at 13, to round(5.78) = 6 (p = 0.031).
    assert result.probes_to_tell == 13


def test_no_number_of_probes_tells_apart_a_gap_that_is_not_there():
    assert probes_to_tell(9, 2, 2) is None


def test_one_strategy_has_no_gate_and_the_best_is_within():
    assert gates({"chunked": [True, False]}, 5.0)["chunked"].call == "none"
    both = gates({"a": [True, True], "b": [False, False]}, 5.0)
    assert both["a"].call == "within" and both["a"].p_value is None
    assert both["b"].call == "cannot_tell"
