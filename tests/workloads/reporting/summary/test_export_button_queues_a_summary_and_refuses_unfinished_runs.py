"""POST runs/<pk>/summary/ makes a queued Summary and queues its task on commit; only a succeeded run may."""

from django.urls import reverse

from tests.workloads.pages.conftest import html
from tests.workloads.reporting.summary.conftest import make_run
from workloads.models import ComparisonRun, Summary


def test_it_queues_a_summary_and_returns_to_the_run_page(alice_client, alice, this_quarter,
                                                          django_capture_on_commit_callbacks):
    url = reverse("summary_create", args=[this_quarter.pk])

    with django_capture_on_commit_callbacks() as callbacks:
        response = alice_client.post(url)

    assert response.status_code == 302 and response["Location"] == reverse("run_detail", args=[this_quarter.pk])
    summary = Summary.objects.get(run=this_quarter)
    assert (summary.status, summary.requested_by, summary.pdf, summary.pages) == (Summary.Status.QUEUED, alice, None, 0)
    assert len(callbacks) == 1  # the task is sent once the row is committed, never before


def test_exporting_again_makes_a_new_summary_once_the_last_is_done(alice_client, this_quarter):
    url = reverse("summary_create", args=[this_quarter.pk])
    alice_client.post(url)
    this_quarter.summaries.update(status=Summary.Status.DONE)
    alice_client.post(url)

    assert this_quarter.summaries.count() == 2


def test_an_export_while_one_is_queued_or_running_is_refused(alice_client, as_alice, this_quarter):
    url = reverse("summary_create", args=[this_quarter.pk])
    alice_client.post(url)

    response = alice_client.post(url, follow=True)  # a double click
    assert (f"an export of run {this_quarter.pk} is already queued: its PDF will appear on the run&#x27;s page when "
            "it is ready") in html(response)
    this_quarter.summaries.update(status=Summary.Status.RUNNING)
    response = as_alice.post(f"/runs/{this_quarter.pk}/summary")
    assert response.status_code == 409 and "is already running" in response.json()["detail"]
    assert this_quarter.summaries.count() == 1

    # One still queued an hour on has most likely lost its message: it no longer blocks a new export.
    this_quarter.summaries.update(status=Summary.Status.QUEUED, created_at="2020-01-01T00:00:00Z")
    assert as_alice.post(f"/runs/{this_quarter.pk}/summary").status_code == 202


def test_a_run_that_did_not_succeed_is_refused_with_a_message(alice_client, workload):
    run = make_run(workload, status=ComparisonRun.Status.RUNNING)

    response = alice_client.post(reverse("summary_create", args=[run.pk]), follow=True)

    assert f"run {run.pk} is running: only a succeeded run has a summary to export" in html(response)
    assert not Summary.objects.exists()
