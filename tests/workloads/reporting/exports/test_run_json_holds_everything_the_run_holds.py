"""A run as JSON: its workload, settings, period, prices used, every result with unit costs,
answers, changes, alerts."""

import pytest
from django.urls import reverse

from tests.workloads.pages.conftest import VERSIONS, make_run, standard_report
from tests.workloads.reporting.exports.conftest import DOCUMENTS, strict_json
from workloads.models import ComparisonRun, GpuPrice
from workloads.reporting.data_exports import COLUMNS

RESULT_FIELDS = COLUMNS[COLUMNS.index("strategy"):COLUMNS.index("gpu_price_per_hour")]


def test_it_downloads_the_run_as_a_json_file(alice_client, finished_run):
    response = alice_client.get(reverse("run_export_json", args=[finished_run.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="run-{finished_run.pk}.json"'


def test_it_holds_the_workload_and_the_run_as_the_database_has_them(alice_client, workload, finished_run, prices):
    export = strict_json(alice_client.get(reverse("run_export_json", args=[finished_run.pk])))
    run = export["run"]

    assert export["workload"] == {
        "id": workload.pk, "organisation": "Acme", "name": "Supplier contracts", "kind": "contracts",
        "unit": "contract", "description": "", "expected_volume": 40, "target_model": workload.target_model,
        "api_provider": "example-api", "api_model": workload.target_model, "schedule": workload.schedule,
        "created_at": workload.created_at.isoformat()}
    assert (run["id"], run["workload_id"], run["trigger"], run["period"], run["period_start"]) == (
        finished_run.pk, workload.pk, "scheduled", "2026-Q2", "2026-04-01")
    assert (run["status"], run["error"], run["created_by"]) == ("succeeded", "", "alice")
    assert run["created_at"] == "2026-05-04T06:00:00+00:00" and run["started_at"] == "2026-05-04T06:01:00+00:00"
    assert run["finished_at"] == finished_run.finished_at.isoformat()
    assert run["priced_at"] == finished_run.priced_at.isoformat()
    assert (run["device"], run["model"], run["versions"]) == ("cpu", finished_run.model, VERSIONS)
    assert run["strategies"] == ["full_index_share", "full_dense", "chunked", "full_sliding_window"]
    assert run["settings"] == {"group_size": 4, "window": 256, "topk": 256, "global_blocks": 2,
                               "indexer": "pooled_mass", "anchors": "workload", "chunk_tokens": 512,
                               "chunk_overlap": 64, "gate_points": 5.0,
                               "retrieval_chunks": 0, "retrieval_tokens": 1536}
    assert run["units_of_work"] == 4
    assert run["documents"] == DOCUMENTS


def test_it_gives_the_prices_used_as_numbers_with_their_dates_and_sources(alice_client, finished_run, prices):
    run = strict_json(alice_client.get(reverse("run_export_json", args=[finished_run.pk])))["run"]

    assert run["prices"] == {
        "gpu": {"id": prices["cpu"].pk, "device_class": "cpu", "per_hour": 0.1, "effective_from": "2026-01-01",
                "source": "test: a 2-core cloud VM"},
        "api": {"id": prices["api"].pk, "provider": "example-api", "model": finished_run.model,
                "input_per_mtok": 0.1, "cached_input_per_mtok": None, "output_per_mtok": 0.3,
                "effective_from": "2026-01-01",
                "source": "test: an API price page"}}
    assert run["pricing_error"] == ""


def test_it_gives_every_strategys_columns_with_unit_costs_and_answers(alice_client, finished_run, probe):
    run = strict_json(alice_client.get(reverse("run_export_json", args=[finished_run.pk])))["run"]

    rows = list(finished_run.results.all())
    assert [r["strategy"] for r in run["results"]] == [row.strategy for row in rows]
    for exported, row in zip(run["results"], rows, strict=True):
        assert {name: exported[name] for name in RESULT_FIELDS} == {name: getattr(row, name) for name in RESULT_FIELDS}
    index_share = run["results"][0]
    assert index_share["device_dollars"] == pytest.approx(36 / 3600 * 0.1)
    assert index_share["unit_device_dollars"] == pytest.approx(36 / 3600 * 0.1 / 4)
    assert (index_share["flops_indexer"], index_share["top1_agreement"], index_share["gated"]) == (5e10, 0.97, False)
    assert index_share["answers"] == [{"probe_id": probe.pk, "question": "What is the notice period?",
                                       "expected": "90 days", "kind": "user", "output": "90 days", "correct": True}]
    refused = run["results"][3]
    assert refused["refused"] == "longer than the model's 8192 positions"
    assert (refused["device_dollars"], refused["unit_device_dollars"], refused["accuracy"]) == (None, None, None)
    assert refused["answers"] == []


def test_it_gives_the_changes_and_alerts_against_the_previous_period(alice_client, finished_run, previous_run):
    run = strict_json(alice_client.get(reverse("run_export_json", args=[finished_run.pk])))["run"]

    assert run["previous_run"] == previous_run.pk
    assert run["changes"] == finished_run.changes and run["changes"]["previous_run"] == previous_run.pk
    assert run["changes"]["strategies"]["full_index_share"]["cost"]["percent"] == 100.0
    assert run["alerts"] == [{"kind": "cost_up", "strategy": "full_index_share", "previous_run": previous_run.pk,
                              "message": "Full context with Index Share cost $0.001, up 100% from $0.0005 in 2026-Q1."}]


def test_an_unpriced_run_gives_null_dollars_and_the_reason(alice_client, workload, probe, prices):
    GpuPrice.objects.filter(device_class="H200").delete()
    run = make_run(workload, standard_report(probe, device="NVIDIA H200"))

    exported = strict_json(alice_client.get(reverse("run_export_json", args=[run.pk])))["run"]

    assert exported["pricing_error"] and exported["pricing_error"] == ComparisonRun.objects.get(pk=run.pk).pricing_error
    assert exported["prices"] == {"gpu": None, "api": None}
    assert {(r["device_dollars"], r["api_dollars"], r["unit_device_dollars"]) for r in exported["results"]} == {
        (None, None, None)}


def test_a_queued_run_exports_without_results(alice_client, workload):
    run = make_run(workload, status=ComparisonRun.Status.QUEUED)

    exported = strict_json(alice_client.get(reverse("run_export_json", args=[run.pk])))["run"]

    assert (exported["status"], exported["results"], exported["finished_at"], exported["changes"]) == (
        "queued", [], None, {})
