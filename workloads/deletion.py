"""Deleting a workload with all it holds: documents, probes, uploads, runs with their PDFs and mails, and its
beat entry (signals.workload_deleted). Never from under a job at work on it: that job would fail half-way."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from workloads.models import ComparisonRun, Upload, Workload
from workloads.models.runs import UNFINISHED_STATUSES


def what_goes(workload: Workload) -> dict[str, int]:
    """What deleting the workload deletes with it, for the page that asks to confirm."""
    return {"documents": workload.documents.count(), "probes": workload.probes.count(),
            "comparisons": workload.runs.count(), "uploads": workload.uploads.count()}


def delete_workload(workload: Workload) -> None:
    """Delete it, or raise ValidationError naming the comparison or upload still queued or running."""
    with transaction.atomic():
        unfinished = {"workload": workload, "status__in": UNFINISHED_STATUSES}
        run = ComparisonRun.objects.select_for_update().filter(**unfinished).first()
        if run is not None:
            raise ValidationError(f"run {run.pk} is {run.status}: cancel it, or wait for it to finish, before "
                                  "deleting the workload")
        upload = Upload.objects.select_for_update().filter(**unfinished).first()
        if upload is not None:
            raise ValidationError(f"upload {upload.pk} is {upload.status}: wait for its extraction to finish "
                                  "before deleting the workload")
        workload.delete()
