"""A finished run shows what produced it, the prices used and every strategy's measured results."""

import datetime as dt

import pytest

from workloads.models import ComparisonRun, GpuPrice

from .conftest import compare_report, finish_run

COLUMNS = {"strategy", "mode", "refused", "tokens_in", "tokens_out", "calls", "seconds", "wall_seconds",
           "peak_memory_bytes", "flops_linear", "flops_attention", "flops_indexer", "flops_total", "bytes_total",
           "accuracy", "n_probes", "gated", "top1_agreement", "index_overlap", "device_dollars", "api_dollars",
           "unit_device_dollars", "unit_api_dollars", "answers", "tokens_cached", "tokens_in_local", "latency_median",
           "latency_p95", "attempts", "by_kind"}


def test_it_shows_the_run_with_its_provenance_and_prices(as_alice, succeeded_run, prices):
    body = as_alice.get(f"/runs/{succeeded_run.pk}").json()

    assert (body["status"], body["device"], body["error"], body["pricing_error"]) == ("succeeded", "cpu", "", "")
    assert body["versions"] == {"engine": "test", "torch": "2.13.0"}
    assert body["priced_at"] and body["finished_at"]
    gpu, api = body["prices"]["gpu"], body["prices"]["api"]
    assert (gpu["id"], gpu["device_class"], gpu["source"], gpu["effective_from"]) == (
        prices["cpu"].pk, "cpu", "test: a 2-core cloud VM", "2026-01-01")
    assert (api["id"], api["model"], api["source"]) == (prices["api"].pk, "SmolLM2-135M-Instruct",
                                                        "test: an API price page")


def test_it_shows_every_result_column_with_dollars_and_unit_costs(as_alice, succeeded_run):
    results = {r["strategy"]: r for r in as_alice.get(f"/runs/{succeeded_run.pk}").json()["results"]}

    assert list(results) == ["chunked", "full_index_share", "full_dense"]
    chunked = results["chunked"]
    assert set(chunked) == COLUMNS
    measured = ("tokens_in", "seconds", "flops_total", "accuracy", "gated")
    assert tuple(chunked[k] for k in measured) == (1_000_000, 36.0, 1.25e12, 1.0, False)
    assert chunked["device_dollars"] == pytest.approx(36 / 3600 * 0.10)
    assert chunked["api_dollars"] == pytest.approx((1_000_000 * 0.10 + 8 * 0.30) / 1e6)
    assert chunked["unit_device_dollars"] == pytest.approx(chunked["device_dollars"] / 2)
    assert chunked["unit_api_dollars"] == pytest.approx(chunked["api_dollars"] / 2)
    assert chunked["answers"] is None
    assert results["full_index_share"]["gated"] is True and results["full_index_share"]["index_overlap"] == 0.8


def test_a_refused_strategy_says_why_and_has_no_dollars(as_alice, succeeded_run):
    refused = as_alice.get(f"/runs/{succeeded_run.pk}").json()["results"][2]

    assert refused["refused"] == "8,300 positions is longer than the model's 8,192"
    assert (refused["device_dollars"], refused["api_dollars"], refused["unit_api_dollars"]) == (None, None, None)


def test_it_includes_the_probe_answers_when_asked(as_alice, succeeded_run, probe):
    results = as_alice.get(f"/runs/{succeeded_run.pk}", answers="true").json()["results"]

    assert results[0]["answers"] == [{"probe_id": probe.pk, "question": "What is the notice period?",
                                      "expected": "90 days", "kind": "user", "output": "90 days", "correct": True}]
    assert results[1]["answers"][0]["correct"] is False
    assert results[2]["answers"] == []


def test_a_bad_answers_flag_is_400(as_alice, succeeded_run):
    response = as_alice.get(f"/runs/{succeeded_run.pk}", answers="perhaps")

    assert response.status_code == 400
    assert response.json()["detail"].startswith("answers: Input should be a valid boolean")


def test_an_unpriced_run_says_why_and_shows_no_dollars(as_alice, queued_run, prices, probe):
    run = finish_run(queued_run, compare_report(probe, device="NVIDIA B200"))

    body = as_alice.get(f"/runs/{run.pk}").json()

    assert body["pricing_error"].startswith("no GPU price covers the device 'NVIDIA B200'")
    assert body["prices"] == {"gpu": None, "api": None}
    assert {r["device_dollars"] for r in body["results"]} == {None}


def test_reprice_uses_a_price_added_later_for_the_runs_date(as_alice, acme, queued_run, prices, probe):
    run = finish_run(queued_run, compare_report(probe, device="NVIDIA B200"))
    GpuPrice.objects.create(organisation=acme, device_class="B200", per_hour="7.20", effective_from=dt.date(2026, 1, 1),
                            source="test: a B200 quote")

    response = as_alice.post(f"/runs/{run.pk}/reprice")

    assert response.status_code == 200
    body = response.json()
    assert body["pricing_error"] == "" and body["prices"]["gpu"]["source"] == "test: a B200 quote"
    assert body["results"][0]["device_dollars"] == pytest.approx(36 / 3600 * 7.20)


@pytest.mark.parametrize("status", ["queued", "running", "failed", "cancelled"])
def test_reprice_answers_409_for_a_run_that_did_not_succeed(as_alice, queued_run, status):
    ComparisonRun.objects.filter(pk=queued_run.pk).update(status=status)

    response = as_alice.post(f"/runs/{queued_run.pk}/reprice")

    assert (response.status_code, response.json()) == (
        409, {"detail": f"only a succeeded run can be priced; run {queued_run.pk} is {status}"})
