"""Retrieval plans one dense call over the longest chunks its settings allow; routed adds the full_index_share
call as an escalation, which counts in its work but never makes it refuse."""

from engine.core.call_plan import HEADER_TOKENS, PROMPT_TOKENS, Call, call_plan, calls, positions_needed


def test_retrieval_plans_one_call_over_the_chunks_that_fill_its_budget():
    chunks = [500, 500, 500, 500]
    assert call_plan("retrieval", [2000], chunks) == [Call("dense", 3 * (500 + HEADER_TOKENS) + PROMPT_TOKENS, 1)]
    assert call_plan("retrieval", [2000], chunks, retrieval_chunks=1) == [
        Call("dense", 500 + HEADER_TOKENS + PROMPT_TOKENS, 1)]
    # Budgets are planned on the longest chunks: the call that must fit.
    assert call_plan("retrieval", [900], [100, 400, 400], retrieval_tokens=500)[0].prompt_tokens == \
        400 + HEADER_TOKENS + PROMPT_TOKENS


def test_routed_plans_the_full_call_as_an_escalation_that_never_refuses():
    plan = call_plan("routed", [100_000], [500] * 200)
    search, full = plan
    assert full == Call("index_share", call_plan("full_index_share", [100_000], [])[0].prompt_tokens, 1,
                        escalation=True)
    assert calls(plan) == 2  # the most a question can make
    assert positions_needed(plan) == search.positions < full.positions
