"""A scheduled run of the real model is compared with the previous period's run: its Δs and alerts follow its rows,
and its PDF summary is queued."""

import datetime as dt

import pytest
from django.utils import timezone

from tests.workloads.pages.conftest import answer, make_run, report, strategy
from workloads.models import Alert, ComparisonRun, Summary
from workloads.tasks import run_comparison, scheduled_comparison

pytestmark = pytest.mark.model

STRATEGIES = ["chunked", "full_index_share"]


@pytest.fixture
def ready_workload(ready_workload):
    """The conftest's, scheduled with these run settings."""
    workload = ready_workload
    workload.run_settings = {"strategies": STRATEGIES, "chunk_tokens": 64, "chunk_overlap": 8}
    workload.save(update_fields=["run_settings"])
    return workload


@pytest.fixture
def previous(ready_workload):
    """Last period's run: a millisecond of CPU per strategy, so any real run costs more, and every probe right."""
    probes = list(ready_workload.probes.all())
    the_report = report({name: strategy("dense" if name == "chunked" else "index_share", seconds=0.001, accuracy=1.0,
                                        answers=[answer(p, p.answer, True) for p in probes])
                         for name in STRATEGIES})
    # A hundred days back is always an earlier quarter, whatever day the test runs.
    return make_run(ready_workload, the_report, created_at=timezone.now() - dt.timedelta(days=100), units_of_work=1)


def expected_alerts(workload, before: dict, now: dict) -> set[tuple[str, str]]:
    """What the workload's thresholds imply for two runs' result rows: past a threshold, not at it."""
    found = set()
    for name in STRATEGIES:
        old, new = before[name], now[name]
        if (new.device_dollars / old.device_dollars - 1) * 100 > workload.alert_cost_percent:
            found.add((Alert.Kind.COST_UP, name))
        if (old.accuracy - new.accuracy) * 100 > workload.alert_accuracy_points:
            found.add((Alert.Kind.ACCURACY_DOWN, name))
        if new.gated != old.gated:
            found.add((Alert.Kind.NOW_GATED if new.gated else Alert.Kind.NO_LONGER_GATED, name))
    return found


def test_a_scheduled_run_records_its_deltas_and_alerts(ready_workload, previous, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        scheduled_comparison(ready_workload.pk)
    assert len(callbacks) == 1
    run = ComparisonRun.objects.get(trigger=ComparisonRun.Trigger.SCHEDULED)
    assert run.period != previous.period
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        run_comparison(run.pk)
    run.refresh_from_db()

    assert run.status == ComparisonRun.Status.SUCCEEDED, run.error
    # The manager's PDF for the period is queued as soon as the scheduled run is priced.
    assert [s.status for s in run.summaries.all()] == [Summary.Status.QUEUED] and len(callbacks) == 1
    assert run.previous_run == previous
    assert (run.changes["previous_run"], run.changes["previous_period"], run.changes["unit"]) == (
        previous.pk, previous.period, "contract")

    before = {r.strategy: r for r in previous.results.select_related("run")}
    now = {r.strategy: r for r in run.results.select_related("run")}
    changes = run.changes["strategies"]
    assert set(changes) == set(STRATEGIES)
    for name in STRATEGIES:
        old, new, change = before[name], now[name], changes[name]
        assert new.device_dollars > old.device_dollars > 0
        assert change["cost"]["previous"] == pytest.approx(old.device_dollars)
        assert change["cost"]["current"] == pytest.approx(new.device_dollars)
        assert change["cost"]["delta"] == pytest.approx(new.device_dollars - old.device_dollars)
        assert change["cost"]["percent"] == pytest.approx((new.device_dollars / old.device_dollars - 1) * 100)
        assert change["unit_cost"]["previous"] == pytest.approx(old.device_dollars / previous.units_of_work)
        assert change["unit_cost"]["current"] == pytest.approx(new.device_dollars / run.units_of_work)
        assert change["unit_cost"]["delta"] == pytest.approx(
            new.device_dollars / run.units_of_work - old.device_dollars / previous.units_of_work)
        assert change["accuracy"]["previous"] == old.accuracy == 1.0
        assert change["accuracy"]["current"] == pytest.approx(new.accuracy)
        assert change["accuracy"]["delta_points"] == pytest.approx((new.accuracy - old.accuracy) * 100)
        assert change["gated"] == {"previous": old.gated, "current": new.gated}

    alerts = list(run.alerts.all())
    assert {(a.kind, a.strategy) for a in alerts} == expected_alerts(ready_workload, before, now)
    assert {(Alert.Kind.COST_UP, name) for name in STRATEGIES} <= {(a.kind, a.strategy) for a in alerts}
    assert all(a.previous_run == previous and previous.period in a.message for a in alerts)
