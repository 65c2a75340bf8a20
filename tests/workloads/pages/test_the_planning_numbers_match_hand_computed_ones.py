"""The planning's calls and API dollars, against figures worked out by hand from the run's settings."""

import pytest

from engine.core import ledger, run_settings
from engine.core.call_plan import Call
from tests.workloads.pages.conftest import make_run, standard_report
from workloads.comparisons import planning
from workloads.comparisons.planning import _calls, project


def test_a_question_over_32k_tokens_makes_these_calls(workload, probe):
    run = make_run(workload, standard_report(probe))  # chunks of 512 tokens, 64 repeated

    # (32,768 − 64) / 448 = 73 chunks; with their overlaps they hold 32,768 + 72 × 64 = 37,376 tokens, 512 each.
    assert _calls("chunked", 32_768, run) == [Call("dense", 512 + 80, 73), Call("dense", 80 + 73 * (24 + 4), 1)]
    # One call over the document, its "=== name ===" line (12) and the prompt (80).
    assert _calls("full_index_share", 32_768, run) == [Call("index_share", 32_768 + 12 + 80, 1)]


def test_the_api_dollars_are_the_calls_tokens_at_the_price_book_prices(workload, probe, prices):
    make_run(workload, standard_report(probe))

    projection = project(workload)

    # $0.10 in and $0.30 out per million tokens; every call writes at most 24 tokens.
    chunked = (73 * (592 + 24 * 0.30 / 0.10) + (2124 + 24 * 3)) * 0.10 / 1e6
    full = (32_860 * 0.10 + 24 * 0.30) / 1e6
    assert projection.api_dollars["chunked"][0] == pytest.approx(chunked)
    assert projection.api_dollars["full_index_share"][0] == pytest.approx(full)


def test_the_ledger_flops_are_the_calls_at_the_runs_attention(workload, probe):
    make_run(workload, standard_report(probe))  # run at the default settings

    projection = project(workload)

    dense = run_settings.attention({}, mode="dense")
    assert projection.flops["full_dense"][0] == ledger.call_costs(ledger.SMOLLM2_135M, dense, 32_860, 24).total_flops


def test_a_cost_just_above_asking_every_chunk_is_not_written_as_1x():
    # The planning page said Index Share "cost more than asking every chunk ... (1× asking every chunk at 32K)".
    said = planning._crossing(None, [1.02] * len(planning.LENGTHS), [1.0] * len(planning.LENGTHS), "full_index_share")
    assert "(1.02× asking every chunk at 32K)" in said


def test_routed_is_projected_at_the_share_of_questions_its_run_escalated(workload, probe, prices):
    # The planning page left out routed, the sample's recommended strategy, so its recommendation had no projection.
    the_report = standard_report(probe)
    for strategy in ("retrieval", "routed"):
        the_report["strategies"][strategy] = dict(the_report["strategies"]["chunked"], calls=1)
    the_report["strategies"]["routed"] |= {"escalated": 1, "escalated_share": 0.25}
    make_run(workload, the_report)

    projection = project(workload)

    search, escalation = _calls("routed", 32_768, make_run(workload))
    assert escalation.escalation and _calls("retrieval", 32_768, make_run(workload)) == [search]
    at = run_settings.attention({})
    search_flops = ledger.call_costs(ledger.SMOLLM2_135M, at.replace(mode="dense"), search.prompt_tokens, 24)
    whole = ledger.call_costs(ledger.SMOLLM2_135M, at.replace(mode="index_share"), escalation.prompt_tokens, 24)
    assert projection.flops["retrieval"][0] == pytest.approx(search_flops.total_flops)
    assert projection.flops["routed"][0] == pytest.approx(search_flops.total_flops + 0.25 * whole.total_flops)
    api = (search.prompt_tokens * 0.10 + 24 * 0.30 + 0.25 * (escalation.prompt_tokens * 0.10 + 24 * 0.30)) / 1e6
    assert projection.api_dollars["routed"][0] == pytest.approx(api)
    assert any("escalated 25% of its questions to whole documents" in note for note in projection.notes)
