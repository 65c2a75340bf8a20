"""POST /workloads/{id}/probes/import: a JSON Lines or CSV file of probes, all added, or none and a 400 naming each
bad line (issue 36)."""

from django.core.files.uploadedfile import SimpleUploadedFile

from tests.workloads.pages.test_probes_are_imported_in_bulk_all_or_none import GOOD_CSV


def _send(api, path: str, file):
    return api.client.post("/api" + path, {"file": file}, headers=api.headers)


def test_the_api_imports_all_or_answers_which_lines_are_bad(as_alice, workload):
    url = f"/workloads/{workload.pk}/probes/import"
    created = _send(as_alice, url, SimpleUploadedFile("p.csv", GOOD_CSV.encode()))
    assert created.status_code == 201 and [p["answer"] for p in created.json()] == ["90 days", "Dana Reyes"]

    refused = _send(as_alice, url, SimpleUploadedFile("p.jsonl", b'{"question": "Q?", "answer": ""}\n'))
    assert refused.status_code == 400 and refused.json()["detail"].startswith("nothing was imported: line 1: answer")
    assert workload.probes.count() == 2
