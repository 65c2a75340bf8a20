"""Asking for a run's PDF summary, and finding the one to serve.

Each request makes a new Summary (a run can be exported again after a re-price, say); the
newest finished one is served. Rendering happens in the workloads.export_summary task.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpResponse
from django.utils.text import slugify

from workloads.models import ComparisonRun, Summary


def request_summary(run: ComparisonRun, user) -> Summary:
    """Queue a summary of a succeeded run; any other run is refused (it has nothing to summarise)."""
    from workloads.tasks import export_summary

    if run.status != ComparisonRun.Status.SUCCEEDED:
        raise ValidationError(f"run {run.pk} is {run.status}: only a succeeded run has a summary to export")
    with transaction.atomic():
        summary = Summary.objects.create(run=run, requested_by=user if user and user.is_authenticated else None)
        export_summary.delay_on_commit(summary.pk)
    return summary


def newest(run: ComparisonRun) -> Summary | None:
    """The run's newest summary in any state: what its page reports."""
    return run.summaries.defer("pdf").first()


def newest_done(run: ComparisonRun) -> Summary | None:
    return run.summaries.filter(status=Summary.Status.DONE).first()


def filename(summary: Summary) -> str:
    run = summary.run
    return f"costplanner-{slugify(run.workload.name) or 'workload'}-{run.period}-run{run.pk}.pdf"


def download(summary: Summary) -> HttpResponse:
    response = HttpResponse(bytes(summary.pdf), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename(summary)}"'
    return response
