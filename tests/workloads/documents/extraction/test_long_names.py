"""A name too long for the database skips that one file, with its reason; it never fails the whole upload.

ZIP member paths can be 65,535 bytes long, and Document.name ("{archive}/{member path}") holds 500 characters.
"""

import io
import warnings
import zipfile

from django.core.files.uploadedfile import SimpleUploadedFile

from workloads.documents.extraction import MAX_NAME_LENGTH, extract_file
from workloads.documents.intake import store_upload
from workloads.models import Document, Upload, UploadItem
from workloads.tasks import extract_upload

from .builders import LIMITS, by_name, make_zip, make_zip_with_symlink

LONG_PATH = "d/" + "a" * 600 + ".txt"
REASON = f"name too long: {len('docs.zip/' + LONG_PATH)} characters, limit 500"


def test_the_limit_is_the_one_the_database_holds():
    assert MAX_NAME_LENGTH == Document._meta.get_field("name").max_length
    # Kept documents store their member path, and every file gets a report line under its name.
    assert Document._meta.get_field("source_path").max_length >= MAX_NAME_LENGTH
    assert UploadItem._meta.get_field("name").max_length >= MAX_NAME_LENGTH


def test_a_member_with_a_long_path_is_skipped_and_the_others_are_kept():
    entries = extract_file("docs.zip", make_zip({LONG_PATH: "too long\n", "ok.txt": "kept\n"}), LIMITS)

    [long, ok] = entries
    assert (ok.name, ok.kept, ok.text) == ("docs.zip/ok.txt", True, "kept\n")
    assert (long.kept, long.detail, long.text, long.lines) == (False, REASON, None, 0)
    # The report still names the file: its start and its end (the file name), cut in the middle.
    assert len(long.name) == MAX_NAME_LENGTH and len(long.source_path) <= MAX_NAME_LENGTH
    assert long.name.startswith("docs.zip/d/aaa") and long.name.endswith("aaa.txt") and "…" in long.name
    assert long.size_bytes == len("too long\n")


def test_a_name_of_exactly_the_limit_is_kept():
    path = "a" * (MAX_NAME_LENGTH - len("docs.zip/") - len(".txt")) + ".txt"

    [entry] = extract_file("docs.zip", make_zip({path: "fits\n"}), LIMITS)

    assert (len(entry.name), entry.kept, entry.source_path) == (MAX_NAME_LENGTH, True, path)


def test_a_member_skipped_for_another_reason_keeps_that_reason_under_a_shortened_name():
    entries = extract_file("repo.zip", make_zip_with_symlink("l" * 2000, "/etc/passwd"), LIMITS)

    [link, app] = entries
    assert (link.kept, link.detail, len(link.name)) == (False, "symbolic link", MAX_NAME_LENGTH)
    assert app.kept


def test_an_ignored_directory_with_a_long_name_is_reported_under_a_shortened_name():
    directory = "n" * 1000
    data = make_zip({".gitignore": f"{directory}/\n", f"{directory}/x.js": "x", "app.py": "x = 1\n"})

    entries = extract_file("repo.zip", data, LIMITS)

    assert all(len(e.name) <= MAX_NAME_LENGTH for e in entries)
    assert [e.detail for e in entries if not e.kept] == ["git configuration", "ignored by .gitignore (1 file)"]


def test_a_repeated_name_at_the_limit_stays_within_it_and_unique():
    path = "a" * (MAX_NAME_LENGTH - len("docs.zip/") - len(".txt")) + ".txt"

    entries = extract_file("docs.zip", _zip_listing_twice(path, "one\n", "two\n"), LIMITS)

    # The older copy is skipped (the archive's last copy counts) and renamed; the kept one keeps the name.
    assert [(e.kept, e.text) for e in entries] == [(False, None), (True, "two\n")]
    assert [len(e.name) for e in entries] == [MAX_NAME_LENGTH, MAX_NAME_LENGTH] and len(by_name(entries)) == 2
    assert entries[0].name.endswith(".txt (2)") and entries[1].name.endswith(".txt")


def test_a_plain_upload_with_a_long_name_is_skipped():
    name = "r" * 600 + ".txt"

    [entry] = extract_file(name, b"text\n", LIMITS)

    assert (entry.kept, entry.detail, len(entry.name)) == (False, "name too long: 604 characters, limit 500", 500)


def test_the_upload_task_keeps_the_valid_member_and_reports_the_long_one(workload, alice):
    """Against the real PostgreSQL: a name over varchar(500) used to fail the upload with a DataError."""
    data = make_zip({LONG_PATH: "too long\n", "ok.txt": "The notice period is 90 days.\n"})
    upload = store_upload(workload, alice, [SimpleUploadedFile("docs.zip", data)])

    extract_upload(upload.pk)

    upload.refresh_from_db()
    assert (upload.status, upload.error) == (Upload.Status.DONE, "")
    document = Document.objects.get(workload=workload)
    assert (document.name, document.source_path) == ("docs.zip/ok.txt", "ok.txt")
    assert document.text == "The notice period is 90 days.\n"
    long, ok = upload.items.all()
    assert (long.kept, long.detail, long.document) == (False, REASON, None)
    assert long.name.startswith("docs.zip/d/") and long.name.endswith(".txt")
    assert (ok.kept, ok.document) == (True, document)


def _zip_listing_twice(path: str, first: str, second: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about the duplicate it is asked to write
        archive.writestr(path, first)
        archive.writestr(path, second)
    return buffer.getvalue()
