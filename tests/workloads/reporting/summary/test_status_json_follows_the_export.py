"""runs/<pk>/summary/status.json tells the run page's script the newest summary's state and, once done, the link."""

from django.urls import reverse

from tests.workloads.reporting.summary.conftest import done_summary
from workloads.models import Summary


def test_it_reports_no_summary_then_queued_then_done_with_the_link(alice_client, this_quarter):
    url = reverse("summary_status", args=[this_quarter.pk])
    assert alice_client.get(url).json() == {"status": None, "finished": True, "download_url": None, "error": ""}

    summary = Summary.objects.create(run=this_quarter)
    response = alice_client.get(url)
    assert response.json() == {"status": "queued", "finished": False, "pages": 0, "error": "", "download_url": None}
    assert "no-cache" in response["Cache-Control"]

    Summary.objects.filter(pk=summary.pk).update(status=Summary.Status.DONE, pdf=b"%PDF", pages=4)
    assert alice_client.get(url).json() == {
        "status": "done", "finished": True, "pages": 4, "error": "",
        "download_url": reverse("summary_download", args=[this_quarter.pk])}


def test_a_failed_export_reports_its_error_and_keeps_the_older_link(alice_client, this_quarter):
    done_summary(this_quarter)
    Summary.objects.create(run=this_quarter, status=Summary.Status.FAILED, error="internal error: out of memory")

    assert alice_client.get(reverse("summary_status", args=[this_quarter.pk])).json() == {
        "status": "failed", "finished": True, "pages": 0, "error": "internal error: out of memory",
        "download_url": reverse("summary_download", args=[this_quarter.pk])}
