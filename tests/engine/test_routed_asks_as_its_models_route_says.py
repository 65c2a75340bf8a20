"""Routed's first call is worded as the model's route says (engine.strategies.routing.for_model): a model with a
measured route gets its wording, any other Self-Route's; a route given to the plan (an endpoint run gives Self-Route's)
wins."""

import pytest

from engine.core.documents import DocumentText
from engine.core.probes import ProbeQuestion
from engine.strategies import prompts, routing, run_plan
from engine.strategies.work import ComparisonWork

pytestmark = pytest.mark.model

DOCS = [DocumentText("memo.txt", "The monthly service fee is $4,500.\n\nInvoices are due in 30 days.\n\n" * 4)]
WORK = ComparisonWork(DOCS, [ProbeQuestion("What is the monthly service fee?", "$4,500")],
                      strategies=["retrieval", "routed"], chunk_tokens=32, chunk_overlap=0, diagnostics=False)


def searches(plan: run_plan.RunPlan) -> dict[str, run_plan.PlannedCall]:
    return {strategy: calls[0] for strategy, calls in plan.questions[0].items()}


def test_a_model_without_a_measured_route_asks_as_self_route(smollm2, monkeypatch):
    monkeypatch.setattr(routing, "ROUTES", {})
    planned = searches(run_plan.plan(smollm2, WORK, WORK.strategies))
    assert planned["routed"].route == routing.DEFAULT and planned["retrieval"].route is None
    assert planned["routed"].text().endswith(routing.INSTRUCTIONS["none"])
    assert planned["routed"].tokens > planned["retrieval"].tokens


def test_a_measured_route_words_the_call_and_grounds_its_answers(smollm2, monkeypatch):
    measured = routing.Route("plain", grounding=True)
    monkeypatch.setattr(routing, "ROUTES", {smollm2.name.lower(): measured})
    planned = searches(run_plan.plan(smollm2, WORK, WORK.strategies))
    assert planned["routed"].route == measured
    assert planned["routed"].text() == planned["retrieval"].text()  # plain: the retrieval strategy's own prompt
    assert planned["routed"].prompt() == prompts.retrieval_prompt(smollm2, planned["routed"].search.chunks,
                                                                  WORK.probes[0].question)


def test_a_route_given_to_the_plan_overrides_the_models_as_an_endpoint_run_gives_self_routes(smollm2, monkeypatch):
    monkeypatch.setattr(routing, "ROUTES", {smollm2.name.lower(): routing.Route("plain", grounding=True)})
    planned = searches(run_plan.plan(smollm2, WORK, WORK.strategies, route=routing.DEFAULT))
    assert planned["routed"].route == routing.DEFAULT


def test_the_measured_models_have_their_routes_and_any_other_self_routes():
    assert routing.for_model("Qwen2.5-Coder-0.5B-Instruct") == routing.Route("plain", grounding=True)
    assert routing.for_model("SmolLM2-135M-Instruct") == routing.Route("plain", grounding=True)
    assert routing.for_model("qwen2.5-coder-1.5b-instruct") == routing.DEFAULT
