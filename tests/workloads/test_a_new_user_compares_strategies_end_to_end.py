"""As a new user would go: log in, create a workload, upload a PDF, a DOCX and a ZIP of source files, see the
token counts, add questions, start a comparison, watch it finish in a real Celery worker on the default model,
and see the charts and the per-probe answers."""

import io
import json
import re
import zipfile

import docx
import pytest
from fpdf import FPDF

from tests.workloads.conftest import PASSWORD
from tests.workloads.live import wait_for
from workloads.models import ComparisonRun, Document, Upload, Workload

pytestmark = [pytest.mark.model, pytest.mark.worker]


def _pdf() -> bytes:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=12)
    pdf.multi_cell(0, 8, "Services agreement between Northwind Logistics and Contoso Freight.\n"
                         "The notice period is 90 days.\nInvoices are payable within 30 days.")
    return bytes(pdf.output())


def _docx() -> bytes:
    document = docx.Document()
    document.add_paragraph("Amendment one to the services agreement.")
    document.add_paragraph("The governing law is the law of Ireland.")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _zip() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("shop/.gitignore", "build/\n")
        archive.writestr("shop/cart.py", "def cart_total(items):\n    return sum(i.price for i in items)\n")
        archive.writestr("shop/checkout.py", "from cart import cart_total\n\nMAX_RETRIES = 3\n")
        archive.writestr("shop/build/cart.py", "compiled copy\n")
        archive.writestr("shop/logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR")
    return out.getvalue()


def _upload(name: str, data: bytes, content_type: str):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, data, content_type=content_type)


def test_a_new_user_goes_from_upload_to_answers(client, alice, prices, celery_worker):
    assert client.post("/accounts/login/", {"username": "alice", "password": PASSWORD}).status_code == 302

    response = client.post("/workloads/new/", {
        "name": "Northwind contracts", "kind": "contracts", "description": "", "expected_volume": 12,
        "target_model": "SmolLM2-135M-Instruct",
        "api": json.dumps(["example-api", "SmolLM2-135M-Instruct"])})
    workload = Workload.objects.get(name="Northwind contracts")
    assert response.status_code == 302 and response["Location"].endswith(f"/workloads/{workload.pk}/")

    response = client.post(f"/workloads/{workload.pk}/upload/", {"files": [
        _upload("agreement.pdf", _pdf(), "application/pdf"),
        _upload("amendment.docx", _docx(), "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
        _upload("shop.zip", _zip(), "application/zip")]})
    assert response.status_code == 302
    upload = Upload.objects.get(workload=workload)
    wait_for(lambda: json.loads(client.get(f"/uploads/{upload.pk}/status.json").content)["finished"], 120, "extraction")
    upload.refresh_from_db()
    assert upload.status == "done", upload.error
    kept = dict(Document.objects.filter(workload=workload).values_list("name", "tokens"))
    assert set(kept) == {"agreement.pdf", "amendment.docx", "shop.zip/shop/cart.py", "shop.zip/shop/checkout.py"}
    assert all(tokens > 0 for tokens in kept.values())
    skipped = {i.name: i.detail for i in upload.items.filter(kept=False)}
    assert any("gitignore" in detail for detail in skipped.values()) and "shop.zip/shop/logo.png" in skipped

    page = client.get(f"/workloads/{workload.pk}/").content.decode()
    for name, tokens in kept.items():
        assert name in page and f"{tokens:,}" in page
    assert f"{sum(kept.values()):,}" in page  # the token total

    for question, answer in [("What is the notice period?", "90 days"), ("What is the governing law?", "Ireland")]:
        assert client.post(
            f"/workloads/{workload.pk}/probes/new/", {"question": question, "answer": answer}
        ).status_code == 302

    response = client.post(f"/workloads/{workload.pk}/runs/new/", {
        "strategies": ["chunked", "full_index_share"], "group_size": 4, "window": 256, "topk": 256, "global_blocks": 2,
        "indexer": "exact", "chunk_tokens": 128, "chunk_overlap": 16, "gate_points": 5})
    run = ComparisonRun.objects.get(workload=workload)
    assert response.status_code == 302 and response["Location"].endswith(f"/runs/{run.pk}/")
    assert "<progress" in client.get(f"/runs/{run.pk}/").content.decode()

    seen = set()

    def finished():
        status = json.loads(client.get(f"/runs/{run.pk}/status.json").content)
        seen.add(status["progress_done"])
        return status["finished"] and status

    status = wait_for(finished, 600, "the comparison", every=0.5)
    run.refresh_from_db()
    assert status["status"] == "succeeded", run.error
    assert len(seen) > 2  # the progress bar moved while it ran

    page = client.get(f"/runs/{run.pk}/").content.decode()
    assert 'data-chart="flop-breakdown"' in page and "plotly/plotly.min.js" in page
    for answer in run.results.get(strategy="full_index_share").answers.all():
        assert answer.question in page
    assert re.search(r"cpu \(\d+ threads", page)  # the device that produced it (its model follows)
    page = client.get(f"/workloads/{workload.pk}/").content.decode()
    assert 'data-chart="cost-over-time"' in page and 'data-chart="cost-vs-quality"' in page
