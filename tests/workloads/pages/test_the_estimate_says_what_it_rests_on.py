"""The run's estimated duration, in words a person plans around: the planned calls' ledger FLOPs at each strategy's
rate measured in the workload's latest succeeded run, else in the organisation's latest run of the same model, else at
the model's own speed measured on this device when it was provisioned; each part says which it rests on. Before the
first run of any workload a new user sees a time, not only FLOPs (issue 36)."""

import re

import pytest
from django.urls import reverse

from tests.workloads.pages.conftest import html, make_run, standard_report
from workloads.comparisons import fit, starting
from workloads.comparisons.model_choices import choice
from workloads.models import Workload


def estimate(client, workload) -> str:
    return re.search(r"<p data-estimate>(.*?)</p>", html(client.get(reverse("run_create", args=[workload.pk])))
                     ).group(1)


def test_before_any_run_it_times_every_strategy_at_the_models_provisioned_speed(alice_client, workload, document,
                                                                                 probe):
    speed = choice(workload.target_model).speed
    assert speed is not None, "make model stores each model's speed.json"
    planned = fit.preflight(workload, starting.DEFAULT_STRATEGIES)
    chosen = [row for row in planned.rows if row.strategy in starting.DEFAULT_STRATEGIES and row.fits]

    assert all(row.from_speed and row.seconds > 0 for row in chosen)
    # One rate for all: each strategy's seconds are its ledger work at the provisioning call's seconds per FLOP.
    rates = {row.seconds / row.flops for row in chosen}
    assert max(rates) == pytest.approx(min(rates))
    text = estimate(alice_client, workload)
    assert text.startswith(f"Estimated duration: {fit.duration_words(planned.seconds)} in all, ")
    assert f"at the model&#x27;s speed measured on {speed['device']} when it was set up" in text
    assert "ledger" not in text


def test_after_a_run_it_prices_each_strategy_at_its_own_measured_rate(alice_client, workload, document, probe,
                                                                       prices):
    run = make_run(workload, standard_report(probe))  # index share 36 s, dense 72 s, chunked 18 s; 0.6 TFLOP each
    planned = fit.preflight(workload, starting.DEFAULT_STRATEGIES)
    rows = {row.strategy: row for row in planned.rows}

    for strategy, seconds in (("full_index_share", 36.0), ("full_dense", 72.0), ("chunked", 18.0)):
        result = run.results.get(strategy=strategy)
        assert rows[strategy].seconds == rows[strategy].flops * seconds / result.flops_total
        assert not rows[strategy].from_speed
    assert rows["retrieval"].from_speed  # not in that run: the model's speed

    text = estimate(alice_client, workload)
    assert (f"Whole documents (Index Share), Whole documents (dense), Ask every chunk as measured in run {run.pk} on "
            "cpu; ") in text
    assert "Search the chunks, Search, then whole documents if needed" in text


def test_a_new_workload_is_timed_by_another_workloads_run_of_the_same_model(alice_client, acme, workload, document,
                                                                            probe, prices):
    run = make_run(workload, standard_report(probe))
    fresh = Workload.objects.create(organisation=acme, name="Support tickets", target_model=workload.target_model)
    fresh.documents.create(name="t.txt", text=document.text, tokens=document.tokens, lines=1,
                           size_bytes=len(document.text))
    fresh.probes.create(question="Who?", answer="Dana")

    text = estimate(alice_client, fresh)
    assert f"as measured in run {run.pk} of {workload.name} on cpu" in text


def test_a_long_run_reads_in_hours_and_a_short_one_in_minutes():
    assert fit.duration_words(4.2 * 3600) == "about 4.2 hours"
    assert fit.duration_words(25 * 60) == "about 25 minutes"
    assert fit.duration_words(40) == "about 40 seconds"
    assert fit.duration_words(30 * 3600) == "about 30 hours"


def test_the_call_counts_follow_the_strategies(workload, document, probe):
    rows = {row.strategy: row for row in fit.preflight(workload, ["chunked"], {"chunk_tokens": 512,
                                                                               "chunk_overlap": 64}).rows}
    # One call per probe over all documents; chunked: one per chunk (1,234 tokens in 3 chunks of 512) and a reduce.
    assert rows["full_dense"].calls == 1 and rows["chunked"].calls == 3 + 1
