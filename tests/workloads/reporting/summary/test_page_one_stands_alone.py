"""PDF page one is the decision and stands alone (issue 36): the recommendation, every strategy's row with the
recommended one first, costs with their measured range, accuracy as a range, the chart, at most three short reasons,
and neither an identifier nor a statistic's name. Rendered for a held-out-sized run of every strategy and for the
standard run."""

import io
import re

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from engine.core import run_settings, stats
from tests.workloads.pages.conftest import answer, make_run, report, strategy
from tests.workloads.reporting.summary.conftest import DEVICE
from workloads.reporting.recommendation import recommendation
from workloads.reporting.summary.render import render_summary

# What a manager must not meet on page one: the strategies' identifiers and the statistics' names.
IDENTIFIERS = re.compile(r"\b(full_\w+|\w+_cached|routed|chunked|pooled_mass|topk)\b", re.IGNORECASE)
STATISTICS = ("McNemar", "p =", "p-value", "F1", "Wilson", "FLOP", "top-1", "overlap", "±", "μ")


def _page(pdf: bytes, index: int) -> tuple[str, int]:
    """A page's text (whitespace collapsed) and how many images it places; every character must lie on the page."""
    document = pdfium.PdfDocument(io.BytesIO(pdf))
    try:
        page = document[index]
        textpage = page.get_textpage()
        rightmost = max(textpage.get_charbox(i)[2] for i in range(textpage.count_chars()))
        assert rightmost <= page.get_width(), f"text runs off the page's right edge ({rightmost:.0f} pt)"
        text = " ".join(textpage.get_text_range().split()).replace("– ", "–")  # a range split at its dash
        return text, len(list(page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE])))
    finally:
        document.close()


def _gated(entries: dict) -> dict:
    """The entries with the three-way gate a real comparison stores (engine.core.stats.gates on their answers)."""
    ran = {name: [a["correct"] for a in e["probes"]] for name, e in entries.items() if "refused" not in e}
    for name, gate in stats.gates(ran, 5.0).items():
        entries[name]["quality"] |= {"gate": gate.call, "mcnemar_p": gate.p_value,
                                     "probes_to_tell": gate.probes_to_tell, "gated": gate.call == "gated"}
    return entries


def _every_strategy(probe) -> dict:
    """Eleven strategies on six questions, as a held-out run of every strategy: seconds and rights differ, rates
    spread as on a loaded machine, one refused."""
    entries = {}
    for i, name in enumerate(run_settings.STRATEGIES):
        if name == "full_sliding_window":
            entries[name] = {"mode": "sliding_window", "refused": "longer than the model's 8192 positions"}
            continue
        right = [k < 6 - i % 4 for k in range(6)]
        entries[name] = strategy(run_settings.full_mode(name) or "dense", seconds=20.0 + 7 * i, accuracy=sum(right) / 6,
                                 answers=[answer(probe, "90 days" if r else "30 days", r) for r in right],
                                 indexer=4e9 if "index_share" in name else 0.0) | {
            "rate": {"median": 1.0, "min": 0.8, "max": 1.3}}
    return report(_gated(entries), DEVICE)


def _check_page_one(run) -> str:
    pdf, _ = render_summary(run)
    page_one, images = _page(pdf, 0)
    chosen = recommendation(run)
    assert chosen.sentence in page_one
    assert images == 1, "the chart belongs on page one"
    for result in run.results.all():
        assert run_settings.name(result.strategy) in page_one, result.strategy
    recommended = run_settings.name(chosen.recommended)
    first_row = page_one.index(recommended, page_one.index("Right answers"))
    assert all(page_one.index(run_settings.name(r.strategy), page_one.index("Right answers")) >= first_row
               for r in run.results.all())
    assert not IDENTIFIERS.search(page_one), IDENTIFIERS.search(page_one)
    assert not [word for word in STATISTICS if word in page_one]
    assert "Appendix" not in page_one
    return page_one


def test_a_run_of_every_strategy_fits_page_one_with_its_chart(workload, probe, prices):
    run = make_run(workload, _every_strategy(probe))
    page_one = _check_page_one(run)
    # Accuracy as a range with its count, and a cost with its measured range.
    assert re.search(r"\d of 6 \(\d+–\d+%\)", page_one)
    assert re.search(r"\$[\d.]+ \(\$[\d.]+–\$[\d.]+\)", page_one)


def test_the_standard_run_fits_page_one(workload, probe, prices):
    _check_page_one(make_run(workload, report(_gated({
        "full_index_share": strategy("index_share", seconds=36.0, accuracy=1.0, answers=[answer(probe, "90 days", True)],
                                     indexer=5e10),
        "chunked": strategy("dense", seconds=18.0, accuracy=0.0, answers=[answer(probe, "NONE", False)], calls=4),
    }), DEVICE)))
