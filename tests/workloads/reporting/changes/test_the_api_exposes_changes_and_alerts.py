"""GET /api/runs/{id} includes the run's changes since the previous period's run and its alerts."""

from tests.workloads.api.conftest import Api
from workloads.models import ApiToken

from .conftest import Q3, Q4, run_at


def test_the_run_carries_its_changes_and_alerts(client, alice, workload, probe, prices):
    before = run_at(workload, probe, Q3, chunked={"seconds": 36})
    now = run_at(workload, probe, Q4, chunked={"seconds": 72})
    now.refresh_from_db()

    body = Api(client, ApiToken.issue(alice)).get(f"/runs/{now.pk}").json()

    assert body["changes"] == now.changes
    assert body["changes"]["previous_run"] == before.pk
    assert body["changes"]["strategies"]["chunked"]["cost"] == {"previous": 0.001, "current": 0.002, "delta": 0.001,
                                                                "percent": 100.0, "beyond_spread": True}
    assert body["alerts"] == [{"kind": "cost_up", "strategy": "chunked", "message": now.alerts.get().message}]


def test_a_first_run_has_empty_changes_and_no_alerts(client, alice, workload, probe, prices):
    first = run_at(workload, probe, Q3, chunked={"seconds": 36})

    body = Api(client, ApiToken.issue(alice)).get(f"/runs/{first.pk}").json()

    assert (body["changes"], body["alerts"]) == ({}, [])


def test_the_openapi_schema_describes_them(client, db):
    schemas = client.get("/api/openapi.json").json()["components"]["schemas"]

    run = schemas["RunDetailOut"]["properties"]
    assert "previous period's run" in run["changes"]["description"]
    assert run["alerts"]["items"] == {"$ref": "#/components/schemas/AlertOut"}
    assert schemas["AlertOut"]["properties"]["kind"]["enum"] == ["cost_up", "accuracy_down", "now_gated",
                                                                  "no_longer_gated"]
