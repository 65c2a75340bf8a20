"""The one recommendation: which strategy to use, in a short sentence, with its reasons.

Every place that states the decision (the engine's compare report, the run page, the dashboard, the
planning page, the PDF, the mail) calls `decide`, so they cannot disagree. Plain Python (no torch).

The rule, in order:
1. Only strategies that ran and are inside the quality gate can be recommended (gate `within`, or
   `none` when nothing else ran). A strategy the probes cannot tell from the best is not recommended
   over one that is inside the gate; a gated one never is.
   When only the most accurate is inside the gate and the probes cannot tell the others from it, no pick
   rests on evidence: the sentence says so first, and the strategies not gated are all candidates for a
   provisional choice.
2. Of those, the cheapest in the view the caller chose (device dollars, or device seconds when the run
   has no dollar figures). Costs whose measured spreads overlap are the same within measurement, so
   among the cheapest and those tied with it, the most accurate wins; the cheapest is then named too.
3. With one strategy there is nothing to compare against, and with no probe answered right by any
   strategy there is nothing to recommend: the sentence says so instead of naming a winner.

Every cost is written with its measured range and every accuracy as a count and its 95% interval, so no
sentence can call two figures the same that the reader sees apart. The reasons are plain words: the
statistics' names and values stay in the run's tables and the PDF's appendix.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.core import run_settings, stats


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
    name: str = "Device view"  # what the costs are, for the reason that says so ("The endpoint's bill")


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
    within = [o for o in ran if o.gate is None or o.gate.call in ("within", "none")]
    # A strategy that answered nothing right is no provisional choice, however few the questions.
    unsure = [o for o in ran if o.gate is not None and o.gate.call == "cannot_tell" and o.correct]
    # Only the most accurate is inside the gate and the probes cannot tell the others from it: no pick rests on
    # evidence, so the cheapest of them all is the provisional choice rather than the one with a lucky extra answer.
    provisional = len(within) == 1 and bool(unsure)
    adequate = within + unsure if provisional else within
    priced = [o for o in adequate if o.cost is not None]
    if not priced:
        best = max(adequate, key=lambda o: o.correct)
        return Decision(best.strategy, f"Recommended: {run_settings.name(best.strategy)}, which "
                                       f"{_answers(best)}; no cost was measured to set against the others.",
                        refusals)
    cheapest = min(priced, key=lambda o: o.cost)
    tied = [o for o in priced if stats.same_within_measurement(_range(o), _range(cheapest))]
    chosen = max(tied, key=lambda o: (o.correct, -o.cost))
    other = _counterpart(ran, chosen)
    # "Recommended: <name>," rather than "Use <name>:": the plain names ("ask every chunk") are labels, not nouns.
    sentence = f"Recommended: {run_settings.name(chosen.strategy)}, {_figures(chosen, view)}."
    if provisional:
        sentence = (f"{_too_few(unsure)} Provisional choice, the cheapest of them: "
                    f"{run_settings.name(chosen.strategy)}, {_figures(chosen, view)}.")
    if other is not None:
        cost = f"costs {_beside(other, chosen, view)}" if other.cost is not None else "has no measured cost"
        sentence += f" {_capital(_name(other))} {cost} and {_answers(other)}."
    if cheapest is not chosen and cheapest is not other:
        sentence += (f" {_capital(_name(cheapest))} costs least, {_beside(cheapest, chosen, view)} and "
                     f"{_answers(cheapest)}.")
    reasons = [_gate_reason(ran, view), _noise_reason(chosen, tied, priced, view), view_reason(view)]
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


def _too_few(unsure: list[Option]) -> str:
    return f"Too few questions to tell these strategies apart yet: {_settle(unsure)}."


def _settle(unsure: list[Option]) -> str:
    """How many questions in all would tell the strategies the probes cannot tell from the best apart."""
    counts = [o.gate.probes_to_tell for o in unsure]
    return f"about {max(counts)} questions would settle it" if all(counts) else "many more questions would"


def _gate_reason(ran: list[Option], view: View) -> str:
    """The quality gate in plain words; its statistics (the McNemar test's p-values) stay in the run's tables."""
    best = max(ran, key=lambda o: o.correct)
    others = [o for o in ran if o is not best and o.gate is not None]
    gated = [o for o in others if o.gate.call == "gated"]
    unsure = [o for o in others if o.gate.call == "cannot_tell"]
    notes = []
    if gated:
        who = _capital(_listed([_name(o) for o in gated])) if len(gated) <= 2 else f"{len(gated)} strategies"
        notes.append(f"{who} left out: clearly fewer right answers than {_name(best)}, more than chance explains, "
                     "so their savings do not count.")
    if unsure:
        # Named when they are few; a count otherwise, so that page one keeps its three reasons short.
        who = _capital(_listed([_name(o) for o in unsure])) if len(unsure) <= 2 else f"{len(unsure)} strategies"
        notes.append(f"{who}: fewer right answers than {_name(best)}, but too few questions to tell that from "
                     f"chance; {_settle(unsure)}.")
    if not notes:
        return f"Every strategy answers within {view.gate_points:g} points of the most accurate, {_name(best)}."
    return " ".join(notes)


def _noise_reason(chosen: Option, tied: list[Option], priced: list[Option], view: View) -> str | None:
    if not any(o.cost_range for o in priced):
        return None
    if len(tied) > 1:
        return (f"{_capital(_listed([_name(o) for o in tied]))} cost the same within measurement (their measured "
                "ranges overlap), so the one that answers most, then the cheaper, is recommended.")
    rest = [o for o in priced if o is not chosen]
    if rest and all(_range(chosen)[1] < _range(o)[0] for o in rest):
        return (f"{_capital(_name(chosen))} costs less than every other adequate strategy even at its slowest "
                f"measured rate ({view.money(_range(chosen)[1])} per {view.unit}).")
    return None


def view_reason(view: View) -> str:
    return f"{view.name}: costs per {view.unit} in {view.basis}."


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


def standing(o: Option) -> str:
    """Where a strategy stands against the quality gate, in the words a table beside the recommendation uses."""
    if not o.ran:
        return "not measured"
    call = o.gate.call if o.gate is not None else "within"
    return {"gated": "left out", "cannot_tell": "too few to tell"}.get(call, "")


def _range(o: Option) -> tuple[float, float]:
    return o.cost_range or (o.cost, o.cost)


def _figures(o: Option, view: View) -> str:
    cost = f"{money_with_range(o, view)} per {view.unit}, " if o.cost is not None else ""
    return f"{cost}{_answers(o)}"


def money_with_range(o: Option, view: View) -> str:
    """"$0.00019 ($0.00012–$0.00031)": the cost at the median rate and at the lowest and highest measured ones."""
    low, high = _range(o)
    return view.money(o.cost) if low == high else f"{view.money(o.cost)} ({view.money(low)}–{view.money(high)})"


def _beside(o: Option, chosen: Option, view: View) -> str:
    """o's cost beside the recommendation's: "the same within measurement" only where their measured ranges overlap,
    and always with o's range, as the recommendation's own figure has it, so that the reader sees the overlap."""
    same = chosen.cost is not None and stats.same_within_measurement(_range(o), _range(chosen))
    return money_with_range(o, view) + (", the same within measurement," if same else "")


def _answers(o: Option) -> str:
    """"answers 5 of 9 questions (27–81%)": the count, and the accuracy it stands for as a range."""
    return f"answers {o.correct} of {o.n_probes} questions ({accuracy_range(o)})"


def accuracy_range(o: Option) -> str:
    """"27–81%": the Wilson 95% interval of the accuracy, the range a manager reads instead of "56% (±27)"."""
    lo, hi = o.interval
    return f"{lo * 100:.0f}–{hi * 100:.0f}%"


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _name(o: Option) -> str:
    return in_sentence(run_settings.name(o.strategy))


def in_sentence(name: str) -> str:
    """A name as it reads inside a sentence: "whole documents (dense)", but "GPU box: search the chunks" keeps the
    capitals of a name that starts with an acronym."""
    return name if name[:2].isupper() else name[:1].lower() + name[1:]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
