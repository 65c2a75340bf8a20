"""Re-pricing a run records its changes again, and those of the next period's runs that compare with it."""

import datetime as dt

import pytest

from workloads.comparisons import pricing
from workloads.models import Alert, GpuPrice

from .conftest import Q3, Q4, run_at


def test_repricing_a_run_recomputes_its_changes_and_alerts(workload, probe, prices, acme):
    run_at(workload, probe, Q3, chunked={"seconds": 36})
    now = run_at(workload, probe, Q4, chunked={"seconds": 36})
    assert now.alerts.count() == 0

    GpuPrice.objects.create(organisation=acme, device_class="cpu", per_hour="0.20", effective_from=dt.date(2026, 10, 1),
                            source="test: the VM's price went up")
    pricing.price_run(now)
    now.refresh_from_db()

    cost = now.changes["strategies"]["chunked"]["cost"]
    assert (cost["previous"], cost["current"], cost["percent"]) == (0.001, pytest.approx(0.002), 100.0)
    assert [a.kind for a in now.alerts.all()] == [Alert.Kind.COST_UP]


def test_repricing_the_previous_run_updates_the_run_that_compares_with_it(workload, probe, prices, acme):
    before = run_at(workload, probe, Q3, chunked={"seconds": 36})
    now = run_at(workload, probe, Q4, chunked={"seconds": 36})

    GpuPrice.objects.create(organisation=acme, device_class="cpu", per_hour="0.05", effective_from=dt.date(2026, 7, 1),
                            source="test: a cheaper VM in the summer")
    pricing.price_run(before)
    now.refresh_from_db()

    assert now.changes["strategies"]["chunked"]["cost"]["previous"] == pytest.approx(0.0005)
    assert [a.kind for a in now.alerts.all()] == [Alert.Kind.COST_UP]  # +100% against the cheaper summer


def test_a_previous_period_run_that_finishes_late_becomes_the_comparison(workload, probe, prices):
    now = run_at(workload, probe, Q4, chunked={"seconds": 72})
    now.refresh_from_db()
    assert now.changes == {}

    late = run_at(workload, probe, Q3, chunked={"seconds": 36})
    now.refresh_from_db()

    assert now.previous_run == late and now.changes["strategies"]["chunked"]["cost"]["percent"] == 100.0
