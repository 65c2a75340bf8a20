"""An upload cancelled while its files are extracted stops before its next file, through the progress report every
job shares (leases.report), and keeps nothing; a queued one cancelled is never claimed."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from workloads.documents import intake, upload_retries
from workloads.models import Upload
from workloads.tasks import _tokenizer, extract_upload
from workloads.workers import leases


@pytest.fixture
def upload(workload, alice):
    return intake.store_upload(workload, alice, [SimpleUploadedFile(f"terms-{i}.txt", b"Notice: 90 days.\n")
                                                 for i in range(3)])


def test_a_running_extraction_stops_at_its_next_file_once_cancelled(upload, workload):
    assert leases.claim(Upload, upload.pk).value == "claimed"
    tokenizer = _tokenizer(workload.target_model)
    assert upload_retries.cancel_upload(upload)

    with pytest.raises(leases.Stopped):
        intake.extract(upload, tokenizer, leases.holder())

    upload.refresh_from_db()
    assert (upload.status, upload.files_done) == ("cancelled", 0)  # the first file's report stopped it
    assert not workload.documents.exists()


def test_an_extraction_not_cancelled_reports_every_file(upload, workload):
    assert leases.claim(Upload, upload.pk).value == "claimed"

    documents, items = intake.extract(upload, _tokenizer(workload.target_model), leases.holder())

    assert len(documents) == len(items) == 3 and Upload.objects.get(pk=upload.pk).files_done == 3


def test_a_cancelled_queued_upload_is_never_claimed(upload, workload):
    assert upload_retries.cancel_upload(upload)

    extract_upload(upload.pk)

    upload.refresh_from_db()
    assert (upload.status, upload.started_at, upload.files_done) == ("cancelled", None, 0)
    assert not workload.documents.exists()
