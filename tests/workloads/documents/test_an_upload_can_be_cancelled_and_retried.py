"""An upload can be cancelled like a run, from its page (the API: tests/workloads/api), and then keeps nothing; a failed or cancelled
one is tried again in one click from its stored files; a viewer may do neither; a cancelled upload no longer blocks
deleting its workload. Today uploads could not be cancelled, and a stuck one blocked the deletion for hours."""

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from workloads import deletion
from workloads.documents.intake import store_upload
from workloads.models import Upload, Workload
from workloads.tasks import extract_upload


@pytest.fixture
def upload(workload, alice):
    return store_upload(workload, alice, [SimpleUploadedFile("terms.txt", b"The notice period is 90 days.\n")])


def test_a_member_cancels_a_running_upload_from_its_page_and_it_keeps_nothing(client, bob, upload):
    Upload.objects.filter(pk=upload.pk).update(status="running")
    client.force_login(bob)
    assert "Cancel the upload" in client.get(f"/uploads/{upload.pk}/").content.decode()

    response = client.post(f"/uploads/{upload.pk}/cancel/", follow=True)

    assert "Cancelled: nothing from this upload is kept." in response.content.decode()
    upload.refresh_from_db()
    assert upload.status == "cancelled" and upload.finished_at is not None
    extract_upload(upload.pk)  # its message, delivered after the cancel, does nothing
    assert not upload.workload.documents.exists()


def test_a_failed_upload_is_retried_from_its_page(client, bob, upload, django_capture_on_commit_callbacks):
    Upload.objects.filter(pk=upload.pk).update(status="failed", error="its worker stopped without finishing it")
    client.force_login(bob)
    assert "Try the upload again" in client.get(f"/uploads/{upload.pk}/").content.decode()
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = client.post(f"/uploads/{upload.pk}/retry/", follow=True)
    assert "Extracting the text again." in response.content.decode() and len(queued) == 1
    extract_upload(upload.pk)  # what the queued message does
    upload.refresh_from_db()
    assert upload.status == "done" and upload.error == ""


def test_a_viewer_may_not_cancel_an_upload(vera, upload):
    client = Client()
    client.force_login(vera)
    assert "Cancel the upload" not in client.get(f"/uploads/{upload.pk}/").content.decode()
    assert client.post(f"/uploads/{upload.pk}/cancel/").status_code == 403
    assert Upload.objects.get(pk=upload.pk).status == "queued"


def test_a_cancelled_upload_no_longer_blocks_deleting_its_workload(client, alice, workload, upload):
    Upload.objects.filter(pk=upload.pk).update(status="running")
    with pytest.raises(ValidationError, match=f"upload {upload.pk} is running: cancel it"):
        deletion.delete_workload(workload)
    client.force_login(alice)
    client.post(f"/uploads/{upload.pk}/cancel/")
    deletion.delete_workload(workload)
    assert not Workload.objects.filter(pk=workload.pk).exists()
