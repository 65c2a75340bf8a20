"""Self-Route: a retrieval answer that says NONE escalates to the full_index_share call; where the documents do not
fit the model, the NONE stays and the refused escalation is counted. The model is scripted here: what is tested
is the routing and its accounting, not what a model says (tests/engine/test_compare_counts_retrieval_calls_exactly
runs the real one)."""

import pytest

from engine.core.probes import ProbeQuestion
from engine.strategies import compare as cmp
from engine.strategies.chunking import Chunk
from engine.strategies.retrieval import Index
from engine.strategies.routing import Route
from engine.strategies.run_plan import PlannedCall

CHUNKS = [Chunk("memo.txt", 0, "The monthly service fee is $4,500.", 9, 0),
          Chunk("memo.txt", 1, "Deliveries arrive on Tuesdays.", 6, 35)]
PROBE = ProbeQuestion("What is the monthly service fee?", "$4,500", source="memo.txt")
FULL_PROMPT = [1, 2, 3]


class ScriptedCaller:
    """Stands in for compare's _Caller: answers from a script and notes each planned call's attention mode."""

    def __init__(self, *answers: str):
        self.answers, self.modes = list(answers), []

    def __call__(self, out, call, place, ids=None):
        out.calls += 1
        self.modes.append(call.mode)
        return self.answers.pop(0)


def answer(strategy: str, caller: ScriptedCaller, documents_fit: bool = True,
           route: Route = Route("none", grounding=False)) -> cmp.StrategyTally:
    """The strategy's calls for PROBE as run_plan plans them: the search's call (routed's with its route), and
    routed's escalation where the documents fit."""
    search = Index(CHUNKS).search(PROBE.question, 0, 1536)
    calls = [PlannedCall("dense", 5, "search", lambda: [1, 2, 3, 4, 5], search=search,
                         route=route if strategy == "routed" else None)]
    if strategy == "routed" and documents_fit:
        calls.append(PlannedCall("index_share", len(FULL_PROMPT), "escalate", lambda: FULL_PROMPT, escalation=True))
    out = cmp.StrategyTally(strategy, cmp.MODES[strategy])
    cmp._answer_retrieval(caller, PROBE, calls, out, 0)
    return out


@pytest.mark.parametrize("said", ["NONE", "The text does not say."])
def test_a_none_escalates_to_the_full_index_share_call(said):
    caller = ScriptedCaller(said, "$4,500")
    out = answer("routed", caller)
    assert caller.modes == ["dense", "index_share"] and out.calls == 2
    assert (out.escalated, out.escalation_refused) == (1, 0)
    assert out.answers[0]["output"] == "$4,500" and out.answers[0]["correct"] and out.answers[0]["escalated"]


def test_an_answer_is_kept_without_escalating():
    caller = ScriptedCaller("$4,500")
    out = answer("routed", caller)
    assert caller.modes == ["dense"] and (out.calls, out.escalated) == (1, 0)
    assert out.answers[0]["escalated"] is False


def test_a_grounded_route_escalates_an_answer_the_chunks_do_not_hold():
    caller = ScriptedCaller("$4,800", "$4,500")  # a figure no chunk found holds
    out = answer("routed", caller, route=Route("plain", grounding=True))
    assert caller.modes == ["dense", "index_share"] and out.escalated == 1
    assert out.answers[0]["output"] == "$4,500" and out.answers[0]["escalated"]


def test_a_grounded_route_keeps_an_answer_the_chunks_hold():
    caller = ScriptedCaller("The monthly service fee is $4,500.")
    out = answer("routed", caller, route=Route("plain", grounding=True))
    assert caller.modes == ["dense"] and out.escalated == 0 and out.answers[0]["correct"]


def test_where_the_documents_do_not_fit_the_none_stays_and_the_refusal_counts():
    caller = ScriptedCaller("NONE")
    out = answer("routed", caller, documents_fit=False)
    assert caller.modes == ["dense"] and out.calls == 1
    assert (out.escalated, out.escalation_refused) == (1, 1)
    assert out.answers[0]["output"] == "NONE" and not out.answers[0]["correct"]


def test_plain_retrieval_never_escalates_and_keeps_what_it_found():
    caller = ScriptedCaller("NONE")
    out = answer("retrieval", caller)
    assert out.calls == 1 and out.escalated == 0 and "escalated" not in out.answers[0]
    assert out.answers[0]["retrieved"] == [{"document": "memo.txt", "part": 1}, {"document": "memo.txt", "part": 2}]
    assert out.answers[0]["retrieved_source"] is True
    assert out.retrieval_seconds is not None and out.seconds == out.retrieval_seconds  # the search is billed
