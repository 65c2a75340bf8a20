"""Wilson 95% intervals, checked against the roots of the quadratic the interval is defined by,
(1 + z²/n)·p² − (2p̂ + z²/n)·p + p̂² = 0 with z = 1.959964, solved separately (not with the module's
centre-and-half-width form)."""

import pytest

from engine.core.stats import wilson


@pytest.mark.parametrize(
    ("correct", "n", "low", "high"),
    [
        (5, 9, 0.266651, 0.811221),  # the sample's 5 of 9
        (1, 9, 0.019891, 0.435000),
        (9, 9, 0.700855, 1.0),  # all right: the upper bound is exactly 1
        (0, 3, 0.0, 0.561497),  # none right: the lower bound is exactly 0
        (15, 30, 0.331541, 0.668459),
    ],
)
def test_it_matches_the_hand_computed_interval(correct, n, low, high):
    assert wilson(correct, n) == (pytest.approx(low, abs=1e-6), pytest.approx(high, abs=1e-6))


def test_fewer_probes_give_a_wider_interval():
    nine = wilson(3, 9)
    three = wilson(1, 3)
    assert three[1] - three[0] > nine[1] - nine[0]


def test_no_probes_know_nothing():
    assert wilson(0, 0) == (0.0, 1.0)


def test_it_refuses_more_correct_than_asked():
    with pytest.raises(ValueError, match="between 0 and n"):
        wilson(4, 3)
