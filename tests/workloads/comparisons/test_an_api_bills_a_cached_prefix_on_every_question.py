"""A cached strategy prefills the documents once, but an API bills their tokens on every question: in full on the
first, then at the cached-input price (the input price where none is known)."""

import copy
import datetime as dt

import pytest

from tests.workloads.comparisons.test_runs_are_priced_with_the_entries_in_force import REPORT, _run
from workloads.comparisons import pricing
from workloads.models import ApiPrice


def _cached_report() -> dict:
    report = copy.deepcopy(REPORT)
    cached = report["strategies"]["full_index_share_cached"] = copy.deepcopy(report["strategies"]["full_index_share"])
    # 10 questions over a 150,000-token prefix, counted once, plus 10 suffixes of 5,000 tokens.
    cached |= {"tokens_in": 200_000, "calls": 10, "prefix_tokens": 150_000}
    cached["quality"]["n_probes"] = 10
    return report


@pytest.fixture
def cached_run(workload, prices, monkeypatch):
    monkeypatch.setattr("tests.workloads.comparisons.test_runs_are_priced_with_the_entries_in_force.REPORT",
                        _cached_report())
    return _run(workload, dt.date(2026, 6, 1))


def test_the_prefix_is_billed_in_full_once_then_at_the_cached_price(cached_run, prices):
    api = prices["api"]
    api.cached_input_per_mtok = "0.025"
    api.save()

    pricing.price_run(cached_run)

    result = cached_run.results.get(strategy="full_index_share_cached")
    # $0.10 in, $0.025 cached, $0.30 out per million: 200,000 in + 9 × 150,000 cached + 100,000 out.
    assert result.api_dollars == pytest.approx((200_000 * 0.10 + 9 * 150_000 * 0.025 + 100_000 * 0.30) / 1e6)
    # The uncached strategy is billed its tokens as before.
    plain = cached_run.results.get(strategy="full_index_share")
    assert plain.api_dollars == pytest.approx((2_000_000 * 0.10 + 100_000 * 0.30) / 1e6)


def test_without_a_cached_price_the_prefix_is_billed_at_the_input_price(cached_run, prices):
    assert ApiPrice.objects.get(pk=prices["api"].pk).cached_input_per_mtok is None

    pricing.price_run(cached_run)

    result = cached_run.results.get(strategy="full_index_share_cached")
    assert result.api_dollars == pytest.approx((200_000 * 0.10 + 9 * 150_000 * 0.10 + 100_000 * 0.30) / 1e6)
