"""The PDF's charts, drawn with matplotlib on the Agg canvas and embedded as PNG data URIs.

No pyplot: each chart is its own Figure, so nothing is shared between charts or threads, and
the same data always gives the same bytes. Colours are the pages' (workloads.reporting.page_charts.COLOURS), so
a strategy looks the same on screen and on paper. A missing price is never drawn as $0: such
points are left out and the chart says so, worded as on the pages (workloads.reporting.chart_notes).
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator, PercentFormatter

from engine.core.run_settings import name as strategy_name
from workloads.formatting import dollars
from workloads.reporting import chart_notes
from workloads.reporting.page_charts import COLOURS
from workloads.reporting.recommendation import inputs as decision_inputs

WIDTH_IN, HEIGHT_IN, DPI = 7.0, 2.7, 200
PAGE_ONE_HEIGHT_IN = 2.0  # page one's chart shares the page with the table of every strategy
PREVIOUS_COLOUR = "#b8c4d0"


@dataclass(frozen=True)
class Chart:
    name: str
    title: str
    image: str | None  # a data: URI; None when there is nothing to draw
    empty: str = ""  # the sentence printed instead
    notes: tuple[str, ...] = ()


def all_charts(content) -> list[Chart]:
    """The appendix's charts; page one has `decision` alone."""
    return [unit_cost_this_and_last(content), accuracy_with_gate(content), cost_over_time(content),
            accuracy_over_time(content), projection(content.projection)]


def decision(content) -> Chart:
    """Page one's chart: what the recommendation weighs, each strategy's cost per unit of work against its accuracy,
    with the Wilson 95% interval and the cost at the lowest and highest measured rate as error bars. It has no
    legend: page one's table above it marks each strategy with its colour, and a legend of up to eleven names took
    half the chart's width."""
    options, view = decision_inputs(content.run)
    points = [o for o in options if o.ran and o.cost is not None]
    name, title = "decision", f"Cost per {view.unit} against accuracy, with their uncertainty"
    if not points:
        return Chart(name, title, None, "No strategy was measured, so there is nothing to chart.")
    fig, ax = _figure(f"cost per {view.unit} ({view.basis.split(':')[0]})", "right answers",
                      height=PAGE_ONE_HEIGHT_IN)
    for o in points:
        low, high = o.interval
        cost_low, cost_high = o.cost_range or (o.cost, o.cost)
        ax.errorbar([o.cost], [o.accuracy * 100], yerr=[[(o.accuracy - low) * 100], [(high - o.accuracy) * 100]],
                    xerr=[[o.cost - cost_low], [cost_high - o.cost]], fmt="o", capsize=3,
                    color=COLOURS.get(o.strategy, "#444444"), label=strategy_name(o.strategy))
    ax.set_ylim(0, 105)
    ax.set_xlim(left=0)
    ax.yaxis.set_major_formatter(PercentFormatter(decimals=0))
    ax.xaxis.set_major_locator(MaxNLocator(nbins=5, min_n_ticks=3))  # money labels are wide: few ticks, no overlap
    ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _: view.money(value)))
    return Chart(name, title + " (colours as in the table)", _png(fig))


def _figure(xlabel: str, ylabel: str, height: float = HEIGHT_IN) -> tuple[Figure, object]:
    fig = Figure(figsize=(WIDTH_IN, height), dpi=DPI, layout="constrained")
    ax = fig.add_subplot()
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(axis="y", color="#e5e7eb", linewidth=0.8)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    return fig, ax


def _png(fig: Figure) -> str:
    buffer = io.BytesIO()
    # No Software or date metadata: the same chart gives the same bytes.
    FigureCanvasAgg(fig).print_png(buffer, metadata={"Software": None})
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


_dollar_axis = FuncFormatter(lambda value, _: dollars(value))


def unit_cost_this_and_last(content) -> Chart:
    name, title = "unit-cost-periods", f"Device cost per {content.unit}: {content.run.period} against the period before"
    rows = [row for row in content.ran if row.result.unit_device_dollars is not None]
    notes = [chart_notes.unpriced(row.name, content.pricing_error)
             for row in content.ran if row.result.unit_device_dollars is None]
    if not rows:
        return Chart(name, title, None, "No strategy in this run has a price, so there is no cost to chart.",
                     tuple(notes))
    fig, ax = _bars(f"device dollars per {content.unit}", [row.name for row in rows])
    ys = range(len(rows))
    previous = [row.previous_unit_cost for row in rows]
    if any(value is not None for value in previous):
        ax.barh([y + 0.2 for y in ys], [v or 0 for v in previous], height=0.4, color=PREVIOUS_COLOUR,
                label=content.previous_period or "previous period")
        ax.barh([y - 0.2 for y in ys], [row.result.unit_device_dollars for row in rows], height=0.4,
                color=[COLOURS.get(row.strategy, "#444444") for row in rows], label=content.run.period)
        fig.legend(frameon=False, loc="outside upper right", ncols=2)
        notes += [f"{row.name} was not {'measured' if row.change is None else 'priced'} in {content.previous_period}."
                  for row, v in zip(rows, previous, strict=True) if v is None]
    else:
        ax.barh(list(ys), [row.result.unit_device_dollars for row in rows], height=0.5,
                color=[COLOURS.get(row.strategy, "#444444") for row in rows])
        notes.append("There is no earlier period's run to compare with, so only this period is shown.")
    ax.xaxis.set_major_locator(MaxNLocator(nbins=5, min_n_ticks=3))
    ax.xaxis.set_major_formatter(_dollar_axis)
    return Chart(name, title, _png(fig), notes=tuple(notes))


def _bars(xlabel: str, names: list[str]) -> tuple[Figure, object]:
    """A horizontal bar chart, a strategy a row, first at the top: eleven strategies' names, slanted under upright
    bars, ran into each other."""
    fig, ax = _figure(xlabel, "")
    ax.grid(axis="y", visible=False)
    ax.grid(axis="x", color="#e5e7eb", linewidth=0.8)
    ax.set_yticks(range(len(names)), names, fontsize="small")
    ax.invert_yaxis()
    return fig, ax


def accuracy_with_gate(content) -> Chart:
    name, title = "accuracy-gate", "Accuracy per strategy, with the quality gate"
    rows = [row for row in content.ran if row.result.accuracy is not None]
    if not rows:
        return Chart(name, title, None, "No strategy in this run has an accuracy to chart.")
    fig, ax = _bars("questions answered right", [row.name + (" (gated)" if row.result.gated else "") for row in rows])
    values = [row.result.accuracy * 100 for row in rows]
    bars = ax.barh(range(len(rows)), values, height=0.5,
                   color=[COLOURS.get(row.strategy, "#444444") for row in rows])
    for bar, row in zip(bars, rows, strict=True):
        if row.result.gated:
            bar.set_hatch("///")
            bar.set_edgecolor("white")
    gate = max(values) - content.run.gate_points
    ax.axvline(gate, color="#b91c1c", linestyle="--", linewidth=1.2,
               label=f"quality gate: {content.run.gate_points:g} points below the best ({gate:.1f}%)")
    ax.set_xlim(0, 105)
    ax.xaxis.set_major_formatter(PercentFormatter(decimals=0))
    fig.legend(frameon=False, loc="outside upper right")
    return Chart(name, title, _png(fig))


def _over_time(content, name: str, title: str, ylabel: str, value, *, missing: str, dollars_axis: bool) -> Chart:
    runs = content.history
    labels = [f"{run.period}\nrun {run.pk}" for run in runs]
    position = {run.pk: i for i, run in enumerate(runs)}
    fig, ax = _figure("period and run", ylabel)
    notes, drawn = [], False
    for strategy, colour in COLOURS.items():
        points = [(position[r.run_id], value(r)) for r in content.history_results
                  if r.strategy == strategy and not r.refused]
        left_out = [content.history[x] for x, y in points if y is None]
        notes += [chart_notes.no_value(strategy_name(strategy), f"run {run.pk}", missing)
                  for run in left_out]
        points = [(x, y) for x, y in points if y is not None]
        if points:
            drawn = True
            ax.plot([x for x, _ in points], [y for _, y in points], marker="o", color=colour,
                    label=strategy_name(strategy))
    if not drawn:
        return Chart(name, title, None, "None of the workload's finished runs has a figure to chart here.",
                     tuple(notes))
    ax.set_xticks(range(len(runs)), labels)
    ax.set_xlim(-0.5, len(runs) - 0.5)
    ax.legend(frameon=False, fontsize="small", loc="center left", bbox_to_anchor=(1.0, 0.5))
    if dollars_axis:
        ax.yaxis.set_major_formatter(_dollar_axis)
        ax.set_ylim(bottom=0)
    else:
        ax.set_ylim(0, 105)
        ax.yaxis.set_major_formatter(PercentFormatter(decimals=0))
    return Chart(name, title, _png(fig), notes=tuple(dict.fromkeys(notes)))


def cost_over_time(content) -> Chart:
    return _over_time(content, "cost-over-time", f"Device cost per {content.unit} over time",
                      f"device dollars per {content.unit}", lambda r: r.unit_device_dollars,
                      missing=f"dollar figure per {content.unit}", dollars_axis=True)


def accuracy_over_time(content) -> Chart:
    return _over_time(content, "accuracy-over-time", "Accuracy over time", "right answers",
                      lambda r: None if r.accuracy is None else r.accuracy * 100, missing="accuracy",
                      dollars_axis=False)


def _tokens(value: float, _=None) -> str:
    return f"{value / 1024 / 1024:g}M" if value >= 1024 * 1024 else f"{value / 1024:g}K"


def projection(projection) -> Chart:
    name, title = "projection", "Projected cost per question against context length"
    fig, ax = _figure("context length (tokens of documents per question)", "")
    series = [("device", projection.device_dollars, "-"), ("API", projection.api_dollars, ":")]
    in_dollars = projection.device_dollars is not None or projection.api_dollars is not None
    if in_dollars:
        ax.set_ylabel("dollars per question")
        for label, values, style in series:
            for strategy, ys in (values or {}).items():
                ax.plot(projection.lengths, ys, linestyle=style, marker="o", markersize=3,
                        color=COLOURS.get(strategy, "#444444"), label=f"{strategy_name(strategy)}, {label}")
    else:
        ax.set_ylabel("FLOPs per question (ledger)")
        for strategy, ys in projection.flops.items():
            ax.plot(projection.lengths, ys, marker="o", markersize=3, color=COLOURS.get(strategy, "#444444"),
                    label=strategy_name(strategy))
    ax.set_xscale("log", base=2)
    if projection.has_zero_dollars:
        ax.set_ylim(bottom=0)
    else:
        ax.set_yscale("log")
    if in_dollars:
        ax.yaxis.set_major_formatter(_dollar_axis)  # after set_yscale, which installs its own formatter
    ax.set_xticks(projection.lengths, [_tokens(n) for n in projection.lengths])
    ax.minorticks_off()
    ax.grid(axis="x", color="#e5e7eb", linewidth=0.8)
    ax.legend(frameon=False, fontsize="small", loc="center left", bbox_to_anchor=(1.0, 0.5))
    return Chart(name, title, _png(fig), notes=tuple(chart_notes.projection_notes(projection)))
