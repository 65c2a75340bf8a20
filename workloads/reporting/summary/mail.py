"""E-mailing a run's PDF summary to its organisation's recipients.

Managers do not open dashboards: the schedule's own export of a run is mailed as soon as
it is rendered, and a member can mail any finished summary again. Sending happens in the
workloads.email_summary task; this module queues it, writes the message, and decides from the mail server's
answers who got it and whether to try again later.
"""

from __future__ import annotations

import datetime as dt
import smtplib

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.core.mail.message import sanitize_address
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from workloads.models import ComparisonRun, Organisation, Summary, SummaryEmail
from workloads.reporting.recommendation import decision, monthly
from workloads.reporting.summary.pdf_exports import filename, in_flight
from workloads.workers import dispatch

# A mail server down for a restart, or answering "try again later" (4xx), gets three more tries over half an hour.
RETRY_DELAYS_S = (60, 300, 1800)


class TryAgain(Exception):
    """The mailing is queued again, to be tried in `delay` seconds; `cause` is the error that stopped this try."""

    def __init__(self, delay: int, cause: Exception | None = None):
        super().__init__(f"trying again in {delay} s")
        self.delay, self.cause = delay, cause


def request_email(summary: Summary, user) -> SummaryEmail:
    """Queue the mailing of a finished summary to its organisation's recipients as they are now.

    A person's request is refused while a mailing of the same PDF, asked for in the last hour, is still
    queued (its retries included) or being sent, and past settings.SUMMARY_EMAILS_PER_HOUR mailings asked
    for by the organisation's members in the last hour: a script in a loop must not flood the managers'
    inboxes.
    """
    if summary.status != Summary.Status.DONE:
        raise ValidationError(f"summary {summary.pk} is {summary.status}: only a finished PDF can be e-mailed")
    organisation = summary.run.workload.organisation
    recipients = organisation.recipients
    if not recipients:
        raise ValidationError("nobody to e-mail: add the managers' addresses on the organisation page first")
    person = user if user and user.is_authenticated else None
    with transaction.atomic():
        Organisation.objects.select_for_update().filter(pk=organisation.pk).exists()  # one request at a time
        if person is not None:
            _check_rate(summary, organisation)
        email = SummaryEmail.objects.create(summary=summary, recipients="\n".join(recipients), requested_by=person)
        dispatch.queue_email(email.pk)
    return email


def _check_rate(summary: Summary, organisation: Organisation) -> None:
    if in_flight(summary.emails).exists():
        raise ValidationError("this PDF is already being e-mailed: its page says when it has gone")
    limit = settings.SUMMARY_EMAILS_PER_HOUR
    recent = SummaryEmail.objects.filter(summary__run__workload__organisation=organisation, requested_by__isnull=False,
                                         created_at__gte=timezone.now() - dt.timedelta(hours=1)).count()
    if recent >= limit:
        raise ValidationError(f"your organisation's members have asked for {recent} summary e-mails in the last hour, "
                              f"the most allowed (SUMMARY_EMAILS_PER_HOUR = {limit}): try again later")


def mails_itself(summary: Summary) -> bool:
    """The schedule's own export of its run is mailed unasked, when there is anyone to mail."""
    run = summary.run
    return (summary.requested_by_id is None and run.trigger == ComparisonRun.Trigger.SCHEDULED
            and bool(run.workload.organisation.recipients))


def newest(summary: Summary | None) -> SummaryEmail | None:
    return summary.emails.first() if summary else None


def send(email: SummaryEmail) -> dict[str, tuple[int, str]]:
    """Mail the addresses still to try; return those the server refused: {address: (SMTP code, its reply)}.

    Any other failure (unreachable, timed out, the sender or the message refused) raises smtplib's
    error, an OSError.
    """
    sent = message(email, email.undelivered)
    try:
        sent.send()
        # Only our SMTP backend (workloads.reporting.summary.smtp) reports refusals; the console backend refuses nobody.
        refused = getattr(sent, "refused", {})
    except smtplib.SMTPRecipientsRefused as exc:  # it refused every one of them
        refused = exc.recipients
    as_sent = {sanitize_address(address, sent.encoding or settings.DEFAULT_CHARSET): address
               for address in sent.to}
    return {as_sent.get(address, address): (code, reply.decode(errors="replace"))
            for address, (code, reply) in refused.items()}


def digest(run: ComparisonRun) -> str:
    """The decision, the monthly figures and the alerts in plain text, as a PDF rendered now states them."""
    lines = [decision(run)]
    per_month = monthly(run)
    if per_month:
        lines.append(per_month)
    alerts = list(run.alerts.all())
    if alerts:
        lines += ["", "Since the previous period:", *(f"- {alert.message}" for alert in alerts)]
    return "\n".join(lines)


def message(email: SummaryEmail, to: list[str]) -> EmailMessage:
    """The mail to `to`: the PDF's digest, a link to the run, the PDF attached."""
    summary = email.summary
    run = summary.run
    # A PDF rendered before digests were kept has none: its run's figures as they are now stand in.
    lines = [f"{run.workload.name}, {run.period}: the comparison of chunking and full context.", "",
             summary.digest or digest(run), ""]
    lines += ["The PDF attached has the costs, the accuracy, the prices used and how they were measured.",
              f"The run: {settings.SITE_URL}{reverse('run_detail', args=[run.pk])}", "",
              "-- costplanner (your organisation's recipients are listed on its organisation page)"]
    name = " ".join(run.workload.name.split())  # a header must not hold a line break
    mail = EmailMessage(subject=f"{name}: {run.period} cost and quality summary",
                        body="\n".join(lines), to=to)
    mail.attach(filename(summary), bytes(summary.pdf), "application/pdf")
    return mail


def deliver(email: SummaryEmail, attempt: int) -> None:
    """Send a claimed mailing's try number `attempt` (0 first) and record how it went: sent to all, partly sent or
    failed, or, while tries remain after a connection that failed or a "try later" (4xx) answer, queued again by
    raising TryAgain.

    Each try goes to the addresses neither taken nor refused for good (5xx) yet: a retry reaches only
    those told to try later (4xx) or not reached at all.
    """
    try:
        refused = send(email)
    except OSError as exc:  # unreachable, timed out, or an answer to the whole mail (its sender, its data)
        reason = f"the mail server did not take it: {exc}"
        if _transient(exc):
            _try_again(email, attempt, reason, exc)
        _end(email, reason)
        return
    for_good = {address: answer for address, answer in refused.items() if answer[0] >= 500}
    took = [address for address in email.undelivered if address not in refused]
    email.delivered = "\n".join([*email.delivered_addresses, *took])
    email.refused = "\n".join([*email.refused.splitlines(), *_refusals(for_good)])
    SummaryEmail.objects.filter(pk=email.pk).update(delivered=email.delivered, refused=email.refused)
    later = {address: answer for address, answer in refused.items() if address not in for_good}
    reason = "the mail server said to try later: " + "; ".join(_refusals(later)) if later else ""
    if later:
        _try_again(email, attempt, reason)
    _end(email, reason)


def _refusals(answers: dict[str, tuple[int, str]]) -> list[str]:
    return [f"{address} ({code} {reply})" for address, (code, reply) in answers.items()]


def _transient(exc: OSError) -> bool:
    """A connection that failed or a 4xx answer may pass later; a 5xx answer is final."""
    if isinstance(exc, smtplib.SMTPResponseException):
        return 400 <= exc.smtp_code < 500
    return True


def _try_again(email: SummaryEmail, attempt: int, reason: str, exc: Exception | None = None) -> None:
    """Queue the mailing again for a later try, while tries remain (raising TryAgain); else return."""
    if attempt >= len(RETRY_DELAYS_S):
        return
    delay = RETRY_DELAYS_S[attempt]
    # Queued again, so that the retry can claim it like the first delivery did; only while this worker still holds
    # it: a mailing failed by the sweep of lost jobs, or taken over, keeps what that said (_end then changes nothing).
    if SummaryEmail.objects.filter(pk=email.pk, status=SummaryEmail.Status.RUNNING, claimed_by=email.claimed_by).update(
            status=SummaryEmail.Status.QUEUED, error=f"trying again in {delay} s: {reason}"):
        raise TryAgain(delay, exc)


def _end(email: SummaryEmail, reason: str) -> None:
    """Sent to all, partly sent, or failed; the error names every refusal for good and the last reason."""
    status = (SummaryEmail.Status.SENT if not email.missed
              else SummaryEmail.Status.PARTIAL if email.delivered else SummaryEmail.Status.FAILED)
    for_good = "the mail server refused " + "; ".join(email.refused.splitlines()) if email.refused else ""
    SummaryEmail.finish(email.pk, status, held_by=email.claimed_by,
                        error="; ".join(part for part in (for_good, reason) if part))
