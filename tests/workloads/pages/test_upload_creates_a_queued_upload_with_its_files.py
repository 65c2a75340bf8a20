"""Uploading several files at once stores them and queues their extraction once the transaction commits."""

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from workloads.documents.upload_storage import read_file
from workloads.models import Upload


def test_upload_creates_a_queued_upload_with_its_files(alice_client, alice, workload,
                                                       django_capture_on_commit_callbacks):
    files = [SimpleUploadedFile("terms.md", b"# Terms\nNotice: 90 days."),
             SimpleUploadedFile("orders.csv", b"id,amount\n1,20\n")]
    with django_capture_on_commit_callbacks() as callbacks:  # not executed: no worker needed
        response = alice_client.post(reverse("upload_create", args=[workload.pk]), {"files": files})

    upload = Upload.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("upload_detail", args=[upload.pk])
    assert (upload.workload, upload.created_by, upload.status) == (workload, alice, Upload.Status.QUEUED)
    assert [(f.name, read_file(f)) for f in upload.files.all()] == [
        ("terms.md", b"# Terms\nNotice: 90 days."), ("orders.csv", b"id,amount\n1,20\n")]
    assert len(callbacks) == 1
    assert callbacks[0].args == ("workloads.extract_upload", (upload.pk,))  # task name, arguments

    page = alice_client.get(response["Location"]).content.decode()
    assert "Received 2 files" in page
    assert f'data-status-url="{reverse("upload_status", args=[upload.pk])}"' in page
    assert "<progress" in page and "terms.md" in page and "orders.csv" in page


def test_the_workload_page_offers_a_multiple_file_input(alice_client, workload):
    page = alice_client.get(reverse("workload_detail", args=[workload.pk])).content.decode()
    assert 'enctype="multipart/form-data"' in page
    assert '<input type="file" name="files" id="id_files" multiple' in page
