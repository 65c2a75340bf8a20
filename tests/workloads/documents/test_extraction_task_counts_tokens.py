"""The extraction task keeps text with its token count under the workload's model, skips what it cannot use,
and saves all of an upload or none of it."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings

from engine.model.loader import load_tokenizer
from workloads import tasks
from workloads.documents.intake import store_upload
from workloads.documents.upload_storage import read_file
from workloads.models import Document, Upload
from workloads.tasks import extract_upload

TEXT = "The notice period is 90 days.\nThe governing law is the law of Ireland.\n"


def _extract(workload, user, *files):
    upload = store_upload(workload, user, [SimpleUploadedFile(name, data) for name, data in files])
    extract_upload(upload.pk)
    upload.refresh_from_db()
    return upload


def test_it_counts_tokens_with_the_workloads_model(workload, alice):
    upload = _extract(workload, alice, ("terms.txt", TEXT.encode()), ("logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"))
    document = Document.objects.get(workload=workload)
    assert document.name == "terms.txt" and document.text == TEXT and document.lines == 2
    assert document.tokens == len(load_tokenizer()(TEXT)["input_ids"])
    assert document.origin.upload == upload and read_file(document.origin) == TEXT.encode()
    kept, skipped = upload.items.order_by("kept")[1], upload.items.order_by("kept")[0]
    assert (kept.name, kept.tokens, kept.document) == ("terms.txt", document.tokens, document)
    assert skipped.name == "logo.png" and not skipped.kept and "png" in skipped.detail.lower()
    assert upload.files_done == 2 and upload.finished_at is not None


def test_it_skips_a_document_that_would_pass_the_token_limit(workload, alice):
    tokens = len(load_tokenizer()(TEXT)["input_ids"])
    with override_settings(WORKLOAD_MAX_TOKENS=tokens + 5):
        upload = _extract(workload, alice, ("a.txt", TEXT.encode()), ("b.txt", TEXT.encode()))
    assert list(Document.objects.values_list("name", flat=True)) == ["a.txt"]
    b = upload.items.get(name="b.txt")
    assert not b.kept and "limit" in b.detail


def test_it_skips_a_name_already_in_the_workload(workload, alice):
    _extract(workload, alice, ("terms.txt", TEXT.encode()))
    upload = _extract(workload, alice, ("terms.txt", b"Something else entirely.\n"))
    assert Document.objects.get(workload=workload).text == TEXT
    assert "already" in upload.items.get().detail


def test_a_failure_part_way_saves_nothing(workload, alice, monkeypatch):
    calls = []

    def failing_tokenizer(text):
        calls.append(text)
        if len(calls) == 2:
            raise RuntimeError("tokenizer crashed")
        return {"input_ids": [1, 2, 3]}

    monkeypatch.setattr(tasks, "_tokenizer", lambda name: failing_tokenizer)
    upload = store_upload(
        workload, alice, [SimpleUploadedFile("a.txt", TEXT.encode()), SimpleUploadedFile("b.txt", TEXT.encode())]
    )
    with pytest.raises(RuntimeError):
        extract_upload(upload.pk)
    upload.refresh_from_db()
    assert upload.status == Upload.Status.FAILED and "tokenizer crashed" in upload.error
    assert not Document.objects.exists() and not upload.items.exists()
