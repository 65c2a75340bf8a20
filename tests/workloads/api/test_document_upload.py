"""Documents arrive as multipart files: stored as a queued Upload, extracted later by a task."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings

from workloads.api.error_responses import NO_FILES
from workloads.documents.upload_storage import read_file
from workloads.models import Upload, UploadFile, UploadItem


def _file(name: str = "contract.txt", data: bytes = b"Notice period: 90 days.\n") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="text/plain")


def test_it_stores_the_files_as_a_queued_upload_and_queues_extraction(
        as_alice, alice, workload, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        response = as_alice.upload(f"/workloads/{workload.pk}/documents",
                                   [_file("a.txt", b"first"), _file("b.md", b"second!")])

    assert response.status_code == 202
    upload = Upload.objects.get(pk=response.json()["id"])
    assert response.json() == {"id": upload.pk, "status": "queued"}
    assert (upload.workload, upload.created_by, upload.status) == (workload, alice, "queued")
    assert [(f.name, read_file(f), f.size_bytes) for f in upload.files.all()] == [
        ("a.txt", b"first", 5), ("b.md", b"second!", 7)]
    assert len(callbacks) == 1  # extract_upload.delay, once the transaction commits


def test_it_reports_an_uploads_progress_and_items(as_alice, workload, document):
    upload_id = as_alice.upload(f"/workloads/{workload.pk}/documents", [_file("a.txt"), _file("b.zip")]).json()["id"]
    Upload.objects.filter(pk=upload_id).update(status="done", files_done=2)
    UploadItem.objects.create(upload_id=upload_id, name="a.txt", kept=True, detail="text, 1 line", tokens=120,
                              document=document)
    UploadItem.objects.create(upload_id=upload_id, name="b.zip/image.png", kept=False, detail="skipped: not text")

    body = as_alice.get(f"/uploads/{upload_id}").json()

    assert (body["status"], body["files_done"], body["files_total"], body["error"]) == ("done", 2, 2, "")
    assert body["items"] == [
        {"name": "a.txt", "kept": True, "detail": "text, 1 line", "tokens": 120, "document_id": document.pk},
        {"name": "b.zip/image.png", "kept": False, "detail": "skipped: not text", "tokens": 0, "document_id": None},
    ]


def test_bob_can_follow_alices_upload(as_alice, as_bob, workload):
    upload_id = as_alice.upload(f"/workloads/{workload.pk}/documents", [_file()]).json()["id"]

    assert as_bob.get(f"/uploads/{upload_id}").json()["status"] == "queued"


def test_it_lists_the_workloads_documents_without_their_text(as_alice, workload, document):
    response = as_alice.get(f"/workloads/{workload.pk}/documents")

    assert response.status_code == 200
    [listed] = response.json()
    assert {k: listed[k] for k in ("name", "source_path", "tokens", "lines", "size_bytes")} == {
        "name": "contract-a.txt", "source_path": "", "tokens": 120, "lines": 1, "size_bytes": 24}
    assert "text" not in listed


def test_it_keeps_a_hostile_file_name_as_text(as_alice, workload):
    response = as_alice.upload(f"/workloads/{workload.pk}/documents", [_file("<img src=x onerror=alert(1)>';--.txt")])

    assert response.status_code == 202
    assert UploadFile.objects.get().name == "<img src=x onerror=alert(1)>';--.txt"


def _refused(as_alice, workload, files) -> dict:
    response = as_alice.upload(f"/workloads/{workload.pk}/documents", files)
    assert response.status_code == 400
    assert not Upload.objects.exists() and not UploadFile.objects.exists()
    return response.json()


def test_it_refuses_a_request_without_files(as_alice, workload):
    assert _refused(as_alice, workload, []) == {"detail": NO_FILES}


def test_it_refuses_a_json_body_instead_of_files(as_alice, workload):
    response = as_alice.post(f"/workloads/{workload.pk}/documents", {"files": ["a.txt"]})

    assert (response.status_code, response.json()) == (400, {"detail": NO_FILES})


def test_it_refuses_an_empty_file_and_saves_none_of_them(as_alice, workload):
    assert _refused(as_alice, workload, [_file("ok.txt"), _file("empty.txt", b"")]) == {"detail": "empty.txt is empty"}


@override_settings(UPLOAD_MAX_FILES=2)
def test_it_refuses_more_files_than_the_limit(as_alice, workload):
    files = [_file(f"{i}.txt") for i in range(3)]

    assert _refused(as_alice, workload, files) == {"detail": "3 files at once is more than the limit of 2"}


@override_settings(UPLOAD_MAX_FILE_BYTES=2**20)
def test_it_refuses_a_file_over_the_size_limit(as_alice, workload):
    files = [_file("small.txt"), _file("big.txt", b"x" * (2**20 + 1))]

    assert _refused(as_alice, workload, files) == {
        "detail": "big.txt is 1,048,577 bytes, more than the limit of 1,048,576 bytes (1.0 MiB) per file"}


@override_settings(DATA_UPLOAD_MAX_NUMBER_FILES=2)
def test_djangos_own_file_count_limit_answers_as_json(as_alice, workload):
    detail = _refused(as_alice, workload, [_file(f"{i}.txt") for i in range(3)])["detail"]

    assert "number of files exceeded" in detail.lower()


def test_a_field_that_is_text_not_a_file_is_refused(as_alice, workload):
    response = as_alice.client.post(f"/api/workloads/{workload.pk}/documents", {"files": "not a file"},
                                    headers=as_alice.headers)

    assert response.status_code == 400
    assert not Upload.objects.exists()


def _raw_upload(as_alice, workload, filename: bytes):
    """A multipart body written by hand, so the file name reaches the server exactly as given."""
    body = (b"--BOUNDARY\r\nContent-Disposition: form-data; name=\"files\"; filename=\"" + filename + b"\"\r\n"
            b"Content-Type: text/plain\r\n\r\nhello\r\n--BOUNDARY--\r\n")
    return as_alice.client.generic("POST", f"/api/workloads/{workload.pk}/documents", body,
                                   content_type="multipart/form-data; boundary=BOUNDARY", headers=as_alice.headers)


@pytest.mark.parametrize("name", [b"", b"   ", b"../../etc/passwd", b"C:\\x\\..\\boot.ini", b"a" * 300 + b".txt",
                                  b"nul\x00byte.txt", b"ctl\x01\x1f.txt", "\u5951\u7d04.txt".encode(), b"\xff\xfe.txt"])
def test_odd_file_names_never_fail_the_request(as_alice, workload, name):
    response = _raw_upload(as_alice, workload, name)

    assert response.status_code in (202, 400), response.content
    if response.status_code == 202:
        stored = UploadFile.objects.get().name
        assert 0 < len(stored) <= 255 and "/" not in stored and "\x00" not in stored
    else:
        assert not Upload.objects.exists()


def test_an_upload_may_replace_the_documents_of_its_names(as_alice, workload):
    response = as_alice.upload(f"/workloads/{workload.pk}/documents", [_file()], replace_same_names="true")
    upload_id = response.json()["id"]

    assert Upload.objects.get(pk=upload_id).replace_same_names
    assert as_alice.get(f"/uploads/{upload_id}").json()["replace_same_names"] is True


def test_it_refuses_a_replace_flag_that_is_not_a_boolean(as_alice, workload):
    response = as_alice.upload(f"/workloads/{workload.pk}/documents", [_file()], replace_same_names="perhaps")

    assert response.status_code == 400
    assert response.json() == {
        "detail": "replace_same_names: Input should be a valid boolean, unable to interpret input"}
    assert not Upload.objects.exists() and not UploadFile.objects.exists()
