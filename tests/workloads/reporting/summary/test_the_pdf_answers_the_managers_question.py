"""The PDF's page one is the whole summary (the recommendation, a short table, one chart); the appendix follows with
costs, accuracy, charts, prices with sources, versions and methods."""

import io
import subprocess

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image

from tests.workloads.reporting.summary.conftest import DEVICE, pdf_text
from workloads.models import ComparisonRun
from workloads.reporting.recommendation import recommendation
from workloads.reporting.summary import pdf_charts
from workloads.reporting.summary.render import render_summary

METHOD_HEADINGS = ["How the numbers were measured", "The baseline: chunking", "Full context, dense",
                   "Full context, naive sparse", "Full context, sliding window", "Whole documents (Index Share)",
                   "Cost", "Accuracy and the quality gate", "Changes since the previous period",
                   "Projection against context length"]
CHART_TITLES = ["Cost per contract against accuracy, with their uncertainty (colours as in the table)", "Device cost per contract: 2027-Q1 against the period before",
                "Accuracy per strategy, with the quality gate", "Device cost per contract over time",
                "Accuracy over time", "Projected cost per question against context length"]


def _chart_images(pdf: bytes) -> list[tuple[int, int]]:
    """Pixel sizes of the images placed on the pages."""
    document = pdfium.PdfDocument(io.BytesIO(pdf))
    try:
        return [image.get_px_size() for page in document
                for image in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE])]
    finally:
        document.close()


def _page_text(pdf: bytes, index: int) -> str:
    document = pdfium.PdfDocument(io.BytesIO(pdf))
    try:
        return " ".join(document[index].get_textpage().get_text_range().split())
    finally:
        document.close()


def test_the_pdf_states_the_decision_and_the_figures_behind_it(this_quarter, last_quarter, prices, artefacts):
    run = this_quarter
    assert run.changes["previous_period"] == "2026-Q4"  # recorded by pricing: the summary has changes to show
    # The documents each read, as the task records them: a new version of the contract since last quarter.
    ComparisonRun.objects.filter(pk=run.pk).update(documents=[{"name": "msa.txt", "tokens": 1234, "sha256": "ab" * 32}])
    ComparisonRun.objects.filter(pk=last_quarter.pk).update(
        documents=[{"name": "msa.txt", "tokens": 1200, "sha256": "cd" * 32}])

    pdf, pages = render_summary(run)

    assert pdf.startswith(b"%PDF-")
    assert pages == len(pdfium.PdfDocument(io.BytesIO(pdf))) >= 2
    text = pdf_text(pdf)
    # Page one is the whole summary: the title, the recommendation and its reasons, a short table, one chart.
    chosen = recommendation(run)
    assert chosen.sentence.startswith("Recommended: Whole documents (Index Share), $0.00875 per contract, answers 1 of 1 questions (21–100%)")
    page_one = _page_text(pdf, 0)
    assert page_one.index("Supplier contracts: does full context pay off?") < page_one.index(chosen.sentence)
    # Three short reasons on page one; the rest (the API view, refusals) open the appendix.
    assert all(reason in page_one for reason in chosen.reasons[:3])
    assert all(reason not in page_one and reason in text for reason in chosen.reasons[3:])
    assert "At about 40 contracts a month, on your device: whole documents (Index Share) $0.35" in page_one
    assert "● Ask every chunk $0.00438 0 of 1 (0–79%) left out" in page_one
    assert "Cost per contract against accuracy, with their uncertainty" in page_one
    assert "Appendix" not in page_one and "Appendix" in _page_text(pdf, 1)
    # What changed since last quarter: the alert, and this quarter's cost against last quarter's.
    assert "Whole documents (Index Share) costs 20% more than in 2026-Q4" in text
    assert "Cost in 2027-Q1 against 2026-Q4" in text
    assert "Documents: 1 changed (msa.txt); 1,200 → 1,234 tokens." in text
    assert "$0.035 $0.0292 +20.0% $0.00875 $0.00729 +20.0%" in text  # workload cost, then per contract
    assert "Whole documents (sliding window) was refused: longer than the model's 8192 positions" in text
    # Accuracy with the gate.
    assert "Ask every chunk 0% 1 0% +0.0 gated: more than 5 points below the best" in text
    # The price book entries used, with their dates and sources.
    for source in (prices["h200"].source, prices["api"].source):
        assert source in text
    assert "H200 at $3.50 an hour 1 Jan 2026" in text
    assert "$0.10 in and $0.30 out per million tokens 1 Jan 2026" in text
    # Model, device and versions.
    for value in (run.model, DEVICE, "engine abc123", "torch 2.13.0", "transformers 5.24.0", "Indexer pooled attention mass",
                  "Documents 1 document, 1,234 tokens"):
        assert value in text
    # How it was measured, with the baselines defined.
    for heading in METHOD_HEADINGS:
        assert heading in text
    assert "chunks of at most 512 tokens" in text and "repeating the last 64 tokens" in text
    assert ("There are as many groups as groups of 4 layers make; where each starts: calibrated on the workload's "
            "documents") in text
    assert "Index Share's groups calibrated on the workload's documents" in text  # the settings table: the default
    # Every chart is drawn: one image per chart, at the size the charts module draws them.
    assert all(title in text for title in CHART_TITLES)
    size = (round(pdf_charts.WIDTH_IN * pdf_charts.DPI), round(pdf_charts.HEIGHT_IN * pdf_charts.DPI))
    page_one = (size[0], round(pdf_charts.PAGE_ONE_HEIGHT_IN * pdf_charts.DPI))  # shorter, beside the table
    assert _chart_images(pdf) == [page_one] + [size] * (len(CHART_TITLES) - 1)
    # Pages numbered.
    assert f"Page 1 of {pages}" in text and f"Page {pages} of {pages}" in text

    # The first two pages as PNG, for a person to look at.
    (artefacts / "summary.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "2", str(artefacts / "summary.pdf"),
                    str(artefacts / "summary-page")], check=True, timeout=60)
    for number in (1, 2):
        png = artefacts / f"summary-page-{number}.png"
        assert png.stat().st_size > 20_000
        with Image.open(png) as image:
            assert image.size == (497, 702)  # A4 at 60 dpi, rounded up
            assert len(image.convert("L").getcolors(maxcolors=256 * 256) or []) > 50  # not a blank page
