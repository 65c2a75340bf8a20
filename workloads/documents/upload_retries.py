"""Cancelling an upload's extraction, and trying a failed or cancelled one again, as runs are cancelled and retried.

A cancelled upload keeps nothing: extraction keeps its documents with "done" in one transaction, which a cancel
that came first prevents (workloads.tasks.extract_upload). Its files stay, so that it can be tried again.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from workloads import dispatch
from workloads.models import Upload
from workloads.models.jobs import UNFINISHED_STATUSES

RETRYABLE = (Upload.Status.FAILED, Upload.Status.CANCELLED)


def cancel_upload(upload: Upload) -> bool:
    """Cancel a queued or running upload; whether it was still unfinished."""
    return bool(Upload.objects.filter(pk=upload.pk, status__in=UNFINISHED_STATUSES)
                .update(status=Upload.Status.CANCELLED, finished_at=timezone.now(), error="cancelled"))


def retry_upload(upload: Upload) -> bool:
    """Queue a failed or cancelled upload's extraction again, from its stored files; whether it was one."""
    with transaction.atomic():
        again = Upload.objects.filter(pk=upload.pk, status__in=RETRYABLE).update(
            status=Upload.Status.QUEUED, error="", started_at=None, finished_at=None, files_done=0, claimed_by="",
            heartbeat_at=None, takeovers=0, resent_at=None, resends=0)
        if again:
            dispatch.queue_extraction(upload.pk)
    return bool(again)
