"""The plan drives the runner (issue 37): every strategy, run for real, makes exactly the calls run_plan planned, in
the planned attention mode and with the planned prompt's token count; only a reduce's prompt, made from the chunks'
answers, is shorter than its planned longest, and routed's escalations are made only where its route escalated the
search's answer. The plan is the core's call plan per question (what the planning projects with), and progress
counts the plan."""

import pytest

from engine.core import call_plan
from engine.core.documents import DocumentText
from engine.core.probes import ProbeQuestion
from engine.core.run_settings import STRATEGIES
from engine.strategies import compare as cmp
from engine.strategies import run_plan

pytestmark = pytest.mark.model

DOCS = [
    DocumentText("notes.txt", "The storage room is on the second floor.\n\nDeliveries arrive on Tuesdays.\n\n" * 4),
    DocumentText("memo.txt", "The monthly service fee is $4,500.\n\nInvoices are due in 30 days.\n\n" * 4),
]
PROBES = [ProbeQuestion("What is the monthly service fee?", "$4,500", "retrieval"),
          ProbeQuestion("Which colour is the delivery van?", "red", "retrieval")]


@pytest.fixture
def made(monkeypatch):
    """Each model call the runner makes, as (attention mode, prompt tokens), in order: the real calls, observed."""
    calls = []

    def observed(function, mode_of, ids_at):
        def call(*args, **kwargs):
            calls.append((mode_of(args), len(args[ids_at])))
            return function(*args, **kwargs)
        return call

    monkeypatch.setattr(cmp, "generate", observed(cmp.generate, lambda a: a[2].mode, 1))
    monkeypatch.setattr(cmp, "prefill_prefix", observed(cmp.prefill_prefix, lambda a: a[2].mode, 1))
    monkeypatch.setattr(cmp, "generate_from", observed(cmp.generate_from, lambda a: a[1].cfg.mode, 2))
    return calls


def test_every_strategy_makes_the_calls_it_planned(smollm2, made):
    work = cmp.ComparisonWork(DOCS, PROBES, strategies=list(STRATEGIES), chunk_tokens=64, chunk_overlap=8,
                              diagnostics=False)
    plan = run_plan.plan(smollm2, work, STRATEGIES)
    progress = []

    report = cmp.compare(smollm2, work, progress=lambda done, planned, message: progress.append(planned))

    # The report's order names whose call each one was; the observed calls say their mode and prompt.
    assert len(report["order"]) == len(made)
    by_strategy = {}
    for name, call in zip(report["order"], made, strict=True):
        by_strategy.setdefault(name, []).append(call)
    for strategy in STRATEGIES:
        planned = [call for question in plan.questions for call in question[strategy]]
        if strategy in plan.prefills:
            assert by_strategy.pop(f"{strategy}:prefill") == [(planned[0].mode, len(plan.prefills[strategy]))]
        escalated = [a.get("escalated", False) for a in report["strategies"][strategy]["probes"]]
        # An escalation is made only where the route escalated the search's answer (a NONE, or one not grounded).
        planned = [c for c in planned if not c.escalation or escalated.pop(0)] if strategy == "routed" else planned
        got = by_strategy.pop(strategy)
        assert [mode for mode, _ in got] == [c.mode for c in planned], strategy
        for (_, tokens), call in zip(got, planned, strict=True):
            if call.prompt is None:  # a reduce: planned at its longest
                assert 0 < tokens <= call.tokens, strategy
            else:
                assert tokens == call.tokens, strategy
    assert by_strategy == {}
    assert set(progress) == {plan.calls}


def test_the_plan_is_the_core_call_plan_per_question(smollm2):
    work = cmp.ComparisonWork(DOCS, PROBES, chunk_tokens=64, chunk_overlap=8)
    plan = run_plan.plan(smollm2, work, STRATEGIES)
    chunk_tokens = [c.n_tokens for c in plan.chunks]
    for question in plan.questions:
        for strategy, calls in question.items():
            core = call_plan.call_plan(strategy, [], chunk_tokens)
            assert [(c.mode, c.escalation) for c in calls] == \
                [(c.mode, c.escalation) for c in core for _ in range(c.count)], strategy
