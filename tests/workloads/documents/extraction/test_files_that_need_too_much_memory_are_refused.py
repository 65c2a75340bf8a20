"""PDF and DOCX files are read in a child process with a memory cap: a file that needs more is refused, alone."""

import dataclasses
import time

from workloads.documents.extraction import extract_file

from .builders import LIMITS, make_docx, make_docx_bomb, make_pdf, make_pdf_bomb, make_zip

# A memory cap low enough for the files below to pass it at once, high enough for a normal file; the default limit
# on a DOCX's unpacked size, which its bomb stays under.
CAPPED = dataclasses.replace(LIMITS, max_reader_memory_bytes=256 * 2**20, max_archive_bytes=200 * 2**20)


def test_it_refuses_a_pdf_that_needs_more_memory_than_allowed():
    bomb = make_pdf_bomb(50 * 2**20)  # about 150 KB; uncapped, pdfium takes about 700 MB to read it
    started = time.monotonic()

    [entry] = extract_file("bomb.pdf", bomb, CAPPED)

    assert (entry.kept, entry.detail) == (False, "PDF needs more than 256.0 MiB of memory to read: refused")
    assert time.monotonic() - started < 20  # stopped at the cap, not read to the end


def test_it_refuses_a_docx_that_needs_more_memory_than_allowed():
    [entry] = extract_file("bomb.docx", make_docx_bomb(600_000), CAPPED)

    assert (entry.kept, entry.detail) == (False, "DOCX needs more than 256.0 MiB of memory to read: refused")


def test_it_still_reads_a_normal_pdf_and_docx_under_the_same_cap():
    [pdf] = extract_file("lease.pdf", make_pdf("Lease agreement", "Signed in Lyon"), CAPPED)
    [word] = extract_file("offer.docx", make_docx(["Offer for ACME"]), CAPPED)

    assert (pdf.kept, pdf.detail, pdf.text) == (True, "PDF, 2 pages", "Lease agreement\n\nSigned in Lyon")
    assert (word.kept, word.detail, word.text) == (True, "DOCX, 1 paragraph", "Offer for ACME")


def test_it_keeps_the_rest_of_an_archive_whose_pdf_is_refused():
    archive = make_zip({"bomb.pdf": make_pdf_bomb(50 * 2**20), "notes.txt": "Kept all the same."})

    entries = extract_file("papers.zip", archive, CAPPED)

    assert [(e.name, e.kept, e.detail) for e in entries] == [
        ("papers.zip/bomb.pdf", False, "PDF needs more than 256.0 MiB of memory to read: refused"),
        ("papers.zip/notes.txt", True, "text"),
    ]
