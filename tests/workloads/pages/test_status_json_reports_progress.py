"""The run's status view is small JSON for the page's poller: progress, and whether the run has finished."""

from django.urls import reverse

from tests.workloads.pages.conftest import make_run


def test_status_json_reports_progress(alice_client, workload):
    run = make_run(workload, status="running", progress_done=3, progress_total=12, progress_message="full_dense: What")
    response = alice_client.get(reverse("run_status", args=[run.pk]))
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    assert response.json() == {"status": "running", "finished": False, "progress_done": 3, "progress_total": 12,
                               "progress_percent": 25, "progress_message": "full_dense: What"}

    run.status = "succeeded"
    run.save()
    assert alice_client.get(reverse("run_status", args=[run.pk])).json()["finished"] is True
