"""The uncertainty of what a comparison measured: accuracy intervals, paired tests, the gate, cost spread.

Plain Python (no torch), so the web process and the PDF can use it as the engine does.

- Accuracy is a proportion of a handful of probes, so it is shown with its Wilson 95% interval,
  which stays inside [0, 1] and behaves at 0 and n correct, where the normal approximation does not.
- Two strategies answered the same probes, so they are compared pairwise: the exact McNemar test
  counts only the probes where one was right and the other wrong (a two-sided binomial test on them).
- The quality gate is a three-way call: `gated` (worse than the best by more than the gate points,
  and significantly so), `within` (not more than the gate points below the best), or `cannot_tell`
  (more than the gate points below, but the probes cannot tell that from chance), with an estimate
  of how many probes would settle it. A run with one strategy has no gate: `none`.
- A cost is a figure with a spread: two costs whose ranges overlap are the same within measurement.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054  # the standard normal's 97.5th percentile
SIGNIFICANCE = 0.05
GATES = ("gated", "within", "cannot_tell", "none")
# How far `probes_to_tell` looks: past this many probes, "many more" is the honest answer.
MAX_PROBES_TO_TELL = 10_000


def wilson(correct: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for `correct` successes out of `n`, as fractions; (0, 1) when n is 0."""
    if not 0 <= correct <= n:
        raise ValueError(f"correct must be between 0 and n={n}; got {correct}")
    if n == 0:
        return 0.0, 1.0
    p = correct / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # Exact at the ends: rounding must not put 0 or n correct a hair inside the bound.
    return (0.0 if correct == 0 else max(0.0, centre - half)), (1.0 if correct == n else min(1.0, centre + half))


def mcnemar_exact(only_first: int, only_second: int) -> float:
    """Two-sided exact McNemar p-value from the discordant pairs: probes only the first strategy got
    right, and probes only the second did. With none discordant the two cannot be told apart: 1.0."""
    if only_first < 0 or only_second < 0:
        raise ValueError("discordant counts must be 0 or more")
    n = only_first + only_second
    if n == 0:
        return 1.0
    k = min(only_first, only_second)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def discordant(first: Sequence[bool], second: Sequence[bool]) -> tuple[int, int]:
    """(probes only `first` answered right, probes only `second` did), over the same probes in the same order."""
    if len(first) != len(second):
        raise ValueError(f"paired results need the same probes: {len(first)} against {len(second)}")
    only_first = sum(1 for a, b in zip(first, second) if a and not b)
    only_second = sum(1 for a, b in zip(first, second) if b and not a)
    return only_first, only_second


@dataclass(frozen=True)
class Gate:
    """One strategy's standing against the most accurate strategy on the same probes."""

    call: str  # one of GATES
    points_below: float  # the best's accuracy minus this one's, in points
    p_value: float | None  # exact McNemar against the best; None for the best itself and without a gate
    probes_to_tell: int | None  # for cannot_tell: about how many probes in all would settle it


def gate(best: Sequence[bool], this: Sequence[bool], points: float, *, is_best: bool) -> Gate:
    """The three-way quality gate of `this` against `best` (each probe's correctness, paired)."""
    n = len(this)
    below = (sum(best) - sum(this)) / n * 100 if n else 0.0
    if is_best:
        return Gate("within", 0.0, None, None)
    only_best, only_this = discordant(best, this)
    p = mcnemar_exact(only_best, only_this)
    if below <= points:
        return Gate("within", below, p, None)
    if p < SIGNIFICANCE:
        return Gate("gated", below, p, None)
    return Gate("cannot_tell", below, p, probes_to_tell(n, only_best, only_this))


def probes_to_tell(n: int, only_best: int, only_this: int) -> int | None:
    """About how many probes in all the exact McNemar test would need to call this gap significant,
    if the discordant probes kept their observed rates. None when no number of probes would (no gap)."""
    if n == 0 or only_best <= only_this:
        return None
    for total in range(n + 1, MAX_PROBES_TO_TELL + 1):
        scale = total / n
        if mcnemar_exact(round(only_best * scale), round(only_this * scale)) < SIGNIFICANCE:
            return total
    return None


def gates(correct: dict[str, Sequence[bool]], points: float) -> dict[str, Gate]:
    """The gate of every strategy against the most accurate one (ties: the first listed). One strategy: none."""
    if len(correct) < 2:
        return {name: Gate("none", 0.0, None, None) for name in correct}
    best = max(correct, key=lambda name: sum(correct[name]))
    return {name: gate(correct[best], answers, points, is_best=name == best) for name, answers in correct.items()}


def by_kind(answers: Sequence[dict], names: dict[str, str] | None = None) -> dict[str, dict]:
    """Per kind of question (the answers' "kind", or its name in `names`, which may put kinds together): right
    answers, questions, the share and its Wilson 95% interval."""
    kinds: dict[str, list[bool]] = {}
    for answer in answers:
        kind = (names or {}).get(answer["kind"], answer["kind"])
        kinds.setdefault(kind, []).append(answer["correct"])
    return {kind: {"correct": sum(right), "n": len(right), "accuracy": sum(right) / len(right),
                   "ci95": list(wilson(sum(right), len(right)))} for kind, right in sorted(kinds.items())}


@dataclass(frozen=True)
class Spread:
    """A measured figure with its spread: the median and the lowest and highest seen."""

    median: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        if not values:
            raise ValueError("a spread needs at least one value")
        return cls(statistics.median(values), min(values), max(values))

    def scaled(self, cost: float) -> tuple[float, float]:
        """The range of `cost` (measured at the median) if the rate had been its lowest or highest."""
        if self.median <= 0:
            return cost, cost
        return cost * self.low / self.median, cost * self.high / self.median


def same_within_measurement(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Whether two cost ranges (low, high) overlap: their difference is inside what was measured."""
    return a[0] <= b[1] and b[0] <= a[1]
