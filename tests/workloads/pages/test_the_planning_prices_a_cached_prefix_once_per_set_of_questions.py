"""The planning's cached lines and its month of questions, against figures worked out by hand: the documents'
prefill shared by the run's questions at the rate the prefill ran at, each question's own calls at theirs. No device
profile here: one measured rate prices every length (test_the_planning_follows_the_cpus_measured_rate_by_length)."""

import pytest
from django.urls import reverse

from engine.core import ledger, run_settings
from tests.workloads.pages.conftest import answer, html, make_run, standard_report, strategy
from workloads.comparisons.planning import project
from workloads.models import ApiPrice

PREFIX, PREFILL_SECONDS, QUESTION_RATE = 3_000, 30.0, 0.5  # tokens, seconds, seconds per ledger TFLOP


def _cached_run(workload, probe):
    the_report = standard_report(probe)
    cached = strategy("index_share", seconds=PREFILL_SECONDS + 3 * 1.5, accuracy=1.0,
                      answers=[answer(probe, "90 days", True)] * 3)
    cached |= {"prefix_tokens": PREFIX, "prefill_seconds": PREFILL_SECONDS, "per_question_seconds": 1.5,
               "rate": {"median": QUESTION_RATE, "min": QUESTION_RATE, "max": QUESTION_RATE}}
    the_report["strategies"]["full_index_share_cached"] = cached
    return make_run(workload, the_report)


def test_a_cached_question_pays_a_third_of_the_prefill_when_three_questions_share_it(workload, probe, prices,
                                                                                      settings, tmp_path):
    settings.DEVICE_PROFILE_DIR = tmp_path
    _cached_run(workload, probe)

    projection = project(workload)

    cfg = run_settings.attention({}, mode="index_share")
    shape = ledger.SMOLLM2_135M
    # 32,768 tokens of one document, its header line (12) and the prompt (80); the question's own 24 follow the cache.
    prefix = 32_768 + 12 + 80 - 24
    question = ledger.continuation_costs(shape, cfg, prefix, 24, 24).total_flops
    # The documents end in no question: their prefill keeps the documents' budget to the end (engine.strategies.prefix).
    prefill = ledger.prefill_costs(shape, cfg, prefix, answer_tail=False).total_flops
    assert projection.questions == 3
    assert projection.flops["full_index_share_cached"][0] == pytest.approx(question + prefill / 3)
    prefill_rate = PREFILL_SECONDS / ledger.prefill_costs(shape, cfg, PREFIX, answer_tail=False).total_flops
    seconds = question * QUESTION_RATE / 1e12 + prefill / 3 * prefill_rate
    assert projection.device_dollars["full_index_share_cached"][0] == pytest.approx(seconds / 3600 * 0.10)
    # The API bills the prefix in full once, then twice more at the input price (no cached price in the book).
    assert projection.api_dollars["full_index_share_cached"][0] == pytest.approx(
        (prefix * 0.10 + 24 * 0.10 + 24 * 0.30) / 1e6)
    assert "whole documents, cached (Index Share) cost" in projection.answer


def test_the_api_bills_the_shared_prefix_at_its_cached_price_after_the_first_question(workload, probe, prices):
    ApiPrice.objects.filter(pk=prices["api"].pk).update(cached_input_per_mtok="0.025")
    _cached_run(workload, probe)

    projection = project(workload)

    prefix = 32_768 + 12 + 80 - 24
    per_prefix_token = (0.10 + 2 * 0.025) / 3
    assert projection.api_dollars["full_index_share_cached"][0] == pytest.approx(
        (prefix * per_prefix_token + 24 * 0.10 + 24 * 0.30) / 1e6)


def test_the_planning_page_prices_a_month_cached_and_uncached_side_by_side(alice_client, workload, probe, prices):
    run = _cached_run(workload, probe)

    page = html(alice_client.get(reverse("planning", args=[workload.pk])))

    # 40 contracts a month; the run read 4 contracts. Uncached: $0.001 for the run (36 s at $0.10/h), so $0.01 a
    # month; cached: 34.5 s ($0.000958) for the run, prefill included once, so $0.00958 a month.
    assert f"A month of questions: 40 contracts, each asked run {run.pk}'s questions, at its prices" in page
    rows = page.split('<table id="month">')[1].split("</table>")[0]
    uncached = rows.index('<th scope="row">Whole documents (Index Share)</th> <td class="num">$0.01</td>')
    cached = rows.index('<th scope="row">Whole documents, cached (Index Share)</th> <td class="num">$0.00958</td>')
    assert cached > uncached  # side by side, the cached form after its uncached one
    assert "Ask every chunk" in rows
    # The decision's month names the recommended strategy's other form beside it.
    assert ("on your device: whole documents, cached (Index Share) $0.00958, ask every chunk $0.005 and whole "
            "documents (Index Share) $0.01 a month") in page


def test_without_an_expected_volume_the_page_says_how_to_get_a_month(alice_client, workload, probe, prices):
    workload.expected_volume = 0
    workload.save()
    _cached_run(workload, probe)

    page = html(alice_client.get(reverse("planning", args=[workload.pk])))

    assert '<table id="month">' not in page
    assert "Set the workload's expected volume on its edit page to price a month of questions" in page
