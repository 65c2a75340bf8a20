"""A PDF summary still queued or running is cancelled from the run's page or the API, as runs, uploads and sweeps
are: it keeps no PDF and mails none; with none to cancel, the page says so and the API answers 409."""

from django.urls import reverse

from tests.workloads.pages.conftest import html
from tests.workloads.reporting.summary.conftest import done_summary
from workloads.models import Summary
from workloads.tasks import export_summary


def test_a_member_cancels_a_queued_export_from_the_run_page(alice_client, this_quarter):
    older = done_summary(this_quarter)
    pending = Summary.objects.create(run=this_quarter)
    url = reverse("summary_cancel", args=[this_quarter.pk])
    page = html(alice_client.get(reverse("run_detail", args=[this_quarter.pk])))
    assert f'action="{url}"' in page and "Cancel the export" in page

    response = alice_client.post(url, follow=True)

    page = html(response)
    assert "Export cancelled: no PDF is kept from it, and none is mailed." in page
    assert "The last export was cancelled." in page and "Cancel the export" not in page
    assert "Download the PDF summary" in page  # the older PDF is still served
    pending.refresh_from_db()
    assert pending.status == "cancelled" and pending.finished_at is not None
    assert alice_client.get(reverse("summary_status", args=[this_quarter.pk])).json()["finished"] is True
    export_summary(pending.pk)  # its message, delivered after the cancel: nothing to do
    pending.refresh_from_db()
    assert (pending.status, pending.pdf, pending.started_at) == ("cancelled", None, None)
    assert Summary.objects.get(pk=older.pk).status == "done"


def test_with_no_export_under_way_there_is_nothing_to_cancel(alice_client, this_quarter):
    done = done_summary(this_quarter)
    assert "Cancel the export" not in html(alice_client.get(reverse("run_detail", args=[this_quarter.pk])))

    response = alice_client.post(reverse("summary_cancel", args=[this_quarter.pk]), follow=True)

    assert "No export of this run was queued or running, so there was nothing to cancel." in html(response)
    assert Summary.objects.get(pk=done.pk).status == "done"


def test_a_viewer_cannot_cancel_an_export(client, vera, this_quarter):
    pending = Summary.objects.create(run=this_quarter)
    client.force_login(vera)
    assert "Cancel the export" not in html(client.get(reverse("run_detail", args=[this_quarter.pk])))

    assert client.post(reverse("summary_cancel", args=[this_quarter.pk])).status_code == 403
    assert Summary.objects.get(pk=pending.pk).status == "queued"


def test_the_api_cancels_a_running_export_and_answers_409_with_none(as_alice, as_charlie, this_quarter):
    running = Summary.objects.create(run=this_quarter, status="running")
    assert as_charlie.post(f"/runs/{this_quarter.pk}/summary/cancel").status_code == 404

    response = as_alice.post(f"/runs/{this_quarter.pk}/summary/cancel")

    assert (response.status_code, response.json()) == (200, {"id": running.pk, "status": "cancelled"})
    again = as_alice.post(f"/runs/{this_quarter.pk}/summary/cancel")
    assert (again.status_code, again.json()) == (
        409, {"detail": f"run {this_quarter.pk} has no PDF summary queued or running to cancel"})
    # A worker still rendering it keeps nothing: its finish is conditional on the export still running.
    assert not Summary.finish(running.pk, Summary.Status.DONE, pdf=b"%PDF", pages=3)
    assert Summary.objects.get(pk=running.pk).pdf is None
