"""Runs queued together, one per reader (this worker's engine, each endpoint), read side by side: reader ×
strategy, cost and accuracy with their ranges, and one recommendation over all of them.

Each run gates its strategies against its own best; side by side, every strategy of every reader is gated again
against the best of all of them, on the questions every run answered (a run stopped at a cap answered fewer), so
that a reader that answers better puts the others' savings in question. Costs are compared in dollars only: the
engine's device dollars and an endpoint's bill are both what the business pays. Where a run has no dollar figures
(an unpriced device, a device priced at $0) there is no recommendation across readers, and `why_not` says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import run_settings, stats
from engine.core.decision import Decision, Option, View, decide
from workloads.formatting import dollars
from workloads.models import ComparisonRun, ProbeAnswer

ENGINE = "This worker's engine"
_STATE = {"queued": "is queued", "running": "is running", "failed": "failed", "cancelled": "was cancelled"}


def batch(run: ComparisonRun) -> list[ComparisonRun]:
    """The runs queued with `run`, the engine's first; just `run` when it was queued alone."""
    if run.batch is None:
        return [run]
    return sorted(ComparisonRun.objects.filter(batch=run.batch).select_related("workload", "endpoint"),
                  key=lambda r: (bool(r.reader), r.pk))


def summarised(run: ComparisonRun) -> ComparisonRun | None:
    """The run whose PDF stands for the batch (its first that succeeded, the engine's if it did), once every run of
    the batch has ended; None before, or when none succeeded."""
    runs = batch(run)
    if not all(r.finished for r in runs):
        return None
    return next((r for r in runs if r.status == ComparisonRun.Status.SUCCEEDED), None)


def reader_name(run: ComparisonRun) -> str:
    return run.endpoint.name if run.endpoint is not None else (run.reader.split(" (")[0] or ENGINE)


@dataclass(frozen=True)
class SideBySide:
    runs: list[ComparisonRun]
    options: list[Option]  # every reader's strategies, named "<reader>: <strategy>"
    decision: Decision | None
    why_not: str  # why there is no decision across readers, when there is none
    questions: int  # the questions every run answered, which the gates are on


def side_by_side(run: ComparisonRun) -> SideBySide | None:
    """The batch's readers side by side, or None when `run` was queued alone."""
    runs = batch(run)
    if len(runs) < 2:
        return None
    unfinished = [r for r in runs if r.status != ComparisonRun.Status.SUCCEEDED]
    if unfinished:
        said = ", ".join(f"{reader_name(r)} {_STATE[r.status]}" for r in unfinished)
        return SideBySide(runs, [], None, said, 0)
    unpriced = [r for r in runs if not _in_dollars(r)]
    correct = _answers(runs)
    questions = len(next(iter(correct.values()), []))
    gates = stats.gates(correct, run.gate_points)
    options = [_option(r, result, correct, gates) for r in runs for result in r.results.all()]
    if unpriced:
        return SideBySide(runs, options, None, f"{_listed(unpriced)} has no dollar figures to compare", questions)
    view = View(unit=run.workload.unit if run.units_of_work else "run", money=dollars, gate_points=run.gate_points,
                name="Across readers", basis="dollars: the engine's device time at the price book's rate, an "
                                             "endpoint's bill for the tokens its replies counted")
    return SideBySide(runs, options, decide(options, view), "", questions)


@dataclass(frozen=True)
class BatchRow:
    """One batch of readers in a workload's history: its period, its side-by-side reading, and whether its
    recommendation names another reader and strategy than the batch before it did."""

    period: str
    first: ComparisonRun
    readers: SideBySide
    changed: bool


def history(workload, limit: int = 8) -> list[BatchRow]:
    """The workload's latest `limit` batches of readers, newest first."""
    ids = list(dict.fromkeys(workload.runs.exclude(batch=None).order_by("-created_at", "-pk")
                             .values_list("batch", flat=True)))[:limit]
    rows: list[BatchRow] = []
    for batch_id in reversed(ids):  # oldest first, to see each change
        first = batch(ComparisonRun.objects.filter(batch=batch_id).first())[0]
        readers = side_by_side(first)
        chosen = readers.decision.recommended if readers.decision else None
        before = rows[-1].readers.decision.recommended if rows and rows[-1].readers.decision else None
        rows.append(BatchRow(first.period, first, readers, bool(rows) and chosen is not None and chosen != before))
    return rows[::-1]


def _in_dollars(run: ComparisonRun) -> bool:
    ran = [r for r in run.results.all() if not r.refused]
    return bool(ran) and all(r.device_dollars is not None for r in ran) and any(r.device_dollars for r in ran)


def _key(run: ComparisonRun, strategy: str) -> str:
    return f"{reader_name(run)}: {run_settings.name(strategy)}"


def _answers(runs: list[ComparisonRun]) -> dict[str, list[bool]]:
    """Per reader and strategy, right or wrong on each question every run answered, in one order."""
    rows = (ProbeAnswer.objects.filter(result__run__in=runs, result__refused="")
            .values_list("result__run_id", "result__strategy", "question", "correct"))
    by: dict[str, dict[str, bool]] = {}
    names = {r.pk: r for r in runs}
    for run_pk, strategy, question, correct in rows:
        by.setdefault(_key(names[run_pk], strategy), {})[question] = correct
    common = sorted(set.intersection(*(set(answers) for answers in by.values()))) if by else []
    return {key: [answers[q] for q in common] for key, answers in by.items()}


def _option(run: ComparisonRun, result, correct: dict[str, list[bool]], gates: dict[str, stats.Gate]) -> Option:
    key = _key(run, result.strategy)
    if result.refused:
        return Option(key, refused=result.refused)
    units = run.units_of_work or 1
    spread = (stats.Spread(result.rate_median, result.rate_min, result.rate_max)
              if None not in (result.rate_median, result.rate_min, result.rate_max) else None)
    cost = result.device_dollars / units if result.device_dollars is not None else None
    return Option(key, cost=cost, cost_range=spread.scaled(cost) if spread and cost is not None else None,
                  correct=sum(correct[key]), n_probes=len(correct[key]), gate=gates[key])


def _listed(runs: list[ComparisonRun]) -> str:
    return ", ".join(reader_name(r) for r in runs)
