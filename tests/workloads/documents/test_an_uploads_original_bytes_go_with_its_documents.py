"""An uploaded file's original bytes are kept while a document read from it exists: deleting its (last) document
deletes them from the storage, as does deleting the workload, and an extraction that kept nothing from a file leaves
none of its bytes. The row stays, marked: `purged_at` set, `original` empty, `size_bytes` still the original's."""

import io
import zipfile

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from workloads.documents.intake import store_upload
from workloads.models import Document, UploadFile
from workloads.tasks import extract_upload

TEXT = b"The notice period is 90 days.\nThe governing law is the law of Ireland.\n"


def _extracted(workload, user, *files):
    upload = store_upload(workload, user, [SimpleUploadedFile(name, data) for name, data in files])
    extract_upload(upload.pk)
    upload.refresh_from_db()
    return upload


def _stored_paths(settings) -> list:
    return [path for path in settings.MEDIA_ROOT.rglob("*") if path.is_file()]


def _assert_purged(stored: UploadFile, size: int) -> None:
    stored.refresh_from_db()
    assert stored.purged_at is not None and stored.original.name == "" and stored.size_bytes == size


def test_deleting_a_document_deletes_its_originals_bytes(client, workload, alice, settings,
                                                         django_capture_on_commit_callbacks):
    upload = _extracted(workload, alice, ("terms.txt", TEXT))
    stored = upload.files.get()
    path = settings.MEDIA_ROOT / stored.original.name
    assert path.read_bytes() == TEXT and stored.purged_at is None
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("document_delete", args=[workload.pk, Document.objects.get().pk]))
    assert response.status_code == 302 and not Document.objects.exists()
    assert not path.exists() and _stored_paths(settings) == []
    _assert_purged(stored, len(TEXT))


def test_an_archive_keeps_its_original_until_its_last_document_goes(workload, alice, settings,
                                                                     django_capture_on_commit_callbacks):
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("a.txt", TEXT)
        zf.writestr("b.txt", TEXT.replace(b"90", b"30"))
    stored = _extracted(workload, alice, ("both.zip", archive.getvalue())).files.get()
    first, second = Document.objects.order_by("name")
    with django_capture_on_commit_callbacks(execute=True):
        first.delete()
    stored.refresh_from_db()
    assert stored.purged_at is None and (settings.MEDIA_ROOT / stored.original.name).is_file()
    with django_capture_on_commit_callbacks(execute=True):
        second.delete()
    _assert_purged(stored, len(archive.getvalue()))
    assert _stored_paths(settings) == []


def test_an_upload_that_kept_nothing_leaves_no_bytes(workload, alice, settings, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        upload = _extracted(workload, alice, ("logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"), ("terms.txt", TEXT))
    skipped, kept = upload.files.order_by("name")
    assert upload.status == "done" and not upload.items.get(name="logo.png").kept
    _assert_purged(skipped, 16)
    kept.refresh_from_db()
    assert _stored_paths(settings) == [settings.MEDIA_ROOT / kept.original.name]


def test_a_new_version_deletes_the_original_of_the_text_it_replaces(workload, alice, settings,
                                                                     django_capture_on_commit_callbacks):
    old = _extracted(workload, alice, ("terms.txt", TEXT)).files.get()
    with django_capture_on_commit_callbacks(execute=True):
        upload = store_upload(workload, alice, [SimpleUploadedFile("terms.txt", TEXT + b"Signed.\n")],
                              replace_same_names=True)
        extract_upload(upload.pk)
    new = upload.files.get()
    assert Document.objects.get().origin == new
    _assert_purged(old, len(TEXT))
    assert _stored_paths(settings) == [settings.MEDIA_ROOT / new.original.name]


def test_deleting_the_workload_deletes_its_uploads_bytes(workload, alice, settings,
                                                         django_capture_on_commit_callbacks):
    _extracted(workload, alice, ("terms.txt", TEXT))
    store_upload(workload, alice, [SimpleUploadedFile("queued.txt", TEXT)])
    assert len(_stored_paths(settings)) == 2
    with django_capture_on_commit_callbacks(execute=True):
        workload.delete()
    assert not UploadFile.objects.exists() and _stored_paths(settings) == []
