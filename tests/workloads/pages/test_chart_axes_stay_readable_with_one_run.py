"""Chart axes read as people expect whatever the history holds: dates tick by the day even for one run, dollars
never go below $0 for a lone point, and long strategy names get room instead of running into each other."""

import datetime as dt

from tests.workloads.pages.conftest import make_run, standard_report
from workloads.reporting import page_charts
from workloads.reporting.page_charts import DAY_MS


def _charts(workload) -> dict:
    return {chart.name: chart for chart in page_charts.workload_charts(workload)[0]}


def test_one_runs_date_axis_ticks_by_the_day(workload, probe, prices):
    make_run(workload, standard_report(probe), created_at=dt.datetime(2026, 3, 1, 14, 30, tzinfo=dt.UTC))

    charts = _charts(workload)
    for chart in (charts["cost-over-time"], charts["accuracy-over-time"]):
        xaxis = chart.figure["layout"]["xaxis"]
        assert (xaxis["type"], xaxis["tickformat"], xaxis["dtick"]) == ("date", "%-d %b %Y", DAY_MS)
        assert xaxis["range"] == ["2026-02-28T00:00:00+00:00", "2026-03-03T00:00:00+00:00"]


def test_a_long_history_ticks_where_plotly_likes_but_by_the_date(workload, probe, prices):
    for month in (1, 4, 7):
        make_run(workload, standard_report(probe), created_at=dt.datetime(2026, month, 1, tzinfo=dt.UTC))

    xaxis = _charts(workload)["cost-over-time"].figure["layout"]["xaxis"]
    assert xaxis["tickformat"] == "%-d %b %Y" and "dtick" not in xaxis and "range" not in xaxis


def test_dollar_axes_never_go_below_zero(workload, probe, prices):
    run = make_run(workload, standard_report(probe))

    charts = _charts(workload)
    assert charts["cost-over-time"].figure["layout"]["yaxis"]["rangemode"] == "tozero"
    assert charts["unit-cost-over-time"].figure["layout"]["yaxis"]["rangemode"] == "tozero"
    xaxis = page_charts.cost_vs_quality(run).figure["layout"]["xaxis"]
    assert (xaxis["tickprefix"], xaxis["rangemode"]) == ("$", "tozero")


def test_a_history_of_zero_dollars_draws_from_zero_up(workload, probe, prices):
    prices["cpu"].per_hour = 0
    prices["cpu"].save()
    make_run(workload, standard_report(probe))

    assert _charts(workload)["cost-over-time"].figure["layout"]["yaxis"]["range"] == [0, 1]


def test_long_strategy_names_get_room(workload, probe, prices):
    run = make_run(workload, standard_report(probe))

    flops = page_charts.flop_breakdown(run).figure["layout"]
    assert flops["xaxis"]["tickangle"] == -30 and flops["xaxis"]["automargin"] and flops["yaxis"]["automargin"]
    # The legend sits above the plot, where plotly makes room for it, not under the axis's tick labels.
    for chart in (flops, page_charts.cost_vs_quality(run).figure["layout"]):
        assert chart["legend"]["y"] > 1 and chart["legend"]["yanchor"] == "bottom"
    # Strategies that cost and score alike no longer print their names over each other: the legend names them.
    assert {t["mode"] for t in page_charts.cost_vs_quality(run).figure["data"]} == {"markers"}
