"""PDF and DOCX files are read in a child process with a deadline: a file that takes longer is refused."""

import dataclasses
import time

from workloads.documents.extraction import extract_file

from .builders import LIMITS, make_docx_bomb


def test_it_refuses_a_docx_that_takes_longer_than_allowed_to_read():
    slow = make_docx_bomb(600_000)  # 34 MB of XML: several seconds of python-docx, whatever the machine
    started = time.monotonic()

    limits = dataclasses.replace(LIMITS, reader_timeout_s=1, max_archive_bytes=200 * 2**20)  # the default unpack limit

    [entry] = extract_file("slow.docx", slow, limits)

    assert (entry.kept, entry.detail) == (False, "DOCX takes more than 1 s to read: refused")
    assert time.monotonic() - started < 10
