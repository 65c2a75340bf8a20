"""A member mails a run's newest finished PDF to the organisation's recipients, from the run page or the API;
the run page says whether and to whom it was mailed, or why it failed."""

import pytest
from django.urls import reverse

from tests.workloads.reporting.summary.conftest import done_summary
from workloads.models import Summary, SummaryEmail


@pytest.fixture
def recipients(acme):
    acme.summary_recipients = "cfo@acme.example\nops@acme.example"
    acme.save()


def run_page(client, run) -> str:
    return client.get(reverse("run_detail", args=[run.pk])).content.decode()


def test_the_button_queues_the_newest_finished_pdf(alice_client, alice, recipients, this_quarter,
                                                   django_capture_on_commit_callbacks):
    done_summary(this_quarter, b"%PDF-1.7 older")
    newest = done_summary(this_quarter, b"%PDF-1.7 newest")
    Summary.objects.create(run=this_quarter)  # an export still queued is not what is mailed
    assert "E-mail it to 2 recipients</button>" in run_page(alice_client, this_quarter)

    with django_capture_on_commit_callbacks() as callbacks:
        response = alice_client.post(reverse("summary_email", args=[this_quarter.pk]), follow=True)

    email = SummaryEmail.objects.get()
    assert email.summary == newest and email.requested_by == alice and email.status == "queued"
    assert len(callbacks) == 1
    page = response.content.decode()
    assert "E-mail queued to cfo@acme.example, ops@acme.example." in page
    assert "Being e-mailed to cfo@acme.example, ops@acme.example." in page


def test_without_a_finished_pdf_or_recipients_nothing_is_queued(alice_client, acme, this_quarter):
    response = alice_client.post(reverse("summary_email", args=[this_quarter.pk]), follow=True)
    assert "This run has no finished PDF summary to e-mail yet: export one first." in response.content.decode()

    done_summary(this_quarter)
    page = run_page(alice_client, this_quarter)
    assert "Not e-mailed yet." in page and "E-mail it to" not in page
    assert f'<a href="{reverse("organisation_edit")}">Add the managers\' addresses</a>' in page
    response = alice_client.post(reverse("summary_email", args=[this_quarter.pk]), follow=True)
    assert "nobody to e-mail: add the managers&#x27; addresses on the organisation page first" in (
        response.content.decode())
    assert not SummaryEmail.objects.exists()


def test_the_run_page_says_who_sent_it_to_whom_or_why_it_failed(alice_client, alice, recipients, this_quarter):
    summary = done_summary(this_quarter)
    email = SummaryEmail.objects.create(summary=summary, recipients="cfo@acme.example", status="sent",
                                        delivered="cfo@acme.example")
    SummaryEmail.objects.filter(pk=email.pk).update(finished_at="2027-01-01T06:12:00Z")
    assert "E-mailed to cfo@acme.example on 1 Jan 2027 06:12 by the schedule." in run_page(alice_client, this_quarter)

    retrying = SummaryEmail.objects.create(summary=summary, recipients="cfo@acme.example", status="queued",
                                           error="trying again in 60 s: [Errno 111] Connection refused")
    assert ("Being e-mailed to cfo@acme.example (trying again in 60 s: [Errno 111] Connection refused)."
            in run_page(alice_client, this_quarter))
    retrying.delete()
    SummaryEmail.objects.create(summary=summary, recipients="cfo@acme.example\nops@acme.example", requested_by=alice,
                                status="failed", error="the mail server did not take it: <550 no such user>")
    page = run_page(alice_client, this_quarter)
    assert ("E-mailing it to cfo@acme.example, ops@acme.example failed: the mail server did not take it: "
            "&lt;550 no such user&gt;") in page


def test_the_api_queues_the_email_and_answers_202(as_alice, alice, recipients, this_quarter,
                                                  django_capture_on_commit_callbacks):
    summary = done_summary(this_quarter)
    with django_capture_on_commit_callbacks() as callbacks:
        response = as_alice.post(f"/runs/{this_quarter.pk}/summary/email")

    assert response.status_code == 202
    email = SummaryEmail.objects.get()
    assert response.json() == {"id": email.pk, "status": "queued",
                               "recipients": ["cfo@acme.example", "ops@acme.example"]}
    assert email.summary == summary and email.requested_by == alice and len(callbacks) == 1


def test_the_api_answers_409_without_a_finished_pdf_or_recipients(as_alice, acme, this_quarter):
    response = as_alice.post(f"/runs/{this_quarter.pk}/summary/email")
    assert response.status_code == 409
    assert response.json()["detail"].startswith(f"run {this_quarter.pk} has no finished PDF summary to e-mail")

    done_summary(this_quarter)
    response = as_alice.post(f"/runs/{this_quarter.pk}/summary/email")
    assert response.status_code == 409
    assert response.json() == {"detail": "nobody to e-mail: add the managers' addresses on the organisation page first"}
    assert not SummaryEmail.objects.exists()


def test_the_api_is_404_to_another_organisation(as_charlie, recipients, this_quarter):
    done_summary(this_quarter)
    assert as_charlie.post(f"/runs/{this_quarter.pk}/summary/email").status_code == 404
    assert not SummaryEmail.objects.exists()


def test_the_dashboard_points_to_a_pdf_that_did_not_reach_the_managers(alice_client, recipients, this_quarter):
    summary = done_summary(this_quarter)
    SummaryEmail.objects.create(summary=summary, recipients="cfo@acme.example", status="failed",
                                error="the mail server did not take it: timed out")
    pointer = "did not reach cfo@acme.example (the mail server did not take it: timed out)."
    assert pointer in alice_client.get(reverse("dashboard")).content.decode()

    SummaryEmail.objects.create(summary=summary, recipients="cfo@acme.example", status="sent",
                                delivered="cfo@acme.example")  # mailed again
    assert "did not reach" not in alice_client.get(reverse("dashboard")).content.decode()


def test_a_pdf_already_being_mailed_is_not_queued_again(alice_client, as_alice, recipients, this_quarter):
    done_summary(this_quarter)
    alice_client.post(reverse("summary_email", args=[this_quarter.pk]))

    response = alice_client.post(reverse("summary_email", args=[this_quarter.pk]), follow=True)  # a double click
    assert "this PDF is already being e-mailed: its page says when it has gone" in response.content.decode()
    response = as_alice.post(f"/runs/{this_quarter.pk}/summary/email")
    assert response.status_code == 409 and response.json()["detail"].startswith("this PDF is already being e-mailed")
    assert SummaryEmail.objects.count() == 1


def test_members_may_ask_for_so_many_mailings_an_hour(settings, as_alice, recipients, this_quarter):
    settings.SUMMARY_EMAILS_PER_HOUR = 2
    done_summary(this_quarter)
    for _ in range(2):
        assert as_alice.post(f"/runs/{this_quarter.pk}/summary/email").status_code == 202
        SummaryEmail.objects.update(status="sent")

    response = as_alice.post(f"/runs/{this_quarter.pk}/summary/email")

    assert response.status_code == 409
    assert response.json()["detail"] == ("your organisation's members have asked for 2 summary e-mails in the last "
                                         "hour, the most allowed (SUMMARY_EMAILS_PER_HOUR = 2): try again later")
    SummaryEmail.objects.update(created_at="2020-01-01T00:00:00Z")  # an hour later, the count starts again
    assert as_alice.post(f"/runs/{this_quarter.pk}/summary/email").status_code == 202
