"""In a real Celery worker (whose pool processes are daemonic, and may not start multiprocessing children), PDF and
DOCX files are read in a child process: normal files are kept, a decompression bomb is refused under the memory cap
set in the environment, and the worker lives on to extract the next upload."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.workloads.live import wait_for
from workloads.documents.intake import accept_upload
from workloads.models import Upload

from .builders import make_docx, make_pdf, make_pdf_bomb


@pytest.fixture
def worker_env() -> dict[str, str]:
    return {"EXTRACTION_MAX_MEMORY_BYTES": str(256 * 2**20)}


def _finished(upload: Upload) -> Upload | None:
    upload.refresh_from_db()
    return upload if upload.finished else None


@pytest.mark.worker
def test_a_worker_keeps_normal_files_and_refuses_a_bomb_under_the_memory_cap(celery_worker, workload, alice):
    upload = accept_upload(workload, alice, [
        SimpleUploadedFile("lease.pdf", make_pdf("Lease agreement", "Signed in Lyon")),
        SimpleUploadedFile("offer.docx", make_docx(["Offer for ACME", "Prices below."])),
        SimpleUploadedFile("bomb.pdf", make_pdf_bomb(50 * 2**20)),
    ])
    wait_for(lambda: _finished(upload), 180, "the upload's extraction", every=0.5)
    assert upload.status == Upload.Status.DONE, upload.error or celery_worker.read_text()[-3000:]
    assert [(item.name, item.kept, item.detail) for item in upload.items.all()] == [
        ("lease.pdf", True, "PDF, 2 pages"),
        ("offer.docx", True, "DOCX, 2 paragraphs"),
        ("bomb.pdf", False, "PDF needs more than 256.0 MiB of memory to read: refused"),
    ]
    assert workload.documents.get(name="offer.docx").text == "Offer for ACME\nPrices below."

    again = accept_upload(workload, alice, [SimpleUploadedFile("notes.pdf", make_pdf("Still here"))])
    wait_for(lambda: _finished(again), 120, "the next upload's extraction", every=0.5)
    assert [(item.name, item.kept) for item in again.items.all()] == [("notes.pdf", True)]
