"""The schedule's PDF summary reaches the managers' inboxes: a real worker renders it and sends it to a real
SMTP server, with the decision, the alerts and the PDF itself. A refusing or absent mail server is recorded,
and a mail is sent once however often its task is delivered."""

import pytest
from django.core.exceptions import ValidationError

from tests.workloads.live import wait_for
from tests.workloads.reporting.summary.conftest import SMTP_BACKEND, attachments, done_summary, free_port
from workloads.models import ComparisonRun, Summary, SummaryEmail
from workloads.reporting.recommendation import decision, monthly
from workloads.reporting.summary import mail
from workloads.reporting.summary.pdf_exports import filename, request_summary
from workloads.tasks import email_summary

RECIPIENTS = "cfo@acme.example\nops@acme.example"


@pytest.fixture
def worker_env(mailbox):
    return {"EMAIL_URL": mailbox.url, "DEFAULT_FROM_EMAIL": "costplanner <reports@acme.example>"}


@pytest.fixture
def recipients(acme):
    acme.summary_recipients = RECIPIENTS
    acme.save()
    return RECIPIENTS.splitlines()


def scheduled(run: ComparisonRun) -> ComparisonRun:
    ComparisonRun.objects.filter(pk=run.pk).update(trigger=ComparisonRun.Trigger.SCHEDULED)
    run.refresh_from_db()
    return run


def _sent(summary: Summary) -> SummaryEmail | None:
    email = summary.emails.first()
    return email if email and email.status in (SummaryEmail.Status.SENT, SummaryEmail.Status.FAILED) else None


@pytest.mark.worker
def test_the_schedules_own_pdf_is_rendered_and_mailed_by_a_worker(celery_worker, mailbox, recipients, this_quarter):
    run = scheduled(this_quarter)
    summary = request_summary(run, None)  # as run_comparison asks for it when a scheduled run succeeds

    email = wait_for(lambda: _sent(summary), 300, "the summary to be rendered and mailed", every=0.5)

    assert email.status == SummaryEmail.Status.SENT, email.error or celery_worker.read_text()[-3000:]
    assert email.requested_by is None and email.addresses == recipients
    (envelope, message), = mailbox.received
    assert envelope == recipients and message["To"] == ", ".join(recipients)
    assert message["From"] == "costplanner <reports@acme.example>"
    assert message["Subject"] == f"Supplier contracts: {run.period} cost and quality summary"
    body = message.get_body(("plain",)).get_content()
    assert decision(run) in " ".join(body.split()) and monthly(run) in " ".join(body.split())
    alert = run.alerts.get()  # Index Share's cost rose 20% since last quarter
    assert f"- {alert.message}" in body
    assert f"http://127.0.0.1:8000/runs/{run.pk}/" in body
    summary.refresh_from_db()
    assert attachments(message) == [(filename(summary), "application/pdf", bytes(summary.pdf))]


def test_only_the_schedules_own_export_of_a_scheduled_run_mails_itself(recipients, this_quarter, alice):
    assert not mail.mails_itself(done_summary(this_quarter))  # a run started by hand
    run = scheduled(this_quarter)
    assert mail.mails_itself(done_summary(run))
    assert not mail.mails_itself(Summary.objects.create(run=run, status="done", requested_by=alice))
    run.workload.organisation.summary_recipients = ""
    assert not mail.mails_itself(done_summary(run))


def test_it_sends_to_the_addresses_as_they_were_queued_once_however_often_delivered(
        mail_settings, recipients, this_quarter):
    summary = done_summary(this_quarter, pdf=b"%PDF-1.7 the stored bytes")
    email = mail.request_email(summary, None)
    this_quarter.workload.organisation.summary_recipients = "someone-else@acme.example"
    this_quarter.workload.organisation.save()

    email_summary(email.pk)
    email_summary(email.pk)  # delivered again

    email.refresh_from_db()
    assert email.status == SummaryEmail.Status.SENT and email.error == ""
    assert email.started_at <= email.finished_at
    (envelope, message), = mail_settings.received
    assert envelope == recipients
    assert attachments(message) == [(filename(summary), "application/pdf", b"%PDF-1.7 the stored bytes")]


def test_a_mail_server_that_refuses_the_recipients_fails_the_email_with_its_answer(
        mail_settings, recipients, this_quarter):
    mail_settings.refusals = ["550 5.1.1 mailbox unavailable"] * 2
    email = mail.request_email(done_summary(this_quarter), None)

    email_summary.apply(args=[email.pk])  # a final answer: not tried again

    email.refresh_from_db()
    assert email.status == SummaryEmail.Status.FAILED and email.finished_at is not None
    assert email.error == ("the mail server refused cfo@acme.example (550 5.1.1 mailbox unavailable); "
                           "ops@acme.example (550 5.1.1 mailbox unavailable)")
    assert mail_settings.received == [] and mail_settings.refusals == []


def test_a_server_that_says_try_again_later_gets_the_mail_on_a_later_try(mail_settings, this_quarter):
    organisation = this_quarter.workload.organisation
    organisation.summary_recipients = "cfo@acme.example"  # one recipient: a refusal is then the whole mail's
    organisation.save()
    mail_settings.refusals = ["451 4.3.0 try again later"] * 2
    email = mail.request_email(done_summary(this_quarter), None)

    email_summary.apply(args=[email.pk])  # eagerly: the retries run at once instead of after their delays

    email.refresh_from_db()
    assert email.status == SummaryEmail.Status.SENT and email.error == ""
    (envelope, _), = mail_settings.received
    assert envelope == ["cfo@acme.example"] and mail_settings.refusals == []


def test_no_mail_server_listening_fails_the_email(settings, recipients, this_quarter):
    settings.EMAIL_BACKEND = SMTP_BACKEND
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", free_port()
    email = mail.request_email(done_summary(this_quarter), None)

    email_summary.apply(args=[email.pk])  # tried 1 + 3 times, at once

    email.refresh_from_db()
    assert email.status == SummaryEmail.Status.FAILED
    assert email.error.startswith("the mail server did not take it: [Errno 111]")


def test_a_workload_name_cannot_break_the_subject_header(recipients, this_quarter):
    this_quarter.workload.name = "Supplier\r\nBcc: spy@evil.example contracts"
    this_quarter.workload.save()

    email = mail.request_email(done_summary(this_quarter), None)
    message = mail.message(email, email.addresses)

    period = this_quarter.period
    assert message.subject == f"Supplier Bcc: spy@evil.example contracts: {period} cost and quality summary"
    assert message.recipients() == recipients


@pytest.mark.parametrize("status", ["queued", "running", "failed"])
def test_only_a_finished_summary_is_mailed(recipients, this_quarter, status):
    summary = Summary.objects.create(run=this_quarter, status=status)
    with pytest.raises(ValidationError, match=f"summary {summary.pk} is {status}: only a finished PDF"):
        mail.request_email(summary, None)
    assert not SummaryEmail.objects.exists()


def test_nobody_to_mail_is_refused(this_quarter):
    with pytest.raises(ValidationError, match="nobody to e-mail: add the managers' addresses"):
        mail.request_email(done_summary(this_quarter), None)
    assert not SummaryEmail.objects.exists()
