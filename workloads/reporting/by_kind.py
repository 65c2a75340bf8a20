"""Each strategy's accuracy per kind of question, the kinds named as a manager reads them (engine.core.probes.
KIND_NAMES: lookup, join, count, absent), and the quality gate per kind.

One number per strategy hides the questions a strategy fails: chunking may answer every lookup and no join. So the
run page and the PDF give each strategy's right answers per kind with their Wilson 95% range, and where a kind has
at least MIN_QUESTIONS questions, the gate runs on that kind alone, with the same statistics as the overall gate
(engine.core.stats.gates: each strategy against the most accurate on the same questions). The reasons name a kind on
which the recommended strategy is gated or cannot be told from the best.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.core import stats
from engine.core.decision import in_sentence
from engine.core.probes import KIND_NAMES, PLAIN_KINDS
from workloads.formatting import strategy as strategy_name
from workloads.models import StrategyResult

# Fewer questions of a kind than this cannot tell a strategy from the best: its gate would say so every time.
MIN_QUESTIONS = 5


@dataclass(frozen=True)
class Cell:
    correct: int
    n: int
    gate: str  # the gate on this kind alone: within, gated, cannot_tell, none, or "" with too few questions

    @property
    def interval(self) -> tuple[float, float]:
        return stats.wilson(self.correct, self.n)


@dataclass(frozen=True)
class KindTable:
    kinds: list[str]  # the plain kinds the run's questions have, in PLAIN_KINDS
    rows: list[tuple[StrategyResult, list[Cell | None]]]  # each strategy that ran, a cell per kind
    reasons: list[str]  # kinds on which `recommended` is gated or cannot be told apart


def table(results: Sequence[StrategyResult], gate_points: float, recommended: str | None) -> KindTable:
    """From the results with their answers (prefetch "answers"): a cell per strategy and kind."""
    ran = [r for r in results if not r.refused]
    answers = {r.strategy: [(KIND_NAMES.get(a.kind, a.kind), a.correct) for a in r.answers.all()] for r in ran}
    kinds = [k for k in PLAIN_KINDS if any(kind == k for pairs in answers.values() for kind, _ in pairs)]
    gates = {}
    for kind in kinds:
        right = {s: [c for k, c in pairs if k == kind] for s, pairs in answers.items()}
        if min(map(len, right.values()), default=0) >= MIN_QUESTIONS:
            gates[kind] = stats.gates(right, gate_points)
    rows = []
    for r in ran:
        cells = []
        for kind in kinds:
            right = [c for k, c in answers[r.strategy] if k == kind]
            gate = gates[kind][r.strategy].call if kind in gates else ""
            cells.append(Cell(sum(right), len(right), gate) if right else None)
        rows.append((r, cells))
    return KindTable(kinds, rows, _reasons(rows, kinds, recommended))


def _reasons(rows: list[tuple[StrategyResult, list[Cell | None]]], kinds: list[str],
             recommended: str | None) -> list[str]:
    chosen = next((cells for r, cells in rows if r.strategy == recommended), None)
    if chosen is None:
        return []
    reasons = []
    for kind, cell in zip(kinds, chosen, strict=True):
        if cell is None or cell.gate not in ("gated", "cannot_tell"):
            continue
        best_result, best = max(((r, cells[kinds.index(kind)]) for r, cells in rows),
                                key=lambda pair: pair[1].correct if pair[1] else -1)
        verdict = ("clearly fewer right answers" if cell.gate == "gated"
                   else "fewer right answers, but too few questions to tell that from chance")
        reasons.append(f"On {kind} questions, {in_sentence(strategy_name(recommended))} answers {cell.correct} of "
                       f"{cell.n}, against {best.correct} for {in_sentence(strategy_name(best_result.strategy))}: "
                       f"{verdict}.")
    return reasons
