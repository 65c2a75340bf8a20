import pytest

from engine.core.stats import Spread, same_within_measurement


def test_a_spread_keeps_the_median_and_the_extremes():
    spread = Spread.of([2.0, 9.0, 3.0, 4.0])
    assert (spread.median, spread.low, spread.high) == (3.5, 2.0, 9.0)


def test_a_cost_scales_with_the_rates_extremes():
    assert Spread(2.0, 1.0, 4.0).scaled(10.0) == (5.0, 20.0)


def test_overlapping_ranges_are_the_same_within_measurement_and_apart_ones_are_not():
    assert same_within_measurement((1.0, 2.0), (1.9, 3.0))
    assert not same_within_measurement((1.0, 2.0), (2.1, 3.0))


def test_a_spread_needs_a_value():
    with pytest.raises(ValueError):
        Spread.of([])
