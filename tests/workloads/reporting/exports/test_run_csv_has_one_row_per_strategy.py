"""A run as CSV: the runs CSV's columns, one row per strategy of that run only, safe to open in a spreadsheet."""

from django.urls import reverse

from tests.workloads.conftest import csv_rows
from tests.workloads.pages.conftest import make_run
from workloads.models import ComparisonRun


def test_it_gives_one_row_per_strategy_of_the_run(alice_client, finished_run, previous_run):
    response = alice_client.get(reverse("run_export_csv", args=[finished_run.pk]))

    rows = csv_rows(response)
    assert response["Content-Disposition"] == f'attachment; filename="run-{finished_run.pk}.csv"'
    assert [(r["run_id"], r["strategy"]) for r in rows] == [
        (str(finished_run.pk), s) for s in ("full_index_share", "full_dense", "chunked", "full_sliding_window")]
    index_share = finished_run.results.get(strategy="full_index_share")
    assert float(rows[0]["device_dollars"]) == index_share.device_dollars
    assert float(rows[0]["unit_device_dollars"]) == index_share.unit_device_dollars
    assert (rows[0]["gpu_price_per_hour"], rows[0]["gpu_price_effective_from"]) == ("0.1000", "2026-01-01")
    assert rows[3]["refused"] == "longer than the model's 8192 positions" and rows[3]["device_dollars"] == ""


def test_a_run_without_results_gets_one_row(alice_client, workload):
    run = make_run(workload, status=ComparisonRun.Status.FAILED, error="out of memory")

    [row] = csv_rows(alice_client.get(reverse("run_export_csv", args=[run.pk])))

    assert (row["run_id"], row["status"], row["strategy"], row["error"]) == (str(run.pk), "failed", "", "out of memory")


def test_it_neutralises_formulas_in_user_text(alice_client, workload, finished_run):
    workload.name = '=HYPERLINK("http://evil.example","click")'
    workload.save()
    ComparisonRun.objects.filter(pk=finished_run.pk).update(error="+cmd|' /C calc'!A0")

    row = csv_rows(alice_client.get(reverse("run_export_csv", args=[finished_run.pk])))[0]

    assert row["workload"] == "'" + workload.name
    assert row["error"] == "'+cmd|' /C calc'!A0"
