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
import json
from collections.abc import Iterable
from dataclasses import dataclass

import plotly.graph_objects as go
from django.utils import timezone

from engine.run_settings import name as strategy_name
from workloads.models import ComparisonRun, StrategyResult, Workload
from workloads.models.comparison_runs import STRATEGIES
from workloads.reporting import chart_notes

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
    figure: dict | None  # the plotly figure as JSON-ready data; None when there is nothing to plot
    empty: str = ""  # the sentence shown instead of a chart
    notes: tuple[str, ...] = ()  # what was left out, and why

    @property
    def element_id(self) -> str:
        return f"chart-{self.name}"

    @property
    def data_id(self) -> str:
        return f"chart-{self.name}-data"


def _chart(name: str, title: str, figure: go.Figure | None, empty: str = "", notes: Iterable[str] = ()) -> Chart:
    data = json.loads(figure.to_json()) if figure is not None else None
    return Chart(name, title, data, empty, tuple(dict.fromkeys(notes)))


def _figure(xaxis: str, yaxis: str, **layout) -> go.Figure:
    # The legend sits above the plot, where plotly widens the margin to fit it, and the axes make room for their
    # own tick labels and titles (automargin): below the plot, a legend of long strategy names ran into them. The
    # top margin keeps the legend under plotly's toolbar.
    fig = go.Figure()
    fig.update_layout(
        template="none", height=400, margin=dict(l=70, r=20, t=56, b=50), hovermode="closest",
        font=dict(family="system-ui, sans-serif", size=13),
        legend=dict(orientation="h", x=0, xanchor="left", y=1.02, yanchor="bottom"),
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


def _run_label(run: ComparisonRun) -> str:
    return f"run {run.pk} of {timezone.localtime(run.created_at):%-d %b %Y}"


def _history(workload: Workload) -> list[StrategyResult]:
    """Every strategy result of the workload's succeeded runs, oldest run first."""
    return list(StrategyResult.objects.filter(run__workload=workload, run__status=ComparisonRun.Status.SUCCEEDED)
                .select_related("run").order_by("run__created_at", "run__pk", "pk"))


def refusal_notes(results: Iterable[StrategyResult]) -> list[str]:
    """What the charts leave out because the engine refused it, said once per page, under its charts."""
    return [f"{strategy_name(r.strategy)} was refused in {_run_label(r.run)}: {r.refused}" for r in results if r.refused]


def workload_refusals(workload: Workload) -> list[str]:
    return refusal_notes(_history(workload))


def _unpriced_notes(results: Iterable[StrategyResult]) -> list[str]:
    return [chart_notes.unpriced(_run_label(r.run), r.run.pricing_error)
            for r in results if not r.refused and r.device_dollars is None]


def _over_time(name: str, title: str, workload: Workload, yaxis: str, value, *, missing: str, dollars: bool) -> Chart:
    results = _history(workload)
    if not results:
        return _chart(name, title, None, "No comparison has finished yet, so there is no history to chart.")
    notes = _unpriced_notes(results) if dollars else []
    notes += [chart_notes.no_value(strategy_name(r.strategy), _run_label(r.run), missing)
              for r in results if not r.refused and value(r) is None and not (dollars and r.device_dollars is None)]
    fig = _figure("run date", yaxis)
    plotted = []
    for strategy in STRATEGIES:
        points = [(r.run, value(r)) for r in results if r.strategy == strategy and not r.refused]
        points = [(timezone.localtime(run.created_at), run, y) for run, y in points if y is not None]
        plotted += points
        if points:
            fig.add_trace(go.Scatter(
                x=[when.isoformat() for when, _, _ in points], y=[y for _, _, y in points],
                text=[_run_label(run) for _, run, _ in points], name=strategy_name(strategy), mode="lines+markers",
                line=dict(color=COLOURS[strategy]),
                hovertemplate="%{text}<br>%{y}<extra>" + strategy_name(strategy) + "</extra>",
            ))
    if not fig.data:
        return _chart(name, title, None, "None of the finished comparisons has a value to chart here.", notes)
    _date_axis(fig, [when for when, _, _ in plotted])
    if dollars:
        _dollar_axis(fig.layout.yaxis, [y for _, _, y in plotted])
    return _chart(name, title, fig, notes=notes)


def cost_over_time(workload: Workload) -> Chart:
    """Device dollars per strategy for each succeeded run, at the prices in force on the run's date."""
    return _over_time("cost-over-time", "Device cost per strategy", workload, "device dollars per run",
                      lambda r: r.device_dollars, missing="dollar figure", dollars=True)


def accuracy_over_time(workload: Workload) -> Chart:
    return _over_time("accuracy-over-time", "Accuracy per strategy", workload, "probes answered correctly (%)",
                      lambda r: None if r.accuracy is None else round(r.accuracy * 100, 2), missing="accuracy",
                      dollars=False)


def unit_cost_over_time(workload: Workload) -> Chart:
    return _over_time("unit-cost-over-time", f"Device cost per {workload.unit}", workload,
                      f"device dollars per {workload.unit}", lambda r: r.unit_device_dollars,
                      missing=f"dollar figure per {workload.unit}", dollars=True)


def cost_vs_quality(subject: ComparisonRun | Workload) -> Chart:
    """Device dollars against accuracy for one run (a workload's latest succeeded one), gated strategies marked."""
    name, title = "cost-vs-quality", "Cost against quality"
    run = subject if isinstance(subject, ComparisonRun) else (
        subject.runs.filter(status=ComparisonRun.Status.SUCCEEDED).first())
    if run is None or run.status != ComparisonRun.Status.SUCCEEDED:
        return _chart(name, title, None, "There is no finished comparison to plot yet.")
    results = list(run.results.select_related("run"))
    notes = _unpriced_notes(results)
    if isinstance(subject, Workload):
        notes.insert(0, f"From the latest finished comparison, {_run_label(run)}.")
    priced = [r for r in results if not r.refused and r.device_dollars is not None and r.accuracy is not None]
    if not priced:
        return _chart(name, title, None, "No strategy in this comparison has both a price and an accuracy.", notes)
    fig = _figure("device dollars per run", "probes answered correctly (%)")
    _dollar_axis(fig.layout.xaxis, [r.device_dollars for r in priced])
    # One legend entry per strategy instead of a text label by each point: strategies that cost and score about
    # the same would print their long names over each other. A gated strategy is drawn as an x and says so.
    for r in priced:
        label = f"{strategy_name(r.strategy)} (quality-gated)" if r.gated else strategy_name(r.strategy)
        fig.add_trace(go.Scatter(
            x=[r.device_dollars], y=[round(r.accuracy * 100, 2)], name=label, mode="markers", cliponaxis=False,
            marker=dict(size=12, symbol="x" if r.gated else "circle", color=COLOURS.get(r.strategy, "#444444")),
            hovertemplate="$%{x}<br>%{y}%<extra>" + label + "</extra>",
        ))
    return _chart(name, title, fig, notes=notes)


def flop_breakdown(run: ComparisonRun) -> Chart:
    """Ledger FLOPs per strategy, stacked by component: attention, indexer, linear."""
    name, title = "flop-breakdown", "FLOPs by component"
    ran = [r for r in run.results.select_related("run") if not r.refused]
    if not ran:
        return _chart(name, title, None, "This run has no measured strategies yet.")
    fig = _figure("strategy", "FLOPs (ledger)", barmode="stack")
    fig.update_xaxes(tickangle=-30)  # full_sliding_window and its neighbours do not fit side by side
    for component in ("attention", "indexer", "linear"):
        fig.add_trace(go.Bar(x=[strategy_name(r.strategy) for r in ran], y=[getattr(r, f"flops_{component}") for r in ran],
                             name=component, marker=dict(color=COMPONENT_COLOURS[component])))
    fig.update_yaxes(exponentformat="SI", ticksuffix="FLOP")
    return _chart(name, title, fig)


def planning(projection) -> Chart:
    """Projected cost per question against context length; FLOPs when there are no dollars to show."""
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
            fig.add_trace(go.Scatter(x=projection.lengths, y=values, name=f"{strategy_name(strategy)}, {measured.label}",
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
