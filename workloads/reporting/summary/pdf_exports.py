"""Asking for a run's PDF summary, and finding the one to serve.

Each request makes a new Summary (a run can be exported again after a re-price, say); the
newest finished one is served. Rendering happens in the workloads.export_summary task. One still
queued or running can be cancelled.
"""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.http import HttpResponse
from django.utils import timezone
from django.utils.text import slugify

from workloads.models import ComparisonRun, Summary
from workloads.models.jobs import UNFINISHED_STATUSES
from workloads.workers import dispatch


def request_summary(run: ComparisonRun, user) -> Summary:
    """Queue a summary of a succeeded run; any other run is refused (it has nothing to summarise).

    A person's request is refused while an export of the run, asked for in the last hour, is still
    queued or running: a double click, or a script in a loop, must not fill the queue with copies of
    one PDF. An older one has most likely lost its message (queued jobs are never swept) and no longer
    stands in the way.
    """
    if run.status != ComparisonRun.Status.SUCCEEDED:
        raise ValidationError(f"run {run.pk} is {run.status}: only a succeeded run has a summary to export")
    person = user if user and user.is_authenticated else None
    with transaction.atomic():
        ComparisonRun.objects.select_for_update().filter(pk=run.pk).exists()  # one request at a time per run
        pending = in_flight(run.summaries).first()
        if person is not None and pending is not None:
            raise ValidationError(f"an export of run {run.pk} is already {pending.status}: its PDF will appear on the "
                                  "run's page when it is ready")
        summary = Summary.objects.create(run=run, requested_by=person)
        dispatch.queue_summary(summary.pk)
    return summary


def cancel_summary(run: ComparisonRun) -> Summary | None:
    """Cancel the run's newest summary still queued or running, as runs and sweeps are cancelled; None when it has
    none. A running one renders on, but keeps nothing and mails nothing: its finish is conditional on running
    (workloads.tasks.export_summary)."""
    pending = run.summaries.defer("pdf").filter(status__in=UNFINISHED_STATUSES).first()
    if pending is None or not Summary.cancel(pending.pk, Summary.Status.CANCELLED):
        return None
    pending.refresh_from_db(fields=["status", "finished_at"])
    return pending


def in_flight(jobs: QuerySet) -> QuerySet:
    """Those of the jobs (summaries or their mailings) queued or running, asked for in the last hour."""
    return jobs.filter(status__in=UNFINISHED_STATUSES, created_at__gte=timezone.now() - dt.timedelta(hours=1))


def newest(run: ComparisonRun) -> Summary | None:
    """The run's newest summary in any state: what its page reports."""
    return run.summaries.defer("pdf").first()


def newest_done(run: ComparisonRun) -> Summary | None:
    return run.summaries.filter(status=Summary.Status.DONE).first()


def has_done() -> Exists:
    """For QuerySet.annotate on runs: whether a run has a PDF to download, without reading one (the workload page
    asks on every view)."""
    return Exists(Summary.objects.filter(run=OuterRef("pk"), status=Summary.Status.DONE))


def filename(summary: Summary) -> str:
    run = summary.run
    return f"costplanner-{slugify(run.workload.name) or 'workload'}-{run.period}-run{run.pk}.pdf"


def download(summary: Summary) -> HttpResponse:
    response = HttpResponse(bytes(summary.pdf), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename(summary)}"'
    return response
