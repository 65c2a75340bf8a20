"""Cancelling an upload's extraction, and trying a failed or cancelled one again, as runs are cancelled and retried.

A cancelled upload keeps nothing: extraction keeps its documents with "done" in one transaction, which a cancel
that came first prevents (workloads.tasks.extract_upload). Its files stay, so that it can be tried again, for
UPLOAD_RETRY_DAYS (workloads.documents.upload_retention).
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction

from workloads.models import Upload
from workloads.workers import dispatch

RETRYABLE = (Upload.Status.FAILED, Upload.Status.CANCELLED)


def cancel_upload(upload: Upload) -> bool:
    """Cancel a queued or running upload; whether it was still unfinished."""
    return Upload.cancel(upload.pk, Upload.Status.CANCELLED, error="cancelled")


def retry_upload(upload: Upload) -> bool:
    """Queue a failed or cancelled upload's extraction again, from its stored files; whether it was one. Raises
    ValidationError once its files' originals were deleted (UPLOAD_RETRY_DAYS after it ended)."""
    if upload.files.filter(purged_at__isnull=False).exists():
        raise ValidationError(f"upload {upload.pk}'s files were deleted {settings.UPLOAD_RETRY_DAYS} days after it "
                              "ended: upload them again")
    with transaction.atomic():
        again = Upload.requeue(upload.pk, RETRYABLE, files_done=0)
        if again:
            dispatch.queue_extraction(upload.pk)
    return bool(again)
