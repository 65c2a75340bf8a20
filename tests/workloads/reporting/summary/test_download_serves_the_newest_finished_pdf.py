"""GET runs/<pk>/summary.pdf serves the newest done summary as a named PDF attachment, and 404 before there is one."""

from django.urls import reverse

from tests.workloads.reporting.summary.conftest import done_summary
from workloads.models import Summary


def test_it_is_404_until_a_summary_is_done(alice_client, this_quarter):
    url = reverse("summary_download", args=[this_quarter.pk])
    assert alice_client.get(url).status_code == 404

    Summary.objects.create(run=this_quarter)  # queued
    Summary.objects.create(run=this_quarter, status=Summary.Status.FAILED, error="boom")
    assert alice_client.get(url).status_code == 404


def test_it_serves_the_newest_done_summary_even_while_another_is_being_made(alice_client, this_quarter):
    done_summary(this_quarter, b"%PDF-1.7 the first export")
    done_summary(this_quarter, b"%PDF-1.7 the second export")
    Summary.objects.create(run=this_quarter, status=Summary.Status.RUNNING)

    response = alice_client.get(reverse("summary_download", args=[this_quarter.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == (
        f'attachment; filename="costplanner-supplier-contracts-2027-Q1-run{this_quarter.pk}.pdf"')
    assert response.content == b"%PDF-1.7 the second export"
