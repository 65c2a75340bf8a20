"""The hourly purge (workloads.purge_upload_originals) deletes the originals whose time is up: every original
UPLOAD_ORIGINAL_RETENTION_DAYS after its extraction finished when the operator sets it (the documents' text stays),
a failed or cancelled upload's files after UPLOAD_RETRY_DAYS, and none that a document holds when no period is set."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from workloads.documents import upload_retries
from workloads.documents.intake import store_upload
from workloads.models import Document, Upload
from workloads.tasks import extract_upload, purge_upload_originals

TEXT = b"The notice period is 90 days.\n"


def _upload(workload, user, name: str, status: str, finished_days_ago: int) -> Upload:
    upload = store_upload(workload, user, [SimpleUploadedFile(name, TEXT)])
    if status == "done":
        extract_upload(upload.pk)
    Upload.objects.filter(pk=upload.pk).update(status=status,
                                               finished_at=timezone.now() - dt.timedelta(days=finished_days_ago))
    return upload


def _kept(upload: Upload) -> bool:
    stored = upload.files.get()
    return stored.purged_at is None and stored.original.storage.exists(stored.original.name)


def test_with_no_period_an_original_stays_as_long_as_its_document(workload, alice, settings,
                                                                  django_capture_on_commit_callbacks):
    assert settings.UPLOAD_ORIGINAL_RETENTION_DAYS is None  # the default
    old = _upload(workload, alice, "old.txt", "done", finished_days_ago=400)
    with django_capture_on_commit_callbacks(execute=True):
        assert purge_upload_originals() == 0
    assert _kept(old)


def test_originals_older_than_the_retention_period_are_purged(workload, alice, settings,
                                                              django_capture_on_commit_callbacks):
    settings.UPLOAD_ORIGINAL_RETENTION_DAYS = 30
    old = _upload(workload, alice, "old.txt", "done", finished_days_ago=31)
    recent = _upload(workload, alice, "recent.txt", "done", finished_days_ago=29)
    with django_capture_on_commit_callbacks(execute=True):
        assert purge_upload_originals() == 1
    assert not _kept(old) and _kept(recent)
    assert Document.objects.get(name="old.txt").text == TEXT.decode()  # the text stays
    assert old.files.get().size_bytes == len(TEXT)


def test_a_failed_upload_keeps_its_files_for_a_retry_until_the_retry_days_pass(workload, alice, settings,
                                                                               django_capture_on_commit_callbacks):
    settings.UPLOAD_RETRY_DAYS = 7
    stale = _upload(workload, alice, "stale.txt", "failed", finished_days_ago=8)
    fresh = _upload(workload, alice, "fresh.txt", "cancelled", finished_days_ago=6)
    with django_capture_on_commit_callbacks(execute=True):
        assert purge_upload_originals() == 1
    assert not _kept(stale) and _kept(fresh)
    with pytest.raises(ValidationError, match="files were deleted 7 days after it ended: upload them again"):
        upload_retries.retry_upload(stale)
    assert upload_retries.retry_upload(fresh)


def test_beat_sends_the_purge_every_hour(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["purge upload originals"]
    assert entry == {"task": purge_upload_originals.name, "schedule": 3600}


def test_a_period_of_0_days_deletes_every_original_when_extraction_finishes(workload, alice, settings,
                                                                            django_capture_on_commit_callbacks):
    settings.UPLOAD_ORIGINAL_RETENTION_DAYS = 0
    with django_capture_on_commit_callbacks(execute=True):
        upload = store_upload(workload, alice, [SimpleUploadedFile("terms.txt", TEXT)])
        extract_upload(upload.pk)
    assert not _kept(upload) and upload.files.get().size_bytes == len(TEXT)
    assert Document.objects.get().text == TEXT.decode()
