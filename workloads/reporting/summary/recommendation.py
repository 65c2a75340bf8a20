"""The run's one recommendation, as the run page, the dashboard, the planning page, the PDF and the mail
state it: engine.decision.decide on the run's stored results.

Costs are per unit of work (contract, ticket, thousand lines) in device dollars at the run's prices;
an unpriced run, or one whose device time is priced at $0, is compared on measured device seconds
instead, and the reasons say which. Each cost carries the spread of its strategy's measured rate, so a
difference inside it is a tie. Runs measured before the three-way gate fall back to their stored
gated flag.
"""

from __future__ import annotations

from engine import run_settings, stats
from engine.decision import Decision, Option, View, decide
from workloads.models import ComparisonRun, StrategyResult
from workloads.templatetags.units import count_of, dollars, seconds


def recommendation(run: ComparisonRun) -> Decision:
    return decide(*inputs(run))


def inputs(run: ComparisonRun) -> tuple[list[Option], View]:
    """The run's strategies as the decision weighs them, and the view their costs are in (for its chart too)."""
    results = list(run.results.all())
    by_dollars = _priced(results)
    units = run.units_of_work or 1
    unit = run.workload.unit if run.units_of_work else "run"
    best = max((r.accuracy or 0 for r in results if not r.refused), default=0.0)
    options = [_option(r, by_dollars, units, best) for r in results]
    return options, View(unit=unit, money=dollars if by_dollars else seconds, basis=_basis(run, by_dollars),
                         gate_points=run.gate_points, api=_api(run))


def decision(run: ComparisonRun) -> str:
    return recommendation(run).sentence


def monthly(run: ComparisonRun) -> str | None:
    """The recommendation in dollars a month at the workload's expected volume and this run's prices, when known."""
    volume, unit = run.workload.expected_volume, run.workload.unit
    chosen = recommendation(run)
    results = {r.strategy: r for r in run.results.all()}
    pair = [results.get(s) for s in (chosen.recommended, chosen.compared_with) if s]
    if not volume or not run.units_of_work or not pair or any(r.device_dollars is None for r in pair):
        return None
    spend = " and ".join(f"{_lower(run_settings.name(r.strategy))} {dollars(r.unit_device_dollars * volume)}"
                         for r in pair)
    sentence = f"At about {count_of(volume, unit)} a month, on your device: {spend} a month"
    if all(r.api_dollars is not None for r in pair):
        sentence += "; through the API: " + " and ".join(dollars(r.unit_api_dollars * volume) for r in pair)
    return sentence + "."


def _priced(results: list[StrategyResult]) -> bool:
    ran = [r for r in results if not r.refused]
    return bool(ran) and all(r.device_dollars is not None for r in ran) and any(r.device_dollars for r in ran)


def _option(r: StrategyResult, by_dollars: bool, units: float, best: float) -> Option:
    if r.refused:
        return Option(r.strategy, refused=r.refused)
    cost = (r.device_dollars if by_dollars else r.seconds) / units
    spread = (stats.Spread(r.rate_median, r.rate_min, r.rate_max).scaled(cost)
              if r.rate_median is not None and r.rate_min is not None and r.rate_max is not None else None)
    call = r.gate or ("gated" if r.gated else "within")
    gate = stats.Gate(call, ((best - (r.accuracy or 0)) * 100), r.mcnemar_p, r.probes_to_tell)
    return Option(r.strategy, cost=cost, cost_range=spread,
                  api_cost=r.api_dollars / units if r.api_dollars is not None else None,
                  correct=round((r.accuracy or 0) * r.n_probes), n_probes=r.n_probes, gate=gate)


def _basis(run: ComparisonRun, by_dollars: bool) -> str:
    measured = (run.report or {}).get("seconds_basis") or "measured device seconds"
    if by_dollars and run.gpu_price is not None:
        price = run.gpu_price
        return f"device dollars: {measured} on {run.device}, at {dollars(price.per_hour)}/h for {price.device_class}"
    why = (run.pricing_error or "its device time is priced at $0") if run.priced_at else "it has not been priced yet"
    return f"{measured} on {run.device or 'its device'}, as the run has no dollar figures ({why})"


def _api(run: ComparisonRun) -> str | None:
    price = run.api_price
    return f"{price.provider} {price.model}" if price is not None else None


def _lower(name: str) -> str:
    return name[:1].lower() + name[1:]
