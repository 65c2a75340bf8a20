"""Accepting uploaded files: validated at the edge, stored whole, extracted by a task."""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction

from workloads.extraction.datatypes import human_size
from workloads.models import Upload, UploadFile, Workload


def validate_files(files: Sequence) -> None:
    """Raise ValidationError naming the first file that breaks a limit."""
    if not files:
        raise ValidationError("choose at least one file to upload")
    if len(files) > settings.UPLOAD_MAX_FILES:
        raise ValidationError(f"{len(files)} files at once is more than the limit of {settings.UPLOAD_MAX_FILES}")
    for f in files:
        if f.size > settings.UPLOAD_MAX_FILE_BYTES:
            raise ValidationError(f"{f.name} is {_over(f.size, settings.UPLOAD_MAX_FILE_BYTES)} per file")
        if f.size == 0:
            raise ValidationError(f"{f.name} is empty")


def _over(size: int, limit: int) -> str:
    """As "25.0 MiB, more than the limit of 20.0 MiB"; in bytes when both round alike, as one byte over does."""
    if human_size(size) == human_size(limit):
        return f"{size:,} bytes, more than the limit of {limit:,} bytes ({human_size(limit)})"
    return f"{human_size(size)}, more than the limit of {human_size(limit)}"


def accept_upload(workload: Workload, user, files: Sequence, replace_same_names: bool = False) -> Upload:
    """Store the files and queue their extraction once the transaction commits."""
    from workloads.tasks import extract_upload

    with transaction.atomic():
        upload = store_upload(workload, user, files, replace_same_names)
        extract_upload.delay_on_commit(upload.pk)
    return upload


def store_upload(workload: Workload, user, files: Sequence, replace_same_names: bool = False) -> Upload:
    """Validate and store the files, all or none, as a queued Upload (extraction not yet asked for).

    replace_same_names: a document the files read as replaces the workload's document of that name (a new version
    of a contract, a codebase uploaded again) instead of being skipped.
    """
    validate_files(files)
    with transaction.atomic():
        upload = Upload.objects.create(workload=workload, created_by=user, replace_same_names=replace_same_names)
        for f in files:
            data = f.read()
            UploadFile.objects.create(upload=upload, name=(f.name or "unnamed")[-255:], data=data, size_bytes=len(data))
    return upload
