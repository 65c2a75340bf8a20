"""The upload page shows extraction's progress and, per file, what was kept or skipped and why."""

from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from workloads import tasks
from workloads.documents.intake import store_upload
from workloads.models import Upload, UploadFile, UploadItem


def _upload(workload, alice, status, files_done=0):
    upload = Upload.objects.create(workload=workload, created_by=alice, status=status, files_done=files_done)
    for name in ("contracts.zip", "notes.txt"):
        UploadFile.objects.create(upload=upload, name=name, size_bytes=3)
    return upload


def test_a_finished_upload_lists_kept_and_skipped_files_with_reasons(alice_client, alice, workload, document):
    upload = _upload(workload, alice, Upload.Status.DONE, files_done=2)
    UploadItem.objects.create(upload=upload, name="contracts/msa.pdf", kept=True, detail="kept: 12 pages", tokens=4321,
                              document=document)
    UploadItem.objects.create(upload=upload, name="contracts/logo.png", kept=False, detail="skipped: not a text format")
    UploadItem.objects.create(upload=upload, name="notes.txt", kept=False,
                              detail="skipped: a document with this name is already in the workload")

    page = alice_client.get(reverse("upload_detail", args=[upload.pk])).content.decode()
    assert "<progress" not in page and "status.js" not in page
    assert "contracts/msa.pdf" in page and "kept: 12 pages" in page and "4,321" in page
    # A kept file links to its document's page, where its text can be read.
    assert f'<a href="{reverse("document_detail", args=[workload.pk, document.pk])}">contracts/msa.pdf</a>' in page
    assert "contracts/logo.png" in page and "skipped: not a text format" in page
    assert "skipped: a document with this name is already in the workload" in page
    assert "replaced since" not in page  # a document of no upload (the sample's) was not replaced by one


def test_a_running_upload_shows_its_progress_and_polls_for_more(alice_client, alice, workload):
    upload = _upload(workload, alice, Upload.Status.RUNNING, files_done=1)
    page = alice_client.get(reverse("upload_detail", args=[upload.pk])).content.decode()
    assert '<progress id="progress-bar" max="2" value="1">' in page
    assert "js/status.js" in page

    status = alice_client.get(reverse("upload_status", args=[upload.pk]))
    assert status.json() == {"status": "running", "finished": False, "progress_done": 1, "progress_total": 2,
                             "progress_message": "1 of 2 files extracted"}
    assert "no-store" in status["Cache-Control"]


def test_a_failed_upload_shows_why(alice_client, alice, workload):
    upload = _upload(workload, alice, Upload.Status.FAILED)
    Upload.objects.filter(pk=upload.pk).update(error="extraction failed: the archive is encrypted")
    page = alice_client.get(reverse("upload_detail", args=[upload.pk])).content.decode()
    assert "extraction failed: the archive is encrypted" in page
    assert alice_client.get(reverse("upload_status", args=[upload.pk])).json()["finished"] is True


def test_the_upload_form_can_replace_documents_of_the_same_names(alice_client, workload):
    form = alice_client.get(reverse("upload_create", args=[workload.pk])).content.decode()
    assert '<input type="checkbox" name="replace_same_names"' in form

    sent = {"files": [SimpleUploadedFile("terms.txt", b"New terms.\n")], "replace_same_names": "on"}
    response = alice_client.post(reverse("upload_create", args=[workload.pk]), sent)

    upload = Upload.objects.get()
    assert upload.replace_same_names
    assert "It was sent to replace documents of the same names." in alice_client.get(
        response["Location"]).content.decode()
    alice_client.post(reverse("upload_create", args=[workload.pk]),
                      {"files": [SimpleUploadedFile("terms.txt", b"New terms.\n")]})
    assert not Upload.objects.latest("pk").replace_same_names  # unticked: the browser sends nothing
    for no in ("false", "0", ""):  # a script's no means no, as in the API
        alice_client.post(reverse("upload_create", args=[workload.pk]),
                          {"files": [SimpleUploadedFile("terms.txt", b"New terms.\n")], "replace_same_names": no})
        assert not Upload.objects.latest("pk").replace_same_names, no


def test_an_older_upload_says_when_a_later_one_replaced_its_documents_text(alice_client, alice, workload):
    def send(text: bytes, replace: bool) -> Upload:
        upload = store_upload(workload, alice, [SimpleUploadedFile("terms.txt", text)], replace_same_names=replace)
        tasks.extract_upload(upload.pk)
        return upload

    first = send(b"Notice: 30 days.\n", replace=False)
    second = send(b"Notice: 90 days.\n", replace=True)

    with CaptureQueriesContext(connection) as queries:
        older = " ".join(alice_client.get(reverse("upload_detail", args=[first.pk])).content.decode().split())
    newer = " ".join(alice_client.get(reverse("upload_detail", args=[second.pk])).content.decode().split())
    assert "its text was replaced since, by a later upload" in older
    assert "replaced since" not in newer
    # Per row it reads which upload gave the text, never the text or the uploaded file's bytes (megabytes each).
    columns = " ".join(query["sql"] for query in queries.captured_queries)
    assert '"workloads_document"."text"' not in columns and '"workloads_uploadfile"."data"' not in columns
