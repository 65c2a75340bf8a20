"""A comparison queued for this worker's engine and an endpoint (issue 38): a real Celery worker asks a real
OpenAI-compatible server process (`python -m engine serve`, the test model, dense attention) the same calls as the
engine. The endpoint's run is billed from its replies' usage at the endpoint's price-book entry, its answers are
scored as the engine's (and are the engine's, greedy and dense on the same ids), and the run page, the API and the
PDF read both side by side with one recommendation over all of them, as do the dashboard and the workload's history.
The key is in none of them, nor in any log."""

import secrets

import pytest
from django.urls import reverse

from tests.workloads.live import requests_served, serve, stop, wait_for
from tests.workloads.pages.test_no_identifier_reaches_a_reader import visible
from tests.workloads.reporting.summary.conftest import pdf_text
from workloads.comparisons import pricing
from workloads.comparisons.batches import batch, side_by_side
from workloads.comparisons.starting import start_run
from workloads.models import ApiToken, ComparisonRun, EndpointCall
from workloads.reporting.summary.render import render_summary

from .conftest import make_endpoint

pytestmark = [pytest.mark.model, pytest.mark.worker]

KEY = f"sk-leaktest-{secrets.token_hex(12)}"
STRATEGIES = ["retrieval", "full_dense", "full_index_share_cached"]


@pytest.fixture
def server(tmp_path):
    log = tmp_path / "serve.log"
    process, url = serve(log, KEY, "--mode", "dense")
    yield url, log
    stop(process)


def test_the_engine_and_an_endpoint_are_compared_side_by_side(celery_worker, server, ready_workload, alice,
                                                             alice_client, client):
    url, server_log = server
    endpoint = make_endpoint(ready_workload.organisation, url, KEY)
    first = start_run(ready_workload, alice, STRATEGIES, endpoints=[endpoint])
    runs = batch(first)
    wait_for(lambda: all(ComparisonRun.objects.get(pk=r.pk).finished for r in runs), 600, "both runs to end")
    engine, through = [ComparisonRun.objects.get(pk=r.pk) for r in runs]
    assert engine.status == through.status == ComparisonRun.Status.SUCCEEDED, (engine.error, through.error)
    assert engine.reader == "" and through.reader == f"GPU box (smollm2-135m-instruct at {url})"
    # Whole documents are one request through an endpoint, cached by the provider or not.
    assert through.strategies == ["retrieval", "full_dense", "full_dense_cached"]

    calls = list(EndpointCall.objects.filter(run=through))
    assert requests_served(server_log) == len(calls) == sum(r.calls for r in through.results.all())
    price = endpoint.price
    for result in through.results.all():
        replies = [c.reply for c in calls if c.key.startswith(f"{result.strategy}:")]
        assert result.tokens_in == sum(r["prompt_tokens"] for r in replies) == result.tokens_in_local
        assert result.tokens_out == sum(r["completion_tokens"] for r in replies)
        assert result.tokens_cached == 0  # the engine's server caches no prompt, and says so
        assert result.device_dollars == pytest.approx(
            pricing.billed_dollars(result.tokens_in, result.tokens_cached, result.tokens_out, price))
        assert result.device_dollars == pytest.approx(sum(c.dollars for c in calls
                                                          if c.key.startswith(f"{result.strategy}:")))
        assert result.api_dollars is None and result.latency_median > 0 and result.attempts == result.calls
    local = {r.strategy: r for r in engine.results.all()}
    for strategy in ("retrieval", "full_dense"):  # dense on both sides: the same answers, scored the same
        there = through.results.get(strategy=strategy).answers.all()
        assert ([(a.output, a.correct) for a in there]
                == [(a.output, a.correct) for a in local[strategy].answers.all()])

    both = side_by_side(through)
    assert both.decision is not None and both.questions == 2
    assert {o.strategy for o in both.options} >= {"This worker's engine: Search the chunks",
                                                  "GPU box: Search the chunks"}

    pages = [visible(alice_client.get(reverse("run_detail", args=[r.pk]))) for r in (engine, through)]
    for page in pages:
        assert "Readers side by side" in page and both.decision.sentence in page
    assert "Tokens billed in" in pages[1] and "Read by the endpoint GPU box" in pages[1]
    pages.append(visible(alice_client.get(reverse("dashboard"))))
    assert f"Across the readers queued with it: {both.decision.sentence}" in pages[-1]
    pages.append(visible(alice_client.get(reverse("workload_detail", args=[ready_workload.pk]))))
    assert "The readers compared, period by period" in pages[-1] and both.decision.sentence in pages[-1]

    token = ApiToken.issue(alice)
    headers = {"Authorization": f"Bearer {token}"}
    api = client.get(f"/api/runs/{through.pk}", {"answers": "true"}, headers=headers)
    assert api.status_code == 200
    body = api.json()
    assert body["reader"] == through.reader and body["endpoint_id"] == endpoint.pk
    assert {r["strategy"]: r["tokens_in"] for r in body["results"]} == {
        r.strategy: r.tokens_in for r in through.results.all()}

    pdf, _ = render_summary(through)
    text = pdf_text(pdf)
    assert "read by GPU box" in text and "Across the readers compared with it" in text
    assert "The readers queued with it, side by side" in text and "GPU box: Search the chunks" in text

    exports = [client.get(path, headers=headers).content.decode() for path in (
        f"/api/runs/{through.pk}", f"/api/workloads/{ready_workload.pk}/runs.csv", "/api/endpoints")]
    exports += [alice_client.get(reverse(name, args=[through.pk])).content.decode()
                for name in ("run_export_csv", "run_export_json")]
    everything = [*pages, api.content.decode(), text, *exports, celery_worker.read_text(), server_log.read_text()]
    for where, seen in enumerate(everything):
        assert KEY not in seen and KEY[:16] not in seen, where
