"""The run's one recommendation, as the run page, the dashboard, the planning page, the PDF and the mail
state it: engine.core.decision.decide on the run's stored results.

Costs are per unit of work (contract, ticket, thousand lines) in device dollars at the run's prices;
an unpriced run, or one whose device time is priced at $0, is compared on measured device seconds
instead, and the reasons say which. Each cost carries the spread of its strategy's measured rate, so a
difference inside it is a tie. Runs measured before the three-way gate fall back to their stored
gated flag.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import run_settings, stats
from engine.core.decision import Decision, Option, View, decide, in_sentence
from workloads.formatting import count_of, dollars, seconds
from workloads.models import ComparisonRun, StrategyResult


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
                         gate_points=run.gate_points, api=_api(run),
                         name="The endpoint's bill" if run.reader and by_dollars else "Device view")


def decision(run: ComparisonRun) -> str:
    return recommendation(run).sentence


def monthly(run: ComparisonRun) -> str | None:
    """The recommendation in dollars a month at the workload's expected volume and this run's prices, when known:
    the two strategies it names and, beside a whole-documents one, the same with its prefix cached or not."""
    chosen = recommendation(run)
    named = [s for s in (chosen.recommended, chosen.compared_with) if s]
    rows = {row.strategy: row for row in month(run)}
    pair = [rows.get(s) for s in named]
    if not pair or any(row is None or row.device is None for row in pair):
        return None
    shown = [*pair, *(rows[c] for c in map(_counterpart, named) if c in rows and c not in named)]
    volume, unit = run.workload.expected_volume, run.workload.unit
    spend = _listed([f"{in_sentence(row.name)} {dollars(row.device)}" for row in shown if row.device is not None])
    where = f"through {run.endpoint.name if run.endpoint else run.reader}" if run.reader else "on your device"
    sentence = f"At about {count_of(volume, unit)} a month, {where}: {spend} a month"
    if all(row.api is not None for row in shown):
        sentence += "; through the API: " + _listed([dollars(row.api) for row in shown])
    return sentence + "."


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


@dataclass(frozen=True)
class MonthRow:
    strategy: str
    name: str
    device: float | None  # device dollars a month; None unpriced
    api: float | None  # API dollars a month; None without an API model


def month(run: ComparisonRun) -> list[MonthRow]:
    """A month of questions at the workload's expected volume, for each strategy the run measured: each unit of work
    asked the run's questions, at the run's prices. A cached strategy's prefill is in its figures once per run's
    worth of documents. Each whole-documents strategy is followed by its cached form, so they read side by side.
    Empty when the workload expects no volume or the run counted no units of work."""
    volume = run.workload.expected_volume
    if not volume or not run.units_of_work:
        return []
    measured = [r for r in run.results.all() if not r.refused]
    order = {s: i for i, s in enumerate(run.strategies)}
    measured.sort(key=lambda r: (order.get(_uncached(r.strategy), len(order)), r.strategy != _uncached(r.strategy)))
    return [MonthRow(r.strategy, run_settings.name(r.strategy),
                     r.unit_device_dollars * volume if r.device_dollars is not None else None,
                     r.unit_api_dollars * volume if r.api_dollars is not None else None) for r in measured]


def _uncached(strategy: str) -> str:
    return strategy.removesuffix("_cached") if strategy in run_settings.CACHED_MODES else strategy


def _counterpart(strategy: str) -> str | None:
    """A whole-documents strategy's other form: cached for uncached and back; None for the others."""
    if strategy in run_settings.CACHED_MODES:
        return _uncached(strategy)
    return f"{strategy}_cached" if strategy in run_settings.FULL_MODES else None


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
    if run.reader and by_dollars:
        return f"dollars: the tokens {run.reader} counted in its replies, at {run.api_price}"
    measured = (run.report or {}).get("seconds_basis") or "measured device seconds"
    if by_dollars and run.gpu_price is not None:
        price = run.gpu_price
        return f"device dollars: {measured} on {run.device}, at {dollars(price.per_hour)}/h for {price.device_class}"
    why = (run.pricing_error or "its device time is priced at $0") if run.priced_at else "it has not been priced yet"
    return f"{measured} on {run.device or 'its device'}, as the run has no dollar figures ({why})"


def _api(run: ComparisonRun) -> str | None:
    price = None if run.reader else run.api_price  # an endpoint's bill is the cost itself
    return f"{price.provider} {price.model}" if price is not None else None
