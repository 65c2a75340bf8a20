"""Probes imported in bulk from JSON Lines or CSV, on the page and through the API: every line checked as one probe
added by hand, each bad line named with why, and nothing saved unless all are good (issue 36: probes could only be
added one at a time)."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.workloads.pages.conftest import html
from workloads.models import Probe

GOOD_CSV = "question,answer,kind\nWhat is the notice period?,90 days,\n\"Who signs, for Acme?\",Dana Reyes,user\n"


def _post(client, workload, name: str, data: bytes):
    return client.post(reverse("probe_import", args=[workload.pk]), {"file": SimpleUploadedFile(name, data)})


def test_a_csv_file_adds_every_probe(alice_client, workload):
    response = _post(alice_client, workload, "probes.csv", GOOD_CSV.encode())
    assert response.status_code == 302
    assert sorted(workload.probes.values_list("question", "answer")) == [
        ("What is the notice period?", "90 days"), ("Who signs, for Acme?", "Dana Reyes")]


def test_json_lines_with_bad_lines_name_each_and_save_none(alice_client, workload):
    lines = [json.dumps({"question": "What is the fee?", "answer": "120 EUR"}), "",
             "{not json", json.dumps({"question": "Due?", "answer": "in\n30 days"}),
             json.dumps({"question": "Q?", "answer": "A", "colour": "red"}), json.dumps(["a list"])]
    response = _post(alice_client, workload, "probes.jsonl", "\n".join(lines).encode())

    page = html(response)
    assert response.status_code == 400 and not Probe.objects.exists()
    assert "line 3: not valid JSON" in page
    assert "line 4: answer:" in page and "line 5: colour:" in page
    assert "line 6: not an object" in page


@pytest.mark.parametrize("name, data, said", [
    ("probes.csv", b"", "The submitted file is empty"),
    ("probes.csv", b"\n \n", "probes.csv is empty"),
    ("probes.csv", b"q,a\nx,y\n", "no question or answer column (found q, a)"),
    ("probes.csv", b"question,answer\nA?,B,extra\n", "line 2: more values than the first row names columns"),
    ("probes.jsonl", b"\xff\xfe{}", "probes.jsonl is not UTF-8 text"),
    ("probes.jsonl", b'{"question": "Q?"}\n', "line 1: answer: Field required"),
    ("probes.jsonl", b'{"question": "Q?", "answer": "A"}\n' * 100_000, "larger than the 2,097,152 bytes"),
])
def test_bad_files_get_a_clear_error(alice_client, workload, name, data, said):
    response = _post(alice_client, workload, name, data)
    assert response.status_code == 400 and said in html(response) and not Probe.objects.exists()

