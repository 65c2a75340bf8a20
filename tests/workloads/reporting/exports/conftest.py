"""Export test helpers: a finished run with changes and an alert, API clients per actor, and a strict JSON reader."""

import datetime as dt
import json

import pytest
from django.test import Client

from tests.workloads.api.conftest import Api
from tests.workloads.pages.conftest import make_run, standard_report
from workloads.models import Alert, ApiToken, ComparisonRun

DOCUMENTS = [{"name": "master-services-agreement.txt", "tokens": 1234, "sha256": "ab" * 32}]
CHANGES = {"previous_run": None, "previous_period": "2026-Q1", "unit": "contract", "strategies": {
    "full_index_share": {"cost": {"previous": 0.0005, "current": 0.001, "delta": 0.0005, "percent": 100.0},
                         "unit_cost": {"previous": 0.000125, "current": 0.00025, "delta": 0.000125, "percent": 100.0},
                         "accuracy": {"previous": 1.0, "current": 1.0, "delta_points": 0.0},
                         "gated": {"previous": False, "current": False}}}}


def strict_json(response) -> dict:
    """The body as JSON, refusing NaN and Infinity, which are not JSON."""
    def refuse(constant):
        raise AssertionError(f"{constant} is not JSON")
    return json.loads(response.content.decode(), parse_constant=refuse)


@pytest.fixture
def previous_run(workload, probe, prices):
    return make_run(workload, standard_report(probe, index_share_seconds=18.0),
                    created_at=dt.datetime(2026, 2, 10, 9, tzinfo=dt.timezone.utc))


@pytest.fixture
def finished_run(workload, probe, prices, previous_run, alice):
    """A scheduled run of 2026-Q2 whose changes and alert compare it with the 2026-Q1 run."""
    run = make_run(workload, standard_report(probe), created_at=dt.datetime(2026, 5, 4, 6, tzinfo=dt.timezone.utc),
                   trigger=ComparisonRun.Trigger.SCHEDULED, created_by=alice, started_at=dt.datetime(
                       2026, 5, 4, 6, 1, tzinfo=dt.timezone.utc))
    # Written here, not by workloads.reporting.changes, so that these tests read exactly the rows they check against.
    ComparisonRun.objects.filter(pk=run.pk).update(previous_run=previous_run,
                                                   changes=CHANGES | {"previous_run": previous_run.pk},
                                                   documents=DOCUMENTS)
    Alert.objects.filter(run=run).delete()
    Alert.objects.create(run=run, previous_run=previous_run, kind=Alert.Kind.COST_UP, strategy="full_index_share",
                         message="Full context with Index Share cost $0.001, up 100% from $0.0005 in 2026-Q1.")
    run.refresh_from_db()
    return run


@pytest.fixture
def as_alice(alice):
    return Api(Client(), ApiToken.issue(alice))


@pytest.fixture
def as_charlie(charlie):
    return Api(Client(), ApiToken.issue(charlie))
