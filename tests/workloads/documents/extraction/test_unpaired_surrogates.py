"""JSON may escape half of a UTF-16 surrogate pair ("\\ud800"); such text cannot be stored as UTF-8.

json.loads turns the escape into a lone surrogate, which PostgreSQL (through psycopg) refuses, and that used to
fail the whole upload.
"""

from django.core.files.uploadedfile import SimpleUploadedFile

from workloads.documents.extraction import extract_file
from workloads.documents.intake import store_upload
from workloads.models import Document, Upload
from workloads.tasks import extract_upload

from .builders import LIMITS

JSON = b'{"note": "broken \\ud800 escape", "emoji": "\\ud83d\\ude00"}'
JSONL = b'{"role": "user", "content": "hi \\udc00"}\n{"role": "assistant", "content": "hello"}\n'


def test_lone_surrogates_become_replacement_characters_and_pairs_are_kept():
    [json_entry] = extract_file("a.json", JSON, LIMITS)
    [jsonl_entry] = extract_file("b.jsonl", JSONL, LIMITS)

    assert json_entry.text == '{\n  "note": "broken \ufffd escape",\n  "emoji": "\U0001f600"\n}'
    assert jsonl_entry.text == "user: hi \ufffd\nassistant: hello"


def test_the_upload_task_stores_them(workload, alice):
    upload = store_upload(workload, alice, [SimpleUploadedFile("a.json", JSON), SimpleUploadedFile("b.jsonl", JSONL)])

    extract_upload(upload.pk)

    upload.refresh_from_db()
    assert upload.status == Upload.Status.DONE
    assert sorted(Document.objects.values_list("name", flat=True)) == ["a.json", "b.jsonl"]
