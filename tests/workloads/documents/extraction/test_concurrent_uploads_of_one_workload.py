"""Two uploads of one workload extracted at the same time, as several `default` workers do: the second to save
is judged against what the first saved, so names stay unique and the token limit holds."""

import threading

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connections
from django.test import override_settings

from workloads import tasks
from workloads.documents.extraction import iter_file
from workloads.documents.intake import store_upload
from workloads.models import Document, Upload

TEXT = "The notice period is 90 days.\nThe governing law is the law of Ireland.\n"


def _extract_both_at_once(monkeypatch, uploads: list[Upload]) -> None:
    """Each upload's task in its own thread and database connection; both finish reading their files before
    either saves, so each read the workload's documents before the other saved any."""
    both_extracted = threading.Barrier(len(uploads), timeout=60)

    def extract_then_wait(*args, **kwargs):
        entries = list(iter_file(*args, **kwargs))
        both_extracted.wait()
        return entries

    monkeypatch.setattr("workloads.documents.intake.iter_file", extract_then_wait)
    errors = []

    def run(upload: Upload) -> None:
        try:
            tasks.extract_upload(upload.pk)
        except Exception as exc:  # the upload's row says why; the test reads it there
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(upload,)) for upload in uploads]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    for upload in uploads:
        upload.refresh_from_db()
    assert [upload.error for upload in uploads] == ["", ""], errors


@pytest.mark.django_db(transaction=True)
def test_it_skips_a_name_that_a_concurrent_upload_just_saved_and_keeps_the_other_files(workload, alice, monkeypatch):
    first = store_upload(workload, alice, [SimpleUploadedFile("terms.txt", TEXT.encode()),
                                           SimpleUploadedFile("one.txt", b"First upload's own file.\n")])
    second = store_upload(workload, alice, [SimpleUploadedFile("terms.txt", b"Another text under that name.\n"),
                                            SimpleUploadedFile("two.txt", b"Second upload's own file.\n")])

    _extract_both_at_once(monkeypatch, [first, second])

    assert [upload.status for upload in (first, second)] == [Upload.Status.DONE, Upload.Status.DONE]
    assert sorted(Document.objects.values_list("name", flat=True)) == ["one.txt", "terms.txt", "two.txt"]
    skipped = [item for upload in (first, second) for item in upload.items.filter(kept=False)]
    assert [(item.name, item.detail) for item in skipped] == [
        ("terms.txt", "skipped: a document with this name is already in the workload")]


@pytest.mark.django_db(transaction=True)
def test_it_keeps_the_token_limit_when_two_uploads_save_at_once(workload, alice, monkeypatch):
    tokens = len(tasks._tokenizer(workload.target_model)(TEXT)["input_ids"])
    first = store_upload(workload, alice, [SimpleUploadedFile("a.txt", TEXT.encode())])
    second = store_upload(workload, alice, [SimpleUploadedFile("b.txt", TEXT.encode())])

    with override_settings(WORKLOAD_MAX_TOKENS=tokens * 3 // 2):  # room for one of them, not both
        _extract_both_at_once(monkeypatch, [first, second])

    assert Document.objects.count() == 1
    [skipped] = [item for upload in (first, second) for item in upload.items.filter(kept=False)]
    assert skipped.detail == f"skipped: {tokens:,} tokens would pass the workload's limit of {tokens * 3 // 2:,}"
