"""Cancelling is a POST that marks a queued or running run cancelled, and leaves a finished one alone."""

from django.urls import reverse

from tests.workloads.pages.conftest import make_run, standard_report
from workloads.models import ComparisonRun


def test_cancel_marks_a_queued_run_cancelled(alice_client, workload):
    run = make_run(workload, status=ComparisonRun.Status.QUEUED)
    url = reverse("run_cancel", args=[run.pk])
    assert alice_client.get(url).status_code == 405

    response = alice_client.post(url, follow=True)
    run.refresh_from_db()
    assert run.status == ComparisonRun.Status.CANCELLED and run.finished_at is not None
    page = response.content.decode()
    assert "Cancelled." in page and "Cancel the comparison" not in page and "<progress" not in page


def test_cancel_leaves_a_finished_run_alone(alice_client, workload, probe, prices):
    run = make_run(workload, standard_report(probe))
    response = alice_client.post(reverse("run_cancel", args=[run.pk]), follow=True)
    run.refresh_from_db()
    assert run.status == ComparisonRun.Status.SUCCEEDED
    assert "had already finished" in response.content.decode()
