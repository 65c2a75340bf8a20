"""Charts plot what was measured and priced; what they leave out, they say, and a missing price is never $0."""

import datetime as dt

from tests.workloads.pages.conftest import make_run, standard_report
from workloads.reporting import page_charts

# Charts name strategies as managers read them.
INDEX_SHARE, DENSE, CHUNKED = "Whole documents (Index Share)", "Whole documents (dense)", "Ask every chunk"


def _points(chart) -> dict:
    return {t["name"]: t["y"] for t in chart.figure["data"]}


def _charts(workload) -> tuple[dict, list[str]]:
    """The workload page's charts by name, and the refusals said under them."""
    charts, refusals = page_charts.workload_charts(workload)
    return {chart.name: chart for chart in charts}, refusals


def test_dollar_charts_leave_unpriced_runs_out_with_a_note(workload, probe, prices):
    march = make_run(workload, standard_report(probe), created_at=dt.datetime(2026, 3, 1, tzinfo=dt.UTC))
    june = make_run(workload, standard_report(probe, device="NVIDIA L4"),
                    created_at=dt.datetime(2026, 6, 1, tzinfo=dt.UTC))

    charts, refusals = _charts(workload)
    cost = charts["cost-over-time"]
    assert cost.element_id == "chart-cost-over-time" and cost.name == "cost-over-time"
    assert _points(cost) == {INDEX_SHARE: [0.001], DENSE: [0.002], CHUNKED: [0.0005]}
    assert any(f"run {june.pk} of 1 Jun 2026 is left out because it has no dollar figures: no GPU price" in n
               for n in cost.notes)
    # Said once, under the page's charts (the refusals beside them), not in every chart's notes.
    assert not any("was refused" in n for n in cost.notes)
    assert [n for n in refusals if f"run {march.pk} of 1 Mar 2026" in n] == [
        f"Whole documents (sliding window) was refused in run {march.pk} of 1 Mar 2026: longer than the model's 8192 "
        "positions"]

    unit = charts["unit-cost-over-time"]
    assert _points(unit)[DENSE] == [0.0005]  # $0.002 over 4 contracts
    assert unit.title == "Device cost per contract"

    accuracy = charts["accuracy-over-time"]  # accuracy needs no price: both runs are there
    assert _points(accuracy) == {INDEX_SHARE: [100.0, 100.0], DENSE: [100.0, 100.0],
                                 CHUNKED: [0.0, 0.0]}


def test_cost_against_quality_marks_the_gated_strategies(workload, probe, prices):
    run = make_run(workload, standard_report(probe))
    chart = page_charts.cost_vs_quality(run)
    traces = {t["name"]: t for t in chart.figure["data"]}
    assert list(traces) == [INDEX_SHARE, DENSE, f"{CHUNKED} (quality-gated)"]
    assert traces[f"{CHUNKED} (quality-gated)"]["marker"]["symbol"] == "x"
    assert [traces[name]["marker"]["symbol"] for name in (INDEX_SHARE, DENSE)] == ["circle", "circle"]
    assert (traces[INDEX_SHARE]["x"], traces[DENSE]["x"]) == ([0.001], [0.002])


def test_an_unpriced_run_has_no_cost_against_quality_chart(workload, probe, prices):
    run = make_run(workload, standard_report(probe, device="NVIDIA L4"))
    chart = page_charts.cost_vs_quality(run)
    assert chart.figure is None and chart.empty == "No strategy in this comparison has both a price and an accuracy."
    assert any("no GPU price covers the device" in n for n in chart.notes)


def test_an_empty_history_gives_a_sentence_instead_of_a_chart(workload):
    charts, refusals = page_charts.workload_charts(workload)
    assert [chart.name for chart in charts] == ["cost-over-time", "accuracy-over-time", "unit-cost-over-time",
                                                 "cost-vs-quality"]
    for chart in charts:
        assert chart.figure is None and chart.empty
    assert refusals == []
