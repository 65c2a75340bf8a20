"""The notes the charts print under themselves, on the pages (workloads.reporting.page_charts, plotly) and in the PDF
(workloads.reporting.summary.pdf_charts, matplotlib): one wording for one fact, wherever it is charted.

A missing price is never drawn as $0: what a chart leaves out, or draws otherwise than a reader would expect,
a note says.
"""

from __future__ import annotations

# A projection's $0 costs (Projection.has_zero_dollars) make its dollars a linear axis.
ZERO_DOLLARS = "Some costs are $0 (a price of $0), which a logarithmic axis cannot draw: the dollar axis is linear."
NO_DEVICE_DOLLARS = "Device dollars are not shown: there is no measured run to calibrate them, or no GPU price."
NO_API_DOLLARS = "API dollars are not shown: no API price is in force for the workload's model."
FLOPS_INSTEAD = "No dollars to show: the chart shows the ledger's FLOPs instead."


def unpriced(subject: str, why: str | None) -> str:
    """`subject` (a run, a strategy) is left out of a dollar chart; `why`: the run's pricing error, if it has one."""
    return f"{subject} is left out because it has no dollar figures: {why or 'it has not been priced yet'}"


def no_value(strategy: str, where: str, missing: str) -> str:
    """A strategy that ran in `where` (a run) but has no `missing` (its accuracy, say) to plot."""
    return f"{strategy} in {where} has no {missing} and is left out."


def projection_notes(projection) -> list[str]:
    """What a projection chart (a workloads.comparisons.planning Projection) says about the dollars it draws or cannot
    draw."""
    if projection.device_dollars is None and projection.api_dollars is None:
        return [FLOPS_INSTEAD]
    notes = []
    if projection.device_dollars is None:
        notes.append(NO_DEVICE_DOLLARS)
    if projection.api_dollars is None:
        notes.append(NO_API_DOLLARS)
    if projection.has_zero_dollars:
        notes.append(ZERO_DOLLARS)
    return notes
