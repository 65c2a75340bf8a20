"""Figures for the pages, built with plotly and handed to templates as plain JSON.

Each chart has a stable name: its element is `<div id="chart-<name>" data-chart="<name>">`,
and static/js/charts.js draws every such element with Plotly.newPlot. A chart with
nothing to plot carries a sentence instead of a figure. Dollar charts leave unpriced
results out and say so in a note, worded as in the PDF (workloads.reporting.chart_notes): a missing
price is never plotted as $0. Refused strategies are left out of every chart; the page
says so once (refusal_notes), not under each chart.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
from collections.abc import Iterable
from dataclasses import dataclass

import plotly.graph_objects as go
from django.core.cache import cache
from django.utils import timezone
from django.utils.html import json_script

from engine.core.run_settings import name as strategy_name
from workloads.models import ComparisonRun, StrategyResult, Workload
from engine.core.run_settings import STRATEGIES
from workloads.comparisons import sweep_starting
from workloads.reporting import chart_cache, chart_notes

# One colour per strategy on every chart, so a reader can follow a strategy from chart to chart (distinct hues for
# up to twelve strategies; the first five keep the colours they have always had).
PALETTE = ("#1b6ca8", "#7b3294", "#c2410c", "#5b8c2a", "#444444", "#0e9f9a", "#b8860b", "#d6336c", "#6b7280",
           "#2f4b7c", "#a05195", "#8fbc8f")
COLOURS = dict(zip(STRATEGIES, PALETTE, strict=False))
COMPONENT_COLOURS = {"attention": "#1b6ca8", "indexer": "#c2410c", "linear": "#9ca3af"}


@dataclass(frozen=True)
class Chart:
    name: str
    title: str
    # The plotly figure as the page's <script type="application/json"> element (Django's json_script), written once
    # when the chart is built: serialising and escaping four figures took 7% of the workload page's CPU, on every
    # view of a chart read from the cache. "" when there is nothing to plot.
    script: str
    empty: str = ""  # the sentence shown instead of a chart
    notes: tuple[str, ...] = ()  # what was left out, and why

    @property
    def element_id(self) -> str:
        return f"chart-{self.name}"

    @property
    def data_id(self) -> str:
        return f"chart-{self.name}-data"

    @property
    def figure(self) -> dict | None:
        """The figure as data, read back from its element (json_script's escapes are JSON's own)."""
        if not self.script:
            return None
        return json.loads(self.script[self.script.index(">") + 1:-len("</script>")])


def _chart(name: str, title: str, figure: go.Figure | None, empty: str = "", notes: Iterable[str] = ()) -> Chart:
    script = json_script(json.loads(figure.to_json()), f"chart-{name}-data") if figure is not None else ""
    return Chart(name, title, script, empty, tuple(dict.fromkeys(notes)))


def _figure(xaxis: str, yaxis: str, **layout) -> go.Figure:
    # The legend sits above the plot, where plotly widens the margin to fit it, and the axes make room for their
    # own tick labels and titles (automargin): below the plot, a legend of long strategy names ran into them. Its
    # entries are small and packed, so that eleven strategies take two or three lines rather than half the chart.
    fig = go.Figure()
    fig.update_layout(
        template="none", height=400, margin=dict(l=70, r=20, t=56, b=50), hovermode="closest",
        font=dict(family="system-ui, sans-serif", size=13),
        legend=dict(orientation="h", x=0, xanchor="left", y=1.02, yanchor="bottom", font=dict(size=11),
                    itemwidth=30, tracegroupgap=0),
        xaxis=dict(title=dict(text=xaxis), gridcolor="#e5e7eb", zeroline=False, automargin=True),
        yaxis=dict(title=dict(text=yaxis), gridcolor="#e5e7eb", rangemode="tozero", automargin=True), **layout,
    )
    return fig


def _dollar_axis(axis: dict, values: Iterable[float]) -> None:
    """Dollars start at $0: a lone point (or only $0) would otherwise be centred in a range from -$0.5. Ticks are
    plain numbers: plotly's default SI prefixes read "$500µ" for $0.0005."""
    axis.update(tickprefix="$", tickformat=",.3~r", rangemode="tozero")
    top = max(values, default=0)
    if not top:
        axis.update(range=[0, 1])  # plotly has no span to scale when every value is $0


# Runs are dated by the day (a quarter's runs are months apart); within a few days plotly would tick by the hour,
# and a lone run by the millisecond, so short spans get one tick a day.
DAY_MS = 24 * 3600 * 1000
DAILY_TICKS_BELOW = dt.timedelta(days=10)


def _date_axis(fig: go.Figure, dates: list[dt.datetime]) -> None:
    fig.update_xaxes(type="date", tickformat="%-d %b %Y", hoverformat="%-d %b %Y %H:%M")
    first, last = min(dates), max(dates)
    if last - first < DAILY_TICKS_BELOW:
        start = first.replace(hour=0, minute=0, second=0, microsecond=0) - dt.timedelta(days=1)
        end = last.replace(hour=0, minute=0, second=0, microsecond=0) + dt.timedelta(days=2)
        fig.update_xaxes(range=[start.isoformat(), end.isoformat()], tick0=start.isoformat(), dtick=DAY_MS)


def _label(run: int, created_at: dt.datetime) -> str:
    return f"run {run} of {timezone.localtime(created_at):%-d %b %Y}"


@dataclass(frozen=True)
class Point:
    """One strategy result as the charts read it, in plain values: a chart is built from these alone, so that it can
    be cached under them (workloads.reporting.chart_cache)."""

    run: int
    label: str  # "run 3 of 4 Dec 2026", on the page's clock
    when: dt.datetime  # the run's queue time, on the page's clock
    strategy: str
    refused: str
    pricing_error: str
    device_dollars: float | None
    unit_device_dollars: float | None
    accuracy_percent: float | None
    gated: bool
    flops: tuple[float, float, float]  # attention, indexer, linear, as COMPONENT_COLOURS orders them


# What a Point reads of a result and its run, in the order of a row of them (_row_points).
POINT_FIELDS = ("run", "strategy", "refused", "device_dollars", "accuracy", "gated", "flops_attention",
                "flops_indexer", "flops_linear", "run__created_at", "run__pricing_error", "run__units_of_work")


def _points(results: Iterable[StrategyResult]) -> tuple[Point, ...]:
    return _row_points((r.run_id, r.strategy, r.refused, r.device_dollars, r.accuracy, r.gated, r.flops_attention,
                        r.flops_indexer, r.flops_linear, r.run.created_at, r.run.pricing_error, r.run.units_of_work)
                       for r in results)


def _row_points(rows: Iterable[tuple]) -> tuple[Point, ...]:
    """Points from rows of POINT_FIELDS."""
    labels: dict[int, tuple[str, dt.datetime]] = {}  # per run, not per result: localtime is not free
    points = []
    for run, strategy, refused, dollars, accuracy, gated, attention, indexer, linear, created_at, error, units in rows:
        if run not in labels:
            labels[run] = (_label(run, created_at), timezone.localtime(created_at))
        label, when = labels[run]
        # StrategyResult.unit_device_dollars, from the row
        unit_dollars = dollars / units if dollars is not None and units else None
        percent = None if accuracy is None else round(accuracy * 100, 2)
        points.append(Point(run, label, when, strategy, refused, error, dollars, unit_dollars, percent, gated,
                            (attention, indexer, linear)))
    return tuple(points)


# What a succeeded run's rows in the charts (POINT_FIELDS) can change with. Its results are written once, before it
# succeeds; after that only pricing.price_run writes them (their dollars), and it stamps the run's priced_at and
# pricing_error in the same transaction. Its created_at and units_of_work are set by then; a run deleted leaves the
# stamp. tests/workloads/pages/test_the_workload_charts_follow_a_repricing.py holds the page to it.
RUN_STAMP = ("pk", "created_at", "units_of_work", "pricing_error", "priced_at")


def _history(workload: Workload) -> tuple[tuple, ...]:
    """Every strategy result of the workload's succeeded runs, oldest run first, as rows of the columns a Point reads:
    decoding each run's whole report once per result was most of the workload page's time, and making a result and
    a run object of each row most of what remained."""
    # The engine's runs: an endpoint's are read beside them on their own run pages (workloads.comparisons.batches).
    return tuple(StrategyResult.objects.filter(run__workload=workload, run__status=ComparisonRun.Status.SUCCEEDED,
                                               run__reader="")
                 .order_by("run__created_at", "run__pk", "pk").values_list(*POINT_FIELDS))


def _refusals(points: Iterable[Point]) -> list[str]:
    return [f"{strategy_name(p.strategy)} was refused in {p.label}: {p.refused}" for p in points if p.refused]


def refusal_notes(results: Iterable[StrategyResult]) -> list[str]:
    """What the charts leave out because the engine refused it, said once per page, under its charts."""
    return _refusals(_points(results))


class WorkloadCharts:
    """The workload page's charts and the refusals said under them, as `drawn`, under `key`: a digest of what they
    are drawn from. They are read from the cache, or drawn, only when `drawn` is first asked for, so a page that keeps
    their HTML under the key reads neither."""

    def __init__(self, workload: Workload):
        # Kept under what its succeeded runs' rows can change with (RUN_STAMP), read in one small query: the history's
        # rows themselves, 8 a run, were a tenth of the page's CPU. On a miss the history is read and the charts are
        # drawn from it, themselves cached under its rows, so a stamp that changed with rows that did not draws
        # nothing.
        self.workload, self.zone = workload, timezone.get_current_timezone_name()
        self.stamp = tuple(workload.runs.filter(status=ComparisonRun.Status.SUCCEEDED, reader="")
                           .order_by("created_at", "pk").values_list(*RUN_STAMP))
        self.key = chart_cache.key("workload_charts", (workload.pk, workload.unit, self.zone, self.stamp))

    @functools.cached_property
    def drawn(self) -> tuple[list[Chart], list[str]]:
        charts = cache.get(self.key)
        if charts is None:
            latest = self.stamp[-1][:2] if self.stamp else None  # the latest succeeded run's (pk, created_at)
            charts = _workload_charts(self.workload.unit, self.zone, latest, _history(self.workload))
            cache.set(self.key, charts, chart_cache.TIMEOUT_S)
        return charts


def workload_charts(workload: Workload) -> tuple[list[Chart], list[str]]:
    """The workload page's charts and the refusals said under them."""
    return WorkloadCharts(workload).drawn


@chart_cache.cached
def _workload_charts(unit: str, zone: str, latest: tuple[int, dt.datetime] | None,
                     history: tuple[tuple, ...]) -> tuple[list[Chart], list[str]]:
    # `zone` is the clock the labels are on (the current time zone): in the cache key, not read here.
    points = _row_points(history)
    if latest is None:
        quality = _cost_vs_quality(False, None, ())
    else:  # the latest succeeded run's results are the history's last ones
        quality = _cost_vs_quality(True, _label(*latest), tuple(p for p in points if p.run == latest[0]))
    charts = [
        # Device dollars per strategy for each succeeded run, at the prices in force on the run's date.
        _over_time("cost-over-time", "Device cost per strategy", "device dollars per run", "device_dollars",
                   "dollar figure", True, points),
        _over_time("accuracy-over-time", "Accuracy per strategy", "probes answered correctly (%)", "accuracy_percent",
                   "accuracy", False, points),
        _over_time("unit-cost-over-time", f"Device cost per {unit}", f"device dollars per {unit}",
                   "unit_device_dollars", f"dollar figure per {unit}", True, points),
        quality,
    ]
    return charts, _refusals(points)


def _unpriced_notes(points: Iterable[Point]) -> list[str]:
    return [chart_notes.unpriced(p.label, p.pricing_error)
            for p in points if not p.refused and p.device_dollars is None]


@chart_cache.cached
def _over_time(name: str, title: str, yaxis: str, field: str, missing: str, dollars: bool,
               points: tuple[Point, ...]) -> Chart:
    if not points:
        return _chart(name, title, None, "No comparison has finished yet, so there is no history to chart.")
    notes = _unpriced_notes(points) if dollars else []
    notes += [chart_notes.no_value(strategy_name(p.strategy), p.label, missing) for p in points
              if not p.refused and getattr(p, field) is None and not (dollars and p.device_dollars is None)]
    fig = _figure("run date", yaxis)
    plotted = []
    for strategy in STRATEGIES:
        drawn = [p for p in points if p.strategy == strategy and not p.refused and getattr(p, field) is not None]
        plotted += drawn
        if drawn:
            fig.add_trace(go.Scatter(
                x=[p.when.isoformat() for p in drawn], y=[getattr(p, field) for p in drawn],
                text=[p.label for p in drawn], name=strategy_name(strategy), mode="lines+markers",
                line=dict(color=COLOURS[strategy]),
                hovertemplate="%{text}<br>%{y}<extra>" + strategy_name(strategy) + "</extra>",
            ))
    if not fig.data:
        return _chart(name, title, None, "None of the finished comparisons has a value to chart here.", notes)
    _date_axis(fig, [p.when for p in plotted])
    if dollars:
        _dollar_axis(fig.layout.yaxis, [getattr(p, field) for p in plotted])
    return _chart(name, title, fig, notes=notes)


def cost_vs_quality(run: ComparisonRun) -> Chart:
    """Device dollars against accuracy for one run, gated strategies marked (a workload's latest succeeded run's is
    among workload_charts)."""
    if run.status != ComparisonRun.Status.SUCCEEDED:
        return _cost_vs_quality(False, None, ())
    return _cost_vs_quality(True, None, _points(run.results.all()))


@chart_cache.cached
def _cost_vs_quality(finished: bool, latest: str | None, points: tuple[Point, ...]) -> Chart:
    name, title = "cost-vs-quality", "Cost against quality"
    if not finished:
        return _chart(name, title, None, "There is no finished comparison to plot yet.")
    notes = _unpriced_notes(points)
    if latest is not None:
        notes.insert(0, f"From the latest finished comparison, {latest}.")
    priced = [p for p in points if not p.refused and p.device_dollars is not None and p.accuracy_percent is not None]
    if not priced:
        return _chart(name, title, None, "No strategy in this comparison has both a price and an accuracy.", notes)
    fig = _figure("device dollars per run", "probes answered correctly (%)")
    _dollar_axis(fig.layout.xaxis, [p.device_dollars for p in priced])
    # One legend entry per strategy instead of a text label by each point: strategies that cost and score about
    # the same would print their long names over each other. A gated strategy is drawn as an x and says so.
    for p in priced:
        label = f"{strategy_name(p.strategy)} (quality-gated)" if p.gated else strategy_name(p.strategy)
        fig.add_trace(go.Scatter(
            x=[p.device_dollars], y=[p.accuracy_percent], name=label, mode="markers", cliponaxis=False,
            marker=dict(size=12, symbol="x" if p.gated else "circle", color=COLOURS.get(p.strategy, "#444444")),
            hovertemplate="$%{x}<br>%{y}%<extra>" + label + "</extra>",
        ))
    return _chart(name, title, fig, notes=notes)


def flop_breakdown(run: ComparisonRun) -> Chart:
    """Ledger FLOPs per strategy, stacked by component: attention, indexer, linear."""
    return _flop_breakdown(tuple(p for p in _points(run.results.all()) if not p.refused))


@chart_cache.cached
def _flop_breakdown(ran: tuple[Point, ...]) -> Chart:
    name, title = "flop-breakdown", "FLOPs by component"
    if not ran:
        return _chart(name, title, None, "This run has no measured strategies yet.")
    fig = _figure("strategy", "FLOPs (ledger)", barmode="stack")
    fig.update_xaxes(tickangle=-30)  # full_sliding_window and its neighbours do not fit side by side
    for i, component in enumerate(COMPONENT_COLOURS):
        fig.add_trace(go.Bar(x=[strategy_name(p.strategy) for p in ran], y=[p.flops[i] for p in ran],
                             name=component, marker=dict(color=COMPONENT_COLOURS[component])))
    fig.update_yaxes(exponentformat="SI", ticksuffix="FLOP")
    return _chart(name, title, fig)


@chart_cache.cached
def planning(projection) -> Chart:
    """Projected cost per question against context length; FLOPs when there are no dollars to show.
    `projection` (workloads.comparisons.planning.Projection) is a frozen dataclass of plain values."""
    name, title = "planning", "Projected cost against context length"
    if not projection.lengths:
        return _chart(name, title, None, "There is nothing to project yet.")
    if projection.device_dollars is not None or projection.api_dollars is not None:
        fig = _figure("context length (tokens)", "dollars per question")
        fig.update_yaxes(tickprefix="$")
        lines = (("device", projection.device_dollars, "solid"), ("API", projection.api_dollars, "dot"))
        for label, series, dash in lines:
            for strategy, values in (series or {}).items():
                fig.add_trace(go.Scatter(x=projection.lengths, y=values, name=f"{strategy_name(strategy)}, {label}",
                                         mode="lines+markers",
                                         line=dict(color=COLOURS.get(strategy, "#444444"), dash=dash)))
        measured = projection.measured
        for strategy, values in ((measured.dollars or {}) if measured else {}).items():
            # Markers alone, at the lengths measured: a measured point is not joined to the projection's lines.
            fig.add_trace(go.Scatter(x=measured.lengths, y=values, name=f"{strategy_name(strategy)}, {measured.label}",
                                     mode="markers", marker=dict(color=COLOURS.get(strategy, "#444444"),
                                                                 symbol="diamond", size=10)))
    else:
        fig = _figure("context length (tokens)", "FLOPs per question (ledger)")
        fig.update_yaxes(exponentformat="SI", ticksuffix="FLOP")
        for strategy, values in projection.flops.items():
            fig.add_trace(go.Scatter(x=projection.lengths, y=values, name=strategy_name(strategy), mode="lines+markers",
                                     line=dict(color=COLOURS.get(strategy, "#444444"))))
    fig.update_xaxes(type="log", exponentformat="SI")
    if projection.has_zero_dollars:
        fig.update_yaxes(type="linear", rangemode="tozero")
    else:
        fig.update_yaxes(type="log", rangemode="normal")
    return _chart(name, title, fig, notes=chart_notes.projection_notes(projection))


def group_sweep(sweep, against: str) -> Chart:
    """A group-size sweep's accuracy, with its 95% interval, against its ledger FLOPs or its device seconds (`against`
    "flops" or "seconds"); calibrated arms drawn as squares, the recommended arm as a diamond."""
    name = f"sweep-{against}"
    title = f"Accuracy against {'ledger FLOPs' if against == 'flops' else 'device seconds'}, by group size"
    report = sweep.report
    if not report:
        return _chart(name, title, None, "The sweep has not finished, so there is nothing to chart yet.")
    fig = _figure("ledger FLOPs for the probes" if against == "flops" else "device seconds for the probes",
                  "probes answered correctly (%)")
    for point in sweep_starting.arms(report):
        accuracy = point["quality"]["accuracy"] * 100
        low, high = (bound * 100 for bound in point["quality"]["ci95"])
        chosen = point["recommended"]
        fig.add_trace(go.Scatter(
            x=[point[against]], y=[accuracy], mode="markers+text", text=[point["name"].replace(" calibrated", " cal")],
            textposition="top right", name=point["name"] + (" (recommended)" if chosen else ""),
            error_y=dict(type="data", symmetric=False, array=[high - accuracy], arrayminus=[accuracy - low]),
            marker=dict(size=13 if chosen else 10,
                        symbol="diamond" if chosen else "square" if point["calibrated"] else "circle"),
        ))
    if against == "flops":
        fig.update_xaxes(exponentformat="SI", ticksuffix="FLOP")
    fig.update_yaxes(range=[0, 105])
    return _chart(name, title, fig)
