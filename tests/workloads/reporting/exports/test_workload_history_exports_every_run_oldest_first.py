"""A workload's history: every run, oldest first, in the run export's shape without the probe answers."""

import datetime as dt

from django.urls import reverse

from tests.workloads.pages.conftest import make_run
from tests.workloads.reporting.exports.conftest import strict_json
from workloads.models import ComparisonRun


def test_it_downloads_the_history_as_a_json_file(alice_client, workload, finished_run):
    response = alice_client.get(reverse("workload_history_json", args=[workload.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="workload-{workload.pk}-history.json"'


def test_it_lists_every_run_oldest_first_in_the_run_exports_shape(alice_client, workload, previous_run, finished_run):
    queued = make_run(workload, status=ComparisonRun.Status.QUEUED,
                      created_at=dt.datetime(2026, 6, 1, tzinfo=dt.timezone.utc))

    history = strict_json(alice_client.get(reverse("workload_history_json", args=[workload.pk])))

    assert history["workload"]["id"] == workload.pk and history["workload"]["name"] == "Supplier contracts"
    assert [(r["id"], r["period"]) for r in history["runs"]] == [
        (previous_run.pk, "2026-Q1"), (finished_run.pk, "2026-Q2"), (queued.pk, "2026-Q2")]
    full = strict_json(alice_client.get(reverse("run_export_json", args=[finished_run.pk])))
    for result in full["run"]["results"]:
        del result["answers"]
    assert history["runs"][1] == full["run"]
    assert history["workload"] == full["workload"]


def test_it_leaves_the_probe_answers_out(alice_client, workload, finished_run):
    history = strict_json(alice_client.get(reverse("workload_history_json", args=[workload.pk])))

    assert all("answers" not in result for run in history["runs"] for result in run["results"])


def test_a_workload_without_runs_has_an_empty_history(alice_client, workload):
    history = strict_json(alice_client.get(reverse("workload_history_json", args=[workload.pk])))

    assert history["runs"] == [] and history["workload"]["id"] == workload.pk


def test_the_history_csv_is_the_runs_csv(alice_client, workload, finished_run, previous_run):
    history = alice_client.get(reverse("workload_history_csv", args=[workload.pk]))
    runs = alice_client.get(reverse("runs_csv", args=[workload.pk]))

    assert history.status_code == 200 and history["Content-Type"] == "text/csv; charset=utf-8"
    assert history.content == runs.content
    assert history.content.decode().count(f"\r\n{previous_run.pk},") == 4
