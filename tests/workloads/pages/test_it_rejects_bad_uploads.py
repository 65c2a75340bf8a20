"""Bad uploads are refused with a readable message and a 400, and nothing is saved."""

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings
from django.urls import reverse

from workloads.models import Upload, UploadFile


def _files(n: int, size: int = 10) -> list:
    return [SimpleUploadedFile(f"note-{i}.txt", b"x" * size) for i in range(n)]


def _post(client, workload, files):
    return client.post(reverse("upload_create", args=[workload.pk]), {"files": files} if files else {})


def _assert_refused(response, message: str):
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Upload.objects.exists() and not UploadFile.objects.exists()


def test_it_rejects_an_empty_upload(alice_client, workload):
    _assert_refused(_post(alice_client, workload, []), "choose at least one file to upload")


def test_it_rejects_an_empty_file(alice_client, workload):
    _assert_refused(_post(alice_client, workload, [SimpleUploadedFile("blank.txt", b"")]), "blank.txt is empty")


@override_settings(UPLOAD_MAX_FILES=2, DATA_UPLOAD_MAX_NUMBER_FILES=10)
def test_it_rejects_too_many_files(alice_client, workload):
    _assert_refused(_post(alice_client, workload, _files(3)), "3 files at once is more than the limit of 2")


@override_settings(UPLOAD_MAX_FILE_BYTES=2**20)
def test_it_rejects_an_oversized_file(alice_client, workload):
    big = SimpleUploadedFile("scan.pdf", b"%PDF" + b"0" * 2**20)
    _assert_refused(_post(alice_client, workload, [*_files(1), big]),
                    "scan.pdf is 1,048,580 bytes, more than the limit of 1,048,576 bytes (1.0 MiB)")


@override_settings(UPLOAD_MAX_FILES=50, DATA_UPLOAD_MAX_NUMBER_FILES=2)
def test_it_answers_djangos_own_file_limit_readably(alice_client, workload):
    _assert_refused(_post(alice_client, workload, _files(3)), "That is too many files at once: send at most 50")


@override_settings(UPLOAD_MAX_FILES=50, DATA_UPLOAD_MAX_NUMBER_FILES=2)
def test_djangos_file_limit_is_readable_even_when_the_csrf_check_meets_it_first(alice, workload):
    # With CSRF checks on, as in production, the middleware reads the body before the view does.
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    url = reverse("upload_create", args=[workload.pk])
    client.get(url)  # sets the CSRF cookie
    response = client.post(url, {"files": _files(3), "csrfmiddlewaretoken": client.cookies["csrftoken"].value})
    _assert_refused(response, "It sent too many files at once: an upload takes at most 50.")
