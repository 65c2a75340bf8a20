"""The API cancels a queued or running upload (409 once it has finished) and retries a failed or cancelled one
from its stored files (409 otherwise)."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from workloads.documents.intake import store_upload
from workloads.tasks import extract_upload


@pytest.fixture
def upload(workload, alice):
    return store_upload(workload, alice, [SimpleUploadedFile("terms.txt", b"The notice period is 90 days.\n")])


def test_the_api_cancels_then_retries_an_upload(as_bob, upload, django_capture_on_commit_callbacks):
    cancelled = as_bob.post(f"/uploads/{upload.pk}/cancel")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert as_bob.post(f"/uploads/{upload.pk}/cancel").status_code == 409

    with django_capture_on_commit_callbacks(execute=False) as queued:
        retried = as_bob.post(f"/uploads/{upload.pk}/retry")
    assert retried.status_code == 200 and retried.json()["status"] == "queued" and len(queued) == 1
    extract_upload(upload.pk)
    assert as_bob.get(f"/uploads/{upload.pk}").json()["status"] == "done"
    assert list(upload.workload.documents.values_list("name", flat=True)) == ["terms.txt"]
    assert as_bob.post(f"/uploads/{upload.pk}/retry").status_code == 409  # done: nothing to retry
