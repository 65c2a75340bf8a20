"""The API refuses to store a file of probes as a document unless told to (issue 36)."""

from django.core.files.uploadedfile import SimpleUploadedFile

from tests.workloads.documents.test_a_file_of_probes_is_not_stored_as_a_document_unasked import PROBES


def test_the_api_refuses_it_unless_told(as_alice, workload, monkeypatch):
    monkeypatch.setattr("workloads.workers.dispatch.queue_extraction", lambda pk: None)
    path = f"/workloads/{workload.pk}/documents"
    refused = as_alice.upload(path, [SimpleUploadedFile("probes.jsonl", PROBES)])
    assert refused.status_code == 400 and refused.json()["detail"].endswith("send store_probe_files=true to store them")
    assert as_alice.upload(path, [SimpleUploadedFile("probes.jsonl", PROBES)], store_probe_files="true"
                           ).status_code == 202
