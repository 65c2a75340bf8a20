"""A first run with no prices still gets a PDF: it compares device seconds, names what is missing and draws no $0."""

from tests.workloads.reporting.summary.conftest import make_run, pdf_text, standard_report
from tests.workloads.reporting.summary.test_the_pdf_answers_the_managers_question import _chart_images
from workloads.reporting.recommendation import decision, recommendation
from workloads.reporting.summary.render import render_summary


def test_the_pdf_says_there_is_no_price_and_no_earlier_period(workload, probe):
    run = make_run(workload, standard_report(probe, "cpu"))  # Acme has no price book
    assert run.pricing_error

    pdf, pages = render_summary(run)

    text = pdf_text(pdf)
    assert pages >= 1
    assert decision(run) in text
    assert decision(run).startswith("Recommended: Whole documents (Index Share), 9 s per contract, ")  # seconds, not dollars
    assert any(r.startswith("Device view: ") and "as the run has no dollar figures" in r
               for r in recommendation(run).reasons)
    assert "There is no succeeded run from an earlier period to compare with" in text
    assert f"No price book entry was used: {run.pricing_error}" in text
    assert "No strategy in this run has a price, so there is no cost to chart." in text
    assert "None of the workload's finished runs has a figure to chart here." in text
    assert "No dollars to show: the chart shows the ledger's FLOPs instead." in text
    assert "$" not in text  # no missing price is shown as $0, nor any dollar figure made up
    assert "not priced" in text
    # Page one's cost-against-accuracy chart (in seconds), accuracy per strategy, accuracy over time and the FLOPs
    # projection are drawn; the two cost charts in dollars are not.
    assert len(_chart_images(pdf)) == 4


def test_a_gpu_priced_at_zero_still_gets_a_pdf(workload, probe, prices):
    # Owned hardware at $0/h: every dollar of device time is 0, so nothing may be divided by it.
    prices["cpu"].per_hour = 0
    prices["cpu"].save()
    run = make_run(workload, standard_report(probe, "cpu"))

    pdf, pages = render_summary(run)

    text = pdf_text(pdf)
    assert pages >= 1 and decision(run) in text
    assert any("as the run has no dollar figures (its device time is priced at $0)" in r
               for r in recommendation(run).reasons)
    assert "so device time is compared in ledger FLOPs" in text
