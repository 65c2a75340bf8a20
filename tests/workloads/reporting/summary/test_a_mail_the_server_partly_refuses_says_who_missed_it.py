"""A mail server may take some recipients and refuse others. Django's SMTP backend drops those refusals, so a
mail would read "sent" to everyone; ours keeps them: the row records who got it, a later try goes to the others
only, and the run page and the dashboard name who never got it."""

import os
import subprocess
import sys

import pytest
from django.urls import reverse

from tests.workloads.live import ROOT
from tests.workloads.reporting.summary.conftest import SMTP_BACKEND, done_summary
from workloads.models import SummaryEmail
from workloads.reporting.summary import mail
from workloads.tasks import email_summary

CFO, OPS = "cfo@acme.example", "ops@acme.example"


@pytest.fixture
def recipients(acme):
    acme.summary_recipients = f"{CFO}\n{OPS}"
    acme.save()


def sent_by_task(this_quarter) -> SummaryEmail:
    email = mail.request_email(done_summary(this_quarter), None)
    email_summary.apply(args=[email.pk])  # eagerly: retries run at once instead of after their delays
    email.refresh_from_db()
    return email


def test_a_recipient_refused_for_good_is_named_and_the_others_got_it(mail_settings, recipients, this_quarter):
    mail_settings.refusals = [None, "550 5.1.1 no such user here"]

    email = sent_by_task(this_quarter)

    assert email.status == SummaryEmail.Status.PARTIAL and email.finished_at is not None
    assert email.delivered_addresses == [CFO] and email.missed == [OPS] and email.undelivered == []
    assert email.error == f"the mail server refused {OPS} (550 5.1.1 no such user here)"
    (envelope, message), = mail_settings.received  # a final answer: not tried again
    assert envelope == [CFO] and message["To"] == f"{CFO}, {OPS}"


def test_a_recipient_told_to_try_later_gets_it_on_a_retry_that_goes_to_them_alone(
        mail_settings, recipients, this_quarter):
    mail_settings.refusals = [None, "451 4.7.1 greylisted, try again later"]

    email = sent_by_task(this_quarter)

    assert email.status == SummaryEmail.Status.SENT and email.error == ""
    assert email.delivered_addresses == [CFO, OPS] and email.undelivered == []
    (first, _), (second, message) = mail_settings.received
    assert first == [CFO] and second == [OPS] and message["To"] == OPS  # the CFO is not mailed twice


def test_a_retry_that_is_refused_too_leaves_the_mail_partly_sent(mail_settings, recipients, this_quarter):
    mail_settings.refusals = [None, "451 4.7.1 greylisted", "550 5.1.1 gone for good"]

    email = sent_by_task(this_quarter)

    assert email.status == SummaryEmail.Status.PARTIAL and email.delivered_addresses == [CFO]
    assert email.error == f"the mail server refused {OPS} (550 5.1.1 gone for good)"
    assert [envelope for envelope, _ in mail_settings.received] == [[CFO]]


def test_only_those_told_to_try_later_are_tried_again_not_those_refused_for_good(mail_settings, this_quarter):
    organisation = this_quarter.workload.organisation
    organisation.summary_recipients = f"{CFO}\nnobody@acme.example\n{OPS}"
    organisation.save()
    mail_settings.refusals = [None, "550 5.1.1 no such user", "451 4.7.1 greylisted"]

    email = sent_by_task(this_quarter)

    assert email.status == SummaryEmail.Status.PARTIAL
    assert email.delivered_addresses == [CFO, OPS] and email.missed == ["nobody@acme.example"]
    assert email.error == "the mail server refused nobody@acme.example (550 5.1.1 no such user)"
    assert [envelope for envelope, _ in mail_settings.received] == [[CFO], [OPS]]  # nobody@ was not tried again


def test_the_run_page_and_the_dashboard_name_who_did_not_get_it(alice_client, recipients, this_quarter):
    email = SummaryEmail.objects.create(summary=done_summary(this_quarter), recipients=f"{CFO}\n{OPS}",
                                        delivered=CFO, status="queued",
                                        error=f"trying again in 60 s: the mail server refused {OPS} (451 greylisted)")
    run_page = reverse("run_detail", args=[this_quarter.pk])
    assert (f"Being e-mailed to {OPS}, already sent to {CFO} (trying again in 60 s: the mail server refused {OPS} "
            "(451 greylisted)).") in alice_client.get(run_page).content.decode()

    SummaryEmail.objects.filter(pk=email.pk).update(status="partial", finished_at="2027-01-01T06:12:00Z",
                                                    error=f"the mail server refused {OPS} (550 no such user)")
    assert (f"E-mailed to {CFO} on 1 Jan 2027 06:12 by the schedule; not to {OPS}: the mail server refused {OPS} "
            "(550 no such user)") in alice_client.get(run_page).content.decode()
    assert (f"did not reach {OPS} (the mail server refused {OPS} (550 no such user))."
            in alice_client.get(reverse("dashboard")).content.decode())


def test_an_smtp_email_url_sends_through_the_backend_that_keeps_refusals():
    script = "import django; django.setup(); from django.conf import settings; print(settings.EMAIL_BACKEND)"
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60,
                            env={**os.environ, "DJANGO_SETTINGS_MODULE": "costplanner.settings",
                                 "EMAIL_URL": "smtp+tls://user:secret@mail.acme.example:587"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == SMTP_BACKEND
