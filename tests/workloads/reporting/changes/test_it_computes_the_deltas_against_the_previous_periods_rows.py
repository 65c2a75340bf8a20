"""A run's changes hold each strategy's Δ cost, Δ unit cost and Δ accuracy against the previous period's run."""

import datetime as dt

import pytest

from tests.workloads.pages.conftest import make_run, standard_report
from workloads.models import ComparisonRun
from workloads.reporting import rerun_spread

from .conftest import Q1, Q3, Q4, run_at


def _expected(before, now, before_units: float, now_units: float) -> dict:
    """The changes of one strategy, worked out from its two StrategyResult rows."""
    unit_before, unit_now = before.device_dollars / before_units, now.device_dollars / now_units
    cost_percent = (now.device_dollars - before.device_dollars) / before.device_dollars * 100
    unit_percent = (unit_now - unit_before) / unit_before * 100
    noise = rerun_spread.MEASURED_PERCENT  # the runs' rows hold no rates: no spread of their own
    return {
        "cost": {"previous": before.device_dollars, "current": now.device_dollars,
                 "delta": now.device_dollars - before.device_dollars, "percent": cost_percent,
                 "beyond_spread": abs(cost_percent) > noise},
        "unit_cost": {"previous": unit_before, "current": unit_now, "delta": unit_now - unit_before,
                      "percent": unit_percent, "beyond_spread": abs(unit_percent) > noise},
        "spread": {"percent": noise, "runs": 0},
        "accuracy": {"previous": before.accuracy, "current": now.accuracy,
                     "delta_points": (now.accuracy - before.accuracy) * 100},
        "gated": {"previous": before.gated, "current": now.gated},
    }


def test_it_records_each_strategys_deltas_from_the_rows(workload, probe, prices):
    before = make_run(workload, standard_report(probe, index_share_seconds=36, index_share_right=False),
                      created_at=Q3, units_of_work=4)
    now = make_run(workload, standard_report(probe, index_share_seconds=27, index_share_right=True),
                   created_at=Q4, units_of_work=5)
    now.refresh_from_db()

    assert now.previous_run == before
    changes = now.changes
    assert (changes["previous_run"], changes["previous_period"], changes["unit"]) == (before.pk, "2026-Q3", "contract")
    # full_sliding_window was refused in both runs, so it has nothing to compare.
    assert set(changes["strategies"]) == {"full_index_share", "full_dense", "chunked"}
    rows_before = {r.strategy: r for r in before.results.all()}
    for r in now.results.filter(refused=""):
        expected = _expected(rows_before[r.strategy], r, 4, 5)
        for part, values in expected.items():
            assert changes["strategies"][r.strategy][part] == pytest.approx(values), (r.strategy, part)
    index_share = changes["strategies"]["full_index_share"]
    assert index_share["cost"]["percent"] == -25.0 and index_share["accuracy"]["delta_points"] == 100.0
    assert index_share["unit_cost"]["percent"] == -40.0  # a quarter less cost spread over 5 contracts instead of 4


def test_runs_of_the_same_quarter_are_not_compared_with_each_other(workload, probe, prices):
    first = run_at(workload, probe, Q4, chunked={"seconds": 10})
    second = run_at(workload, probe, Q4.replace(month=12), chunked={"seconds": 40})
    second.refresh_from_db()

    assert (second.period, first.period) == ("2026-Q4", "2026-Q4")
    assert (second.previous_run, second.changes, second.alerts.count()) == (None, {}, 0)


def test_it_compares_with_the_latest_succeeded_run_of_the_previous_period(workload, probe, prices):
    run_at(workload, probe, Q3.replace(month=7), chunked={"seconds": 10})
    latest_succeeded = run_at(workload, probe, Q3, chunked={"seconds": 20})
    make_run(workload, status=ComparisonRun.Status.FAILED, created_at=Q3.replace(month=9))
    make_run(workload, status=ComparisonRun.Status.CANCELLED, created_at=Q3.replace(month=9, day=10))
    now = run_at(workload, probe, Q4, chunked={"seconds": 30})
    now.refresh_from_db()

    assert now.previous_run == latest_succeeded
    assert now.changes["strategies"]["chunked"]["cost"]["percent"] == 50.0


def test_it_compares_with_an_older_period_when_the_one_before_has_no_run(workload, probe, prices):
    before = run_at(workload, probe, Q3, chunked={"seconds": 20})
    now = run_at(workload, probe, Q1, chunked={"seconds": 20})
    now.refresh_from_db()

    assert (now.previous_run, now.changes["previous_period"]) == (before, "2026-Q3")


def test_monthly_workloads_compare_month_on_month(workload, probe, prices):
    workload.schedule = "monthly"
    workload.save()
    before = run_at(workload, probe, Q4.replace(day=1), chunked={"seconds": 20})
    now = run_at(workload, probe, Q4.replace(month=12), chunked={"seconds": 20})
    now.refresh_from_db()

    assert (now.period, now.previous_run, now.changes["previous_period"]) == ("2026-12", before, "2026-11")


def test_after_a_switch_to_monthly_a_run_is_not_compared_with_the_quarter_it_falls_in(workload, probe, prices):
    december = run_at(workload, probe, Q4.replace(month=12), chunked={"seconds": 10})
    mid_quarter = run_at(workload, probe, Q1.replace(day=15), chunked={"seconds": 20})  # 2027-Q1 holds February
    workload.schedule = "monthly"
    workload.save()
    february = run_at(workload, probe, Q1.replace(day=20), chunked={"seconds": 30})
    february.refresh_from_db()

    assert (mid_quarter.period, february.period) == ("2027-Q1", "2027-02")
    assert (february.previous_run, february.changes["previous_period"]) == (december, "2026-Q4")


def test_after_a_switch_to_quarterly_a_run_is_not_compared_with_a_month_of_its_quarter(workload, probe, prices):
    workload.schedule = "monthly"
    workload.save()
    december = run_at(workload, probe, Q4.replace(month=12), chunked={"seconds": 10})
    run_at(workload, probe, Q1.replace(day=1), chunked={"seconds": 20})  # 2027-02
    workload.schedule = "quarterly"
    workload.save()
    march = run_at(workload, probe, Q1.replace(month=3), chunked={"seconds": 30})
    march.refresh_from_db()

    assert (march.period, march.previous_run) == ("2027-Q1", december)


def test_the_period_boundary_is_midnight_on_the_organisations_clock(workload, probe, prices, acme):
    acme.timezone = "America/New_York"
    acme.save()
    late_on_31_december = run_at(workload, probe, dt.datetime(2027, 1, 1, 4, 30, tzinfo=dt.UTC),
                                 chunked={"seconds": 10})  # 23:30 in New York: still 2026-Q4
    now = run_at(workload, probe, Q1, chunked={"seconds": 20})
    now.refresh_from_db()

    assert (late_on_31_december.period, now.previous_run) == ("2026-Q4", late_on_31_december)


def test_a_strategy_missing_or_refused_in_either_run_is_left_out(workload, probe, prices):
    run_at(workload, probe, Q3, chunked={"seconds": 20}, full_dense={"seconds": 40})
    now = make_run(workload, standard_report(probe), created_at=Q4)  # dense, index share, chunked; sliding refused
    now.refresh_from_db()

    assert set(now.changes["strategies"]) == {"full_dense", "chunked"}


def test_the_first_run_has_no_changes(workload, probe, prices):
    first = run_at(workload, probe, Q3, chunked={"seconds": 20})
    first.refresh_from_db()

    assert (first.previous_run, first.changes, first.alerts.count()) == (None, {}, 0)


def test_a_rise_from_zero_dollars_has_no_percentage_but_raises_an_alert(workload, probe, prices):
    run_at(workload, probe, Q3, chunked={"seconds": 0})
    now = run_at(workload, probe, Q4, chunked={"seconds": 36})
    now.refresh_from_db()

    cost = now.changes["strategies"]["chunked"]["cost"]
    assert (cost["previous"], cost["current"], cost["percent"]) == (0.0, pytest.approx(0.001), None)
    assert cost["delta"] == pytest.approx(0.001)
    alert, = now.alerts.all()
    assert alert.kind == "cost_up" and alert.message.startswith(
        "Ask every chunk costs more than in 2026-Q3, when it cost nothing: $0 → $0.001 for the workload")
