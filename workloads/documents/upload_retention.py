"""What is kept of an upload's original bytes once its text is extracted (settings: UPLOAD_ORIGINAL_RETENTION_DAYS,
UPLOAD_RETRY_DAYS).

An original is kept while a document read from it exists: deleting the last such document deletes it, and a file
that kept no document loses it when its extraction finishes. With UPLOAD_ORIGINAL_RETENTION_DAYS set, every original
goes that many days after its extraction finished, the documents' text staying. A failed or cancelled upload keeps its
files for a retry during UPLOAD_RETRY_DAYS. The hourly workloads.purge_upload_originals task applies the periods, and
catches any original the immediate purges missed.

A purged file keeps its row, its name and its size (`size_bytes`, the original's): `purged_at` says when its bytes
went, and `original` is empty. A kept original is one with `purged_at` null.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from workloads.documents import upload_storage
from workloads.documents.upload_retries import RETRYABLE
from workloads.models import Upload, UploadFile


def kept() -> QuerySet[UploadFile]:
    """The files whose original bytes are still stored."""
    return UploadFile.objects.filter(purged_at__isnull=True)


def purge(files: QuerySet[UploadFile]) -> int:
    """Delete these files' originals, once the transaction commits; how many were still kept.

    Each file is marked with one conditional UPDATE, so that two purges racing delete its bytes once; the bytes go
    after the commit, so that a transaction rolled back leaves them with the row that names them.
    """
    purged = 0
    for pk, name in list(files.filter(purged_at__isnull=True).values_list("pk", "original")):
        if UploadFile.objects.filter(pk=pk, purged_at__isnull=True).update(purged_at=timezone.now(), original=""):
            upload_storage.remove_on_commit(name)
            purged += 1
    return purged


def purge_unheld(files: QuerySet[UploadFile]) -> int:
    """Purge those of `files` from which no document is kept, among uploads whose extraction is done."""
    return purge(files.filter(upload__status=Upload.Status.DONE, documents__isnull=True))


def after_extraction(upload_pk: int, replaced_origins: set[int]) -> int:
    """Purge what a finished extraction leaves unheld: its own files that kept no document, and the files whose
    documents it replaced; all of its files if originals are kept 0 days."""
    if settings.UPLOAD_ORIGINAL_RETENTION_DAYS == 0:
        return purge(UploadFile.objects.filter(upload_id=upload_pk))
    return purge_unheld(UploadFile.objects.filter(Q(upload_id=upload_pk) | Q(pk__in=replaced_origins)))


def due(now: dt.datetime | None = None) -> QuerySet[UploadFile]:
    """The kept files whose time is up: unheld ones of done uploads, those of uploads done more than
    UPLOAD_ORIGINAL_RETENTION_DAYS ago (if set), and those of failed or cancelled uploads past UPLOAD_RETRY_DAYS."""
    now = now or timezone.now()
    unheld = Q(upload__status=Upload.Status.DONE, documents__isnull=True)
    wanted = unheld | Q(upload__status__in=RETRYABLE,
                        upload__finished_at__lt=now - dt.timedelta(days=settings.UPLOAD_RETRY_DAYS))
    if settings.UPLOAD_ORIGINAL_RETENTION_DAYS is not None:
        wanted |= Q(upload__status=Upload.Status.DONE,
                    upload__finished_at__lt=now - dt.timedelta(days=settings.UPLOAD_ORIGINAL_RETENTION_DAYS))
    # distinct: the join through documents gives a file held by several documents one row for each.
    return kept().filter(wanted).distinct()
