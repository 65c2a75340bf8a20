"""Storing and extracting an upload takes memory for about one file, whatever the number of files (or of a ZIP's
members): 50 files of 20 MiB took a worker from 626 MB to 3,763 MB when every file's bytes were read in one query.

Each side runs in a fresh process (benchmarks/upload_memory.py's children) against the test database, and reports
its peak resident memory (VmHWM) above its baseline.
"""

import zipfile

import pytest
from django.db import connection

from benchmarks.upload_memory import MIB, run_child, write_text_files
from tests.workloads.live import database_url
from workloads.models import Upload

pytestmark = pytest.mark.django_db(transaction=True)

FILE_BYTES = 4 * MIB
MANY = 10
# Larger than the default limit, so that a file read whole would stand out from the process's own few MB.
LARGE_FILE_BYTES = 40 * MIB


def _stored(workload, tmp_path, count: int, size: int = FILE_BYTES, **env) -> dict:
    folder = tmp_path / f"{count}-files"
    folder.mkdir()
    write_text_files(folder, count, size)
    return run_child("store", str(workload.pk), str(folder), env={**_env(), **env})


def _stored_zip(workload, tmp_path, members: int) -> dict:
    """One ZIP of `members` text files of FILE_BYTES each, stored as an upload. Each member repeats one clause, so
    the archive itself is small (about 1/1000 of its text) and what extraction holds is the members' text."""
    folder = tmp_path / f"{members}-members"
    folder.mkdir()
    with zipfile.ZipFile(folder / "contracts.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        for index in range(members):
            clause = f"Clause {index}: the supplier delivers within ten business days of each order.\n"
            archive.writestr(f"contract-{index}.txt", (clause * (FILE_BYTES // len(clause) + 1))[:FILE_BYTES])
    return run_child("store", str(workload.pk), str(folder), env=_env())


def _extracted(upload_pk: int) -> dict:
    measured = run_child("extract", str(upload_pk), env=_env())
    assert measured["status"] == Upload.Status.DONE, measured["error"]
    return measured


def _env() -> dict:
    # A workload near its token limit: every file is refused by the token floor, before the tokenizer (whose own
    # memory is bounded by the limit, not by the number of files) is given any of them.
    return {"DATABASE_URL": database_url(connection.settings_dict), "WORKLOAD_MAX_TOKENS": "1000"}


def test_a_worker_extracting_many_files_needs_no_more_memory_than_for_one(workload, tmp_path):
    one = _extracted(_stored(workload, tmp_path, 1)["upload"])
    many = _extracted(_stored(workload, tmp_path, MANY)["upload"])
    assert many["files_done"] == MANY
    # Today's code held every file's bytes at once, and psycopg's hex text of them: over 3 MB per MB uploaded.
    assert many["growth_mb"] * 1e6 < one["growth_mb"] * 1e6 + FILE_BYTES * (MANY - 1) / 4, (one, many)


def test_a_zip_is_read_a_member_at_a_time(workload, tmp_path):
    one = _extracted(_stored_zip(workload, tmp_path, 1)["upload"])
    stored = _stored_zip(workload, tmp_path, MANY)
    many = _extracted(stored["upload"])
    # Every member was read (and refused by the token floor), and no more than one member's text was held at once:
    # before, the archive's every member was read into one list first, text and all.
    assert Upload.objects.get(pk=stored["upload"]).items.count() == MANY
    assert many["growth_mb"] * 1e6 < one["growth_mb"] * 1e6 + FILE_BYTES * (MANY - 1) / 4, (one, many)


def test_the_request_side_never_holds_a_file_whole(workload, tmp_path):
    stored = _stored(workload, tmp_path, 1, LARGE_FILE_BYTES, UPLOAD_MAX_FILE_BYTES=str(LARGE_FILE_BYTES))
    assert Upload.objects.get(pk=stored["upload"]).files.get().size_bytes == LARGE_FILE_BYTES
    assert stored["growth_mb"] * 1e6 < LARGE_FILE_BYTES / 2, stored
