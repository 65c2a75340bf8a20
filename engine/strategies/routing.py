"""Routed's choice: keep the search's answer, or escalate the question to the whole documents.

Self-Route escalates where the routing call says NONE (engine.core.abstention). How the call is worded decides how
often a model says it: the default model told "If the text does not say, answer NONE." said it to every question of
a held-out set whose answers the search had found. So the wording is chosen per model by measurement
(benchmarks/route_wording.py), and an answer may also be checked against what the search found (`grounded`): the
system message asks for the text's own words, so an answer whose figures, or most of whose words, are not in the
chunks found was not read there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.abstention import NONE, says_none
from engine.core.probes import normalise
from engine.strategies.chunking import Chunk

# The routing call's wordings measured (benchmarks/route_wording.py), added after the question.
INSTRUCTIONS = {
    "none": f"If the text does not say, answer {NONE}.",  # Self-Route's, and the routed strategy's until measured
    "only_if": f"Answer from the parts above. Only if no part above answers it, answer {NONE}.",
    "plain": "",  # none: the retrieval strategy's own prompt
}
# The share of an answer's words that must stand in the chunks found. Below 1: a model's "The fee is" or "euros"
# around a quoted figure are often not in the text.
GROUNDED_SHARE = 0.75


@dataclass(frozen=True)
class Route:
    """How routed's first call is worded, and which of its answers escalate."""

    wording: str  # a key of INSTRUCTIONS
    grounding: bool  # escalate an answer not grounded in the chunks found, as well as one that says NONE

    @property
    def instruction(self) -> str:
        return INSTRUCTIONS[self.wording]

    def escalates(self, answer: str, chunks: Sequence[Chunk]) -> bool:
        return says_none(answer) or (self.grounding and not grounded(answer, chunks))


# Chosen per model, by its name in lower case, on the sample and, for the default model, a held-out set
# (benchmarks/README.md, "When routed escalates"). With Self-Route's wording the default model escalated 82% of the
# sample's questions where the search got 57% wrong, and routed answered 39%; SmolLM2 escalated 7% and answered 18%,
# below its search's 29%. Asked as the search asks, escalating a NONE or an ungrounded answer: the default model 0%
# (10% of the held-out set) and 43% right (50%); SmolLM2 18% and 29%.
ROUTES: dict[str, Route] = {"qwen2.5-coder-0.5b-instruct": Route("plain", grounding=True),
                            "smollm2-135m-instruct": Route("plain", grounding=True)}
# A model not measured (an endpoint's, a local folder): Self-Route's own wording and rule.
DEFAULT = Route("none", grounding=False)


def for_model(name: str) -> Route:
    return ROUTES.get(name.lower(), DEFAULT)


def grounded(answer: str, chunks: Sequence[Chunk]) -> bool:
    """Whether `answer` could have been read in `chunks`: every word with a digit in it, and GROUNDED_SHARE of all
    its words, stand in their text (both normalised as for scoring, engine.core.probes.normalise)."""
    words = normalise(answer).split()
    if not words:
        return False
    text = set(normalise(" ".join(chunk.text for chunk in chunks)).split())
    if any(word not in text for word in words if any(ch.isdigit() for ch in word)):
        return False
    return sum(word in text for word in words) >= GROUNDED_SHARE * len(words)
