"""Deleting a workload with all it holds: documents, probes, uploads, runs with their PDFs and mails, group-size
sweeps, and its beat entry (signals.workload_deleted); or one run with its PDFs and mails. Never from under a job
at work on it: that job would fail half-way."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from workloads.models import ComparisonRun, GroupSweep, Upload, Workload
from workloads.models.jobs import UNFINISHED_STATUSES
from workloads.reporting import changes


def what_goes(workload: Workload) -> dict[str, int]:
    """What deleting the workload deletes with it, for the page that asks to confirm."""
    return {"documents": workload.documents.count(), "probes": workload.probes.count(),
            "comparisons": workload.runs.count(), "uploads": workload.uploads.count(),
            "sweeps": workload.group_sweeps.count()}


# The jobs of a workload that block its deletion while queued or running, as each is named, and what to wait for.
_BLOCKING = ((ComparisonRun, "run", "it"), (Upload, "upload", "its extraction"), (GroupSweep, "sweep", "it"))


def delete_workload(workload: Workload) -> None:
    """Delete it, or raise ValidationError naming the comparison, upload or group-size sweep still queued or
    running."""
    with transaction.atomic():
        unfinished = {"workload": workload, "status__in": UNFINISHED_STATUSES}
        for model, name, what in _BLOCKING:
            job = model.objects.select_for_update().filter(**unfinished).first()
            if job is not None:
                raise ValidationError(f"{name} {job.pk} is {job.status}: cancel it, or wait for {what} to finish, "
                                      "before deleting the workload")
        workload.delete()


def followers(run: ComparisonRun) -> list[ComparisonRun]:
    """The runs compared with this one: deleting it makes each compare with the run before it instead."""
    return list(ComparisonRun.objects.filter(previous_run=run).select_related("workload").order_by("created_at"))


def delete_run(run: ComparisonRun) -> list[ComparisonRun]:
    """Delete the run with its results, PDFs and mails, and compare its followers again; returns them.

    Raises ValidationError while it is queued or running: its worker would write into a row that is gone.
    """
    with transaction.atomic():
        locked = ComparisonRun.objects.select_for_update().get(pk=run.pk)
        if locked.status in UNFINISHED_STATUSES:
            raise ValidationError(f"run {run.pk} is {locked.status}: cancel it, or wait for it to finish, before "
                                  "deleting it")
        compared_with_it = followers(run)
        locked.delete()  # their alerts against it go with it (Alert.previous_run cascades)
        for follower in compared_with_it:
            changes.record_changes(follower)
    return compared_with_it
