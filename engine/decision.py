"""The one recommendation: which strategy to use, in a short sentence, with its reasons.

Every place that states the decision (the engine's compare report, the run page, the dashboard, the
planning page, the PDF, the mail) calls `decide`, so they cannot disagree. Plain Python (no torch).

The rule, in order:
1. Only strategies that ran and are inside the quality gate can be recommended (gate `within`, or
   `none` when nothing else ran). A strategy the probes cannot tell from the best is not recommended
   over one that is inside the gate; a gated one never is.
2. Of those, the cheapest in the view the caller chose (device dollars, or device seconds when the run
   has no dollar figures). Costs whose measured spreads overlap are the same within measurement, so
   among the cheapest and those tied with it, the most accurate wins.
3. With one strategy there is nothing to compare against, and with no probe answered right by any
   strategy there is nothing to recommend: the sentence says so instead of naming a winner.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine import run_settings, stats


@dataclass(frozen=True)
class Option:
    """One strategy as the decision sees it: its cost per unit of work (in the caller's view) and accuracy."""

    strategy: str
    refused: str | None = None
    cost: float | None = None  # per unit of work, in the view's currency (dollars or device seconds)
    cost_range: tuple[float, float] | None = None  # the cost at the lowest and highest measured rate
    api_cost: float | None = None  # per unit of work through the API the workload would buy, when priced
    correct: int = 0
    n_probes: int = 0
    gate: stats.Gate | None = None

    @property
    def ran(self) -> bool:
        return self.refused is None

    @property
    def accuracy(self) -> float:
        return self.correct / self.n_probes if self.n_probes else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return stats.wilson(self.correct, self.n_probes)


@dataclass(frozen=True)
class View:
    """What the costs are: the unit of work, how to write one cost, and what they measure."""

    unit: str = "question"  # "contract", "ticket", "thousand lines", ...
    money: Callable[[float], str] = field(default=lambda value: f"${value:,.4g}")
    basis: str = "device dollars"  # e.g. "device dollars: computed CPU seconds at $2.00/h for cpu"
    gate_points: float = 5.0
    api: str | None = None  # the API the api_cost figures are billed by, e.g. "ExampleAI small-v2"


@dataclass(frozen=True)
class Decision:
    recommended: str | None
    sentence: str
    reasons: list[str]
    compared_with: str | None = None  # the strategy the sentence sets the recommendation against

    def to_json(self) -> dict:
        return {"recommended": self.recommended, "sentence": self.sentence, "reasons": self.reasons,
                "compared_with": self.compared_with}


def decide(options: Sequence[Option], view: View = View()) -> Decision:
    ran = [o for o in options if o.ran]
    refusals = [f"Refused: {_name(o)} ({o.refused})." for o in options if not o.ran]
    if not ran:
        return Decision(None, "Nothing was measured: every strategy was refused.", refusals)
    if len(ran) == 1:
        only = ran[0]
        return Decision(None, f"Only {_name(only)} ran: {_figures(only, view)}. There is nothing to compare it "
                              "against: start a comparison with more than one strategy.", refusals)
    if not any(o.correct for o in ran):
        return Decision(None, "No strategy answered any of your questions correctly: check the model and the "
                              "questions before trusting any cost.", refusals)
    candidates = [o for o in ran if o.gate is None or o.gate.call in ("within", "none")]
    priced = [o for o in candidates if o.cost is not None]
    if not priced:
        best = max(candidates, key=lambda o: o.correct)
        return Decision(best.strategy, f"Recommended: {run_settings.name(best.strategy)}, which answers "
                                       f"{_percent(best)} of your questions; no cost was measured to set against the "
                                       "others.", refusals)
    cheapest = min(priced, key=lambda o: o.cost)
    tied = [o for o in priced if stats.same_within_measurement(_range(o), _range(cheapest))]
    chosen = max(tied, key=lambda o: (o.correct, -o.cost))
    other = _counterpart(ran, chosen)
    # "Recommended: <name>," rather than "Use <name>:": the plain names ("ask every chunk") are labels, not nouns.
    sentence = f"Recommended: {run_settings.name(chosen.strategy)}, {_figures(chosen, view)}."
    if other is not None:
        same = other.cost is not None and stats.same_within_measurement(_range(other), _range(chosen))
        cost = f"costs the same within measurement ({view.money(other.cost)})" if same else _costs(other, view)
        sentence += f" {_capital(_name(other))} {cost} and answers {_percent(other)}."
    reasons = [_gate_reason(ran, view), *_noise_reason(tied, priced), view_reason(view)]
    api = _api_reason(ran, chosen, other, view)
    return Decision(chosen.strategy, sentence, [r for r in (*reasons, api, *refusals) if r],
                    other.strategy if other is not None else None)


def _counterpart(ran: list[Option], chosen: Option) -> Option | None:
    """What the recommendation is set against: searching the chunks, the way most businesses start, else asking
    every chunk; else the most accurate other strategy."""
    for usual in ("retrieval", "chunked"):
        found = next((o for o in ran if o.strategy == usual), None)
        if found is not None and found is not chosen:
            return found
    others = [o for o in ran if o is not chosen]
    return max(others, key=lambda o: (o.correct, -(o.cost or 0)), default=None)


def _gate_reason(ran: list[Option], view: View) -> str:
    best = max(ran, key=lambda o: o.correct)
    notes = []
    for o in ran:
        g = o.gate
        if g is None or o is best:
            continue
        if g.call == "gated":
            p = f" (McNemar p = {g.p_value:.2g})" if g.p_value is not None else ""
            notes.append(f"{_name(o)} is gated: {g.points_below:.0f} points below {_name(best)}{p}, "
                         "so its savings do not count")
        elif g.call == "cannot_tell":
            more = (f"about {g.probes_to_tell} probes in all would settle it" if g.probes_to_tell
                    else "many more probes would be needed to settle it")
            notes.append(f"{_name(o)} answers {g.points_below:.0f} points fewer than {_name(best)}, but "
                         f"{o.n_probes} probes cannot tell that from chance{_p(g)}: {more}")
    if not notes:
        return (f"Quality gate: every strategy is within {view.gate_points:g} points of the most accurate, "
                f"{_name(best)}.")
    return "Quality gate: " + "; ".join(notes) + "."


def _p(g: stats.Gate) -> str:
    return f" (McNemar p = {g.p_value:.2g})" if g.p_value is not None else ""


def _noise_reason(tied: list[Option], priced: list[Option]) -> list[str]:
    if not any(o.cost_range for o in priced):
        return []
    if len(tied) > 1:
        names = ", ".join(_name(o) for o in tied)
        return [f"Noise: {names} cost the same within measurement (their costs at the lowest and highest "
                "measured rates overlap), so the more accurate is recommended."]
    return ["Noise: the cheapest strategy's cost stays below the others' at every measured rate."]


def view_reason(view: View) -> str:
    return f"Device view: costs per {view.unit} in {view.basis}."


def _api_reason(ran: list[Option], chosen: Option, other: Option | None, view: View) -> str | None:
    billed = [o for o in ran if o.api_cost is not None]
    if not billed or chosen.api_cost is None or view.api is None:
        return None
    sentence = f"API view ({view.api}): {_name(chosen)} would bill {view.money(chosen.api_cost)} per {view.unit}"
    if other is not None and other.api_cost is not None:
        sentence += f", {_name(other)} {view.money(other.api_cost)}"
    cheapest = min(billed, key=lambda o: o.api_cost)
    if cheapest is not chosen and cheapest is not other:
        sentence += f"; {_name(cheapest)} bills least, {view.money(cheapest.api_cost)}"
    return sentence + " (an API bills tokens, whatever the attention)."


def _range(o: Option) -> tuple[float, float]:
    return o.cost_range or (o.cost, o.cost)


def _figures(o: Option, view: View) -> str:
    cost = f"{view.money(o.cost)} per {view.unit}, " if o.cost is not None else ""
    return f"{cost}answers {_percent(o)} of your questions"


def _costs(o: Option, view: View) -> str:
    return f"costs {view.money(o.cost)}" if o.cost is not None else "has no measured cost"


def _percent(o: Option) -> str:
    """"56% (±27)": the accuracy, and half the width of its Wilson 95% interval, in points."""
    lo, hi = o.interval
    return f"{o.accuracy * 100:.0f}% (±{(hi - lo) * 50:.0f})"


def _name(o: Option) -> str:
    name = run_settings.name(o.strategy)
    return name[:1].lower() + name[1:]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
