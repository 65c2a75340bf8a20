"""The decision in one sentence: does full context pay off against chunking for this workload?

Full context means Index Share when it ran, otherwise the best full-context strategy that did.
Cost is compared per unit of work (contract, ticket, thousand lines) at the run's prices; an
unpriced run is compared on measured device seconds instead, and says so. Accuracy is compared
in percentage points of the workload's own probes. A sentence never hides a refused strategy or
a quality gate.
"""

from __future__ import annotations

from workloads.changes import strategy_name
from workloads.models import ComparisonRun, StrategyResult
from workloads.templatetags.units import count_of, dollars, seconds

INDEX_SHARE = "full_index_share"
CHUNKED = "chunked"


def full_context_choice(results: dict[str, StrategyResult]) -> StrategyResult | None:
    """Index Share if it ran; else the full-context strategy inside the gate, most accurate, then cheapest."""
    ran = [r for name, r in results.items() if name.startswith("full_") and not r.refused]
    if not ran:
        return None
    index_share = results.get(INDEX_SHARE)
    if index_share is not None and not index_share.refused:
        return index_share
    return min(ran, key=lambda r: (r.gated, -(r.accuracy or 0), r.seconds))


def decision(run: ComparisonRun) -> str:
    results = _results(run)
    unit = run.workload.unit
    chunked = results.get(CHUNKED)
    full = full_context_choice(results)
    if chunked is None:
        return ("This run did not measure chunking, so full context has nothing to be compared with: "
                "start a comparison that includes chunked.")
    if chunked.refused:
        return f"Chunking was refused in this run ({chunked.refused}), so full context cannot be compared with it."
    if full is None:
        refused = [r for name, r in results.items() if name.startswith("full_") and r.refused]
        if refused:
            first = results.get(INDEX_SHARE) or refused[0]
            return (f"{strategy_name(first.strategy)} was refused in this run ({first.refused}), so only chunking "
                    f"was measured: chunking costs {_unit_cost(chunked, unit)}.")
        return ("This run measured no full-context strategy, so chunking has nothing to be compared with: "
                "start a comparison that includes full_index_share.")
    sentence = f"{strategy_name(full.strategy)} {_cost_clause(full, chunked, unit)}{_accuracy_clause(full, chunked)}"
    return sentence + _caveats(run, results, full, chunked) + "."


def monthly(run: ComparisonRun) -> str | None:
    """The decision in dollars a month at the workload's expected volume and this run's prices, when both are known."""
    volume, unit = run.workload.expected_volume, run.workload.unit
    results = _results(run)
    full, chunked = full_context_choice(results), results.get(CHUNKED)
    if not volume or full is None or chunked is None or chunked.refused:
        return None
    if full.unit_device_dollars is None or chunked.unit_device_dollars is None:
        return None
    # A unit's cost is the run's cost of asking every probe of every document, over the documents: say so.
    asked = f", each asked this run's {count_of(full.n_probes, 'question')}," if full.n_probes else ""
    sentence = (f"At about {count_of(volume, unit)} a month{asked} {_lower(strategy_name(full.strategy))} would cost "
                f"{dollars(full.unit_device_dollars * volume)} a month on your device, and chunking "
                f"{dollars(chunked.unit_device_dollars * volume)}")
    if full.unit_api_dollars is not None and chunked.unit_api_dollars is not None:
        sentence += (f"; an API would bill {dollars(full.unit_api_dollars * volume)} and "
                     f"{dollars(chunked.unit_api_dollars * volume)} for the same tokens")
    return sentence + "."


def _results(run: ComparisonRun) -> dict[str, StrategyResult]:
    return {r.strategy: r for r in run.results.select_related("run")}


def _unit_cost(result: StrategyResult, unit: str) -> str:
    if result.unit_device_dollars is not None:
        return f"{dollars(result.unit_device_dollars)} per {unit}"
    units = result.run.units_of_work
    return f"{seconds(result.seconds / units if units else None)} of device time per {unit}"


def _ratio_clause(ratio: float, verb: str, what: str, unit: str) -> str:
    """For example: costs 1.4× chunking per contract; costs 35% less than chunking per contract."""
    if ratio >= 1:
        figure = f"{ratio:.1f}" if ratio < 10 else f"{ratio:,.0f}"
        if figure == "1.0":
            return f"{verb} about the same as {what} per {unit}"
        return f"{verb} {figure}× {what} per {unit}"
    less = round((1 - ratio) * 100)
    if less == 0:
        return f"{verb} about the same as {what} per {unit}"
    return f"{verb} {less}% less than {what} per {unit}"


def _cost_clause(full: StrategyResult, chunked: StrategyResult, unit: str) -> str:
    if full.device_dollars is not None and chunked.device_dollars:
        # Both are divided by the same units of work, so the ratio per unit is the ratio of the totals.
        return _ratio_clause(full.device_dollars / chunked.device_dollars, "costs", "chunking", unit)
    if chunked.seconds > 0:
        return _ratio_clause(full.seconds / chunked.seconds, "takes", "chunking's device time", unit)
    return "has no measured cost to set against chunking's"


def _accuracy_clause(full: StrategyResult, chunked: StrategyResult) -> str:
    if not (full.accuracy or chunked.accuracy):  # a cost comparison of two ways to get nothing right says little
        return (", but neither it nor chunking answers any of your questions correctly: check the model and the "
                "questions before trusting either")
    points = round(((full.accuracy or 0) - (chunked.accuracy or 0)) * 100)
    if points == 0:
        return " and answers as many of your questions correctly"
    word = "point" if abs(points) == 1 else "points"
    return f" and answers {abs(points)} {word} {'more' if points > 0 else 'fewer'} of your questions correctly"


def _caveats(run: ComparisonRun, results: dict, full: StrategyResult, chunked: StrategyResult) -> str:
    notes = []
    if full.device_dollars is None or chunked.device_dollars is None:
        why = run.pricing_error or "the run has not been priced yet"
        notes.append(f"costs compare measured device seconds, as the run has no dollar figures ({why})")
    elif not chunked.device_dollars:
        notes.append("costs compare measured device seconds, as its device time is priced at $0")
    index_share = results.get(INDEX_SHARE)
    if full.strategy != INDEX_SHARE:
        notes.append(f"Index Share was refused ({index_share.refused})" if index_share is not None
                     else "Index Share was not measured in this run")
    gated = [name for name, r in ((_lower(strategy_name(full.strategy)), full), ("chunking", chunked)) if r.gated]
    if gated:
        below = f"more than {run.gate_points:g} points below the best accuracy"
        notes.append(f"{gated[0]} is quality-gated ({below}), so its savings do not count" if len(gated) == 1
                     else f"both are quality-gated ({below})")
    inside = _inside_the_gate(results, full)
    if inside is not None:
        notes.append(f"{_lower(strategy_name(inside.strategy))} is inside the gate: it "
                     f"{_cost_clause(inside, chunked, run.workload.unit)}{_accuracy_clause(inside, chunked)}")
    cheaper = _cheaper_full_context(results, full)
    if cheaper is not None and cheaper is not inside:
        less = round((1 - cheaper.seconds / full.seconds) * 100)
        notes.append(f"{_lower(strategy_name(cheaper.strategy))} answers at least as many correctly in {less}% less "
                     "device time at these document lengths")
    return "; " + "; ".join(notes) if notes else ""


def _inside_the_gate(results: dict, full: StrategyResult) -> StrategyResult | None:
    """When the chosen full-context strategy is gated, the most accurate (then fastest) one that is not.

    Without it, a run whose Index Share fell out of the gate while dense attention passed would tell a
    manager only that Index Share's savings do not count, and not which full-context way does answer.
    """
    if not full.gated:
        return None
    rivals = [r for name, r in results.items() if name.startswith("full_") and name != full.strategy
              and not r.refused and not r.gated]
    return min(rivals, key=lambda r: (-(r.accuracy or 0), r.seconds), default=None)


def _cheaper_full_context(results: dict, full: StrategyResult) -> StrategyResult | None:
    """Another full-context strategy inside the gate, as accurate, that took under 90% of the chosen one's time.

    Index Share pays at long contexts; on short documents dense attention can beat it, and a manager
    should hear that from us. Device time, not dollars: one run, one device, so the ratio is the same.
    """
    rivals = [r for name, r in results.items() if name.startswith("full_") and name != full.strategy
              and not r.refused and not r.gated and (r.accuracy or 0) >= (full.accuracy or 0)
              and r.seconds < 0.9 * full.seconds]
    return min(rivals, key=lambda r: r.seconds, default=None)


def _lower(name: str) -> str:
    return name[:1].lower() + name[1:]
