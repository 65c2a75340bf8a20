"""The workload's runs download as CSV in the browser session, one row per run and strategy."""

import csv
import io

from django.urls import reverse

from tests.workloads.pages.conftest import make_run, standard_report


def test_runs_csv_downloads_the_workloads_runs(alice_client, workload, probe, prices):
    run = make_run(workload, standard_report(probe))
    response = alice_client.get(reverse("runs_csv", args=[workload.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="workload-{workload.pk}-runs.csv"'
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert {(r["run_id"], r["strategy"]) for r in rows} == {
        (str(run.pk), s) for s in ("full_index_share", "full_dense", "chunked", "full_sliding_window")}
    assert f'href="{reverse("runs_csv", args=[workload.pk])}"' in alice_client.get(
        reverse("workload_detail", args=[workload.pk])).content.decode()
