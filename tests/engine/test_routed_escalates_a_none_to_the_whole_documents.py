"""Self-Route: a retrieval answer that says NONE escalates to the full_index_share call; where the documents do not
fit the model, the NONE stays and the refused escalation is counted. The model is scripted here: what is tested
is the routing and its accounting, not what a model says (tests/engine/test_compare_counts_retrieval_calls_exactly
runs the real one)."""

from types import SimpleNamespace

import pytest

from engine.strategies import compare as cmp
from engine.strategies.chunking import Chunk
from engine.core.documents import DocumentText
from engine.model.loader import load_tokenizer
from engine.core.probes import ProbeQuestion
from engine.strategies.retrieval import Index

CHUNKS = [Chunk("memo.txt", 0, "The monthly service fee is $4,500.", 9, 0),
          Chunk("memo.txt", 1, "Deliveries arrive on Tuesdays.", 6, 35)]
PROBE = ProbeQuestion("What is the monthly service fee?", "$4,500", source="memo.txt")
FULL_PROMPT = [1, 2, 3]


class ScriptedCaller:
    """Stands in for compare's _Caller: answers from a script and notes each call's attention mode."""

    def __init__(self, *answers: str):
        self.lm = SimpleNamespace(tokenizer=load_tokenizer())
        self.answers, self.modes = list(answers), []

    def __call__(self, out, cfg, ids, what):
        out.calls += 1
        self.modes.append(cfg.mode)
        return self.answers.pop(0)


def answer(strategy: str, caller: ScriptedCaller, full_prompt=FULL_PROMPT) -> cmp.StrategyTally:
    out = cmp.StrategyTally(strategy, cmp.MODES[strategy])
    work = cmp.ComparisonWork([DocumentText("memo.txt", "unused")], [PROBE])
    cmp._answer_retrieval(caller, work, Index(CHUNKS), PROBE, full_prompt, out)
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


def test_where_the_documents_do_not_fit_the_none_stays_and_the_refusal_counts():
    caller = ScriptedCaller("NONE")
    out = answer("routed", caller, full_prompt=None)
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
