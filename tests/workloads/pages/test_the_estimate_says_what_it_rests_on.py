"""The run's estimated duration: the planned calls' ledger FLOPs at each strategy's rate measured in the workload's
latest succeeded run, or, before any run, the ledger figure alone, labelled as such."""

import re

from django.urls import reverse

from engine.run_settings import STRATEGIES
from tests.workloads.pages.conftest import html, make_run, standard_report
from workloads.comparisons import fit, starting


def estimate(client, workload) -> str:
    return re.search(r"<p data-estimate>(.*?)</p>", html(client.get(reverse("run_create", args=[workload.pk])))
                     ).group(1)


def test_before_any_run_it_gives_ledger_flops_and_says_there_is_no_measured_rate(alice_client, workload, document,
                                                                                  probe):
    planned = fit.preflight(workload, starting.DEFAULT_STRATEGIES)
    work = sum(row.flops for row in planned.rows if row.strategy in starting.DEFAULT_STRATEGIES)

    text = estimate(alice_client, workload)

    assert text.startswith("Estimated duration of the chosen strategies: about ")
    # In the order the pages list strategies (engine.run_settings.STRATEGIES).
    listed = ", ".join(s for s in STRATEGIES if s in starting.DEFAULT_STRATEGIES)
    assert text.endswith(f"of ledger work for {listed}, with no measured rate yet, so no time.")
    assert f"about {work / 1e12:.3g} TFLOP" in text
    assert all(row.seconds is None for row in planned.rows)


def test_after_a_run_it_prices_each_strategy_at_its_own_measured_rate(alice_client, workload, document, probe,
                                                                       prices):
    run = make_run(workload, standard_report(probe))  # index share 36 s, dense 72 s, chunked 18 s; 0.6 TFLOP each
    planned = fit.preflight(workload, starting.DEFAULT_STRATEGIES)
    rows = {row.strategy: row for row in planned.rows}

    for strategy, seconds in (("full_index_share", 36.0), ("full_dense", 72.0), ("chunked", 18.0)):
        result = run.results.get(strategy=strategy)
        assert rows[strategy].seconds == rows[strategy].flops * seconds / result.flops_total

    text = estimate(alice_client, workload)
    assert (f"for full_index_share, full_dense, chunked, at the seconds per ledger FLOP each measured in run {run.pk} "
            "on cpu; plus about") in text
    # The default strategies that did not run there have ledger FLOPs and no time.
    unmeasured = ", ".join(s for s in STRATEGIES if s in starting.DEFAULT_STRATEGIES
                           and s not in ("full_index_share", "full_dense", "chunked"))
    assert text.endswith(f"of ledger work for {unmeasured}, with no measured rate yet, so no time.")


def test_the_call_counts_follow_the_strategies(workload, document, probe):
    rows = {row.strategy: row for row in fit.preflight(workload, ["chunked"], {"chunk_tokens": 512,
                                                                               "chunk_overlap": 64}).rows}
    # One call per probe over all documents; chunked: one per chunk (1,234 tokens in 3 chunks of 512) and a reduce.
    assert rows["full_dense"].calls == 1 and rows["chunked"].calls == 3 + 1
