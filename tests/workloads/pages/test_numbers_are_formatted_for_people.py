"""Dollars keep enough precision for tiny CPU costs; FLOPs read in engineering units."""

import pytest

from workloads.formatting import count_of, dollars, flops, percent, seconds, signed


@pytest.mark.parametrize("value, text", [
    (None, "not priced"), (0, "$0"), (0.000123, "$0.000123"), (0.00012345, "$0.000123"), (0.05, "$0.05"),
    (0.1234, "$0.123"), (1234.5, "$1,234.50"), (-0.00123, "-$0.00123"),
])
def test_dollars(value, text):
    assert dollars(value) == text


@pytest.mark.parametrize("value, text", [
    (0, "0 FLOP"), (950, "950 FLOP"), (1.2e12, "1.2 TFLOP"), (6.5e11, "650 GFLOP"), (999.95e9, "1 TFLOP"),
    (3.4e15, "3.4 PFLOP"), (None, "—"),
])
def test_flops(value, text):
    assert flops(value) == text


def test_percent_and_signed_changes():
    assert (percent(2 / 3), percent(1.0), percent(None)) == ("66.7%", "100%", "—")
    assert (signed(10), signed(-17.46), signed(None)) == ("+10.0", "-17.5", "—")


@pytest.mark.parametrize("value, unit, text", [
    (1, "contract", "1 contract"), (4.0, "contract", "4 contracts"), (1200, "ticket", "1,200 tickets"),
    (2.5, "thousand lines", "2.5 thousand lines"), (1, "thousand lines", "1 thousand lines"),
    (0.333, "document", "0.333 documents"), (0.003, "thousand lines", "0.003 thousand lines"),
    (1.001, "ticket", "1 ticket"), (0, "contract", "0 contracts"),
])
def test_counts_of_units_of_work(value, unit, text):
    assert count_of(value, unit) == text


@pytest.mark.parametrize("value, text", [
    (None, "—"), (0, "0 ms"), (0.000123, "0.123 ms"), (0.0123, "12.3 ms"), (0.9996, "1 s"), (1.5, "1.5 s"),
    (119.96, "2 min"), (754, "12.6 min"), (7200, "2 h"), (3.6e6, "1,000 h"),
])
def test_device_time(value, text):
    assert seconds(value) == text
