"""A probes.jsonl uploaded through the document form was stored as a document, putting the expected answers in the
corpus, with no warning (issue 36). Now the upload asks first, on the page and in the API."""

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.workloads.pages.conftest import html
from workloads.documents.probe_files import looks_like_probes
from workloads.models import Upload

PROBES = b'{"question": "What is the notice period?", "answer": "90 days"}\n'


def test_probe_files_are_told_apart_from_documents():
    assert looks_like_probes("probes.jsonl", PROBES)
    assert looks_like_probes("gate.csv", b"\xef\xbb\xbfQuestion,Answer,kind\nA?,B,\n")
    assert not looks_like_probes("transcript.json", b'{"speaker": "agent", "text": "hello"}')
    assert not looks_like_probes("contract.txt", PROBES)
    assert not looks_like_probes("prices.csv", b"item,price\npallet,18\n")


def test_the_page_asks_before_storing_probes_as_a_document(alice_client, workload, monkeypatch):
    monkeypatch.setattr("workloads.workers.dispatch.queue_extraction", lambda pk: None)
    url = reverse("upload_create", args=[workload.pk])

    response = alice_client.post(url, {"files": [SimpleUploadedFile("probes.jsonl", PROBES)]})
    page = html(response)
    assert response.status_code == 400 and not Upload.objects.exists()
    assert "probes.jsonl looks like probes (questions with their answers)" in page
    assert 'name="store_probe_files"' in page and reverse("probe_import", args=[workload.pk]) in page

    response = alice_client.post(url, {"files": [SimpleUploadedFile("probes.jsonl", PROBES)], "store_probe_files": "on"})
    assert response.status_code == 302 and Upload.objects.count() == 1

