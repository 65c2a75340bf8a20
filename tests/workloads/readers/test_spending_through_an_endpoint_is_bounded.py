"""Spending through an endpoint is bounded (issue 38): a run whose estimate passes its cap, or the month's with what
the organisation already spent, is not queued, nor started by the worker if a cap was lowered meanwhile, and says
so; one whose bill reaches the cap stops and keeps the questions every strategy finished; a fault fails the run with
the endpoint's own one-line message and loses nothing, so a retry asks only what was never answered; a 429's
Retry-After is honoured and counted.

The endpoint is pytest-httpserver answering in the OpenAI shape with a bill of its choosing (a provider's
tokenizer counts differently from ours); the worker's task runs in this process, with the test model's tokenizer."""

import json
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from werkzeug import Response

from workloads.comparisons.starting import retry_run, start_run
from workloads.models import ComparisonRun, EndpointCall
from workloads.tasks import run_comparison

from .conftest import make_endpoint

pytestmark = pytest.mark.model

PATH = "/v1/chat/completions"
KEY = "sk-fake-provider-key-0001"
PROMPT_TOKENS = 75_000  # $0.015 a call at the test entry's $0.20 per million input tokens
STRATEGIES = ["retrieval", "full_dense"]  # two calls a question


def reply(text: str = "90 days", prompt_tokens: int = PROMPT_TOKENS) -> dict:
    return {"id": "x", "object": "chat.completion", "created": 0, "model": "smollm2",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": 4, "total_tokens": prompt_tokens + 4,
                      "prompt_tokens_details": {"cached_tokens": 0}}}


@pytest.fixture
def endpoint(httpserver, ready_workload):
    return make_endpoint(ready_workload.organisation, httpserver.url_for("/v1"), KEY)


def _run(workload, user, endpoint) -> ComparisonRun:
    run = start_run(workload, user, STRATEGIES, engine=False, endpoints=[endpoint])
    run_comparison(run.pk)
    run.refresh_from_db()
    return run


def _caps(organisation, run=None, month=None) -> None:
    organisation.endpoint_run_cap, organisation.endpoint_month_cap = run, month
    organisation.save()


def test_an_estimate_over_the_run_cap_is_not_queued_nor_started(httpserver, endpoint, ready_workload, alice):
    _caps(ready_workload.organisation, run=Decimal("0.00"))  # caps are in cents
    with pytest.raises(ValidationError) as refused:
        start_run(ready_workload, alice, STRATEGIES, engine=False, endpoints=[endpoint])
    assert refused.value.messages[0].startswith("through GPU box, this comparison could bill up to $0.000")
    assert "over the cap of $0 a run that an admin set: it did not start" in refused.value.messages[0]
    assert not ComparisonRun.objects.exists()

    _caps(ready_workload.organisation)
    run = start_run(ready_workload, alice, STRATEGIES, engine=False, endpoints=[endpoint])
    _caps(ready_workload.organisation, run=Decimal("0.00"))  # lowered while it waited: the worker checks again
    run_comparison(run.pk)
    run.refresh_from_db()
    assert run.status == ComparisonRun.Status.FAILED
    assert run.error.startswith("this comparison could bill up to $0.000")
    assert "over the cap of $0 a run that an admin set: it did not start" in run.error
    assert len(httpserver.log) == 0 and not EndpointCall.objects.exists()


def test_the_months_cap_counts_what_the_organisation_already_spent(httpserver, endpoint, ready_workload, alice):
    httpserver.expect_request(PATH).respond_with_json(reply())
    _run(ready_workload, alice, endpoint)  # 4 calls, $0.06, this month
    _caps(ready_workload.organisation, month=Decimal("0.06"))
    with pytest.raises(ValidationError) as refused:
        start_run(ready_workload, alice, STRATEGIES, engine=False, endpoints=[endpoint])
    assert "with $0.06 spent this month that passes the month's cap of $0.06" in refused.value.messages[0]
    assert ComparisonRun.objects.count() == 1 and len(httpserver.log) == 4


def test_a_run_that_reaches_its_cap_stops_and_keeps_the_questions_it_finished(httpserver, endpoint, ready_workload,
                                                                              alice):
    httpserver.expect_request(PATH).respond_with_json(reply())
    # The estimate (our tokenizer's count, a few hundred tokens) passes; the provider's bill reaches the cap at the
    # third call, part-way through the second question.
    _caps(ready_workload.organisation, run=Decimal("0.04"))
    run = _run(ready_workload, alice, endpoint)
    assert run.status == ComparisonRun.Status.SUCCEEDED, run.error
    assert run.stopped == "stopped at the run's cap of $0.04: $0.045 billed"
    assert EndpointCall.objects.filter(run=run).count() == len(httpserver.log) == 3
    for result in run.results.all():
        assert result.n_probes == 1 and result.calls == 1 and result.answers.count() == 1
        assert result.device_dollars == pytest.approx(0.015 + 4 * 0.80 / 1e6)
    assert run.report["questions_finished"] == 1


def test_a_fault_fails_the_run_saying_so_and_a_retry_asks_only_what_was_never_answered(httpserver, endpoint,
                                                                                        ready_workload, alice):
    answered = []

    def flaky(request):
        if len(answered) == 1:  # the second call: the provider is down
            return Response("upstream connect error", status=503, headers={"retry-after-ms": "10"})
        answered.append(request)
        return Response(json.dumps(reply()), content_type="application/json")

    httpserver.expect_request(PATH).respond_with_handler(flaky)
    run = _run(ready_workload, alice, endpoint)
    assert run.status == ComparisonRun.Status.FAILED
    assert f"The endpoint {endpoint.base_url} (model smollm2-135m-instruct): server error (HTTP 503), after 5 " \
           "attempts. It said: upstream connect error" in run.error
    assert KEY not in run.error
    assert EndpointCall.objects.filter(run=run).count() == 1  # the answered call is kept

    answered.append(None)  # the provider is back
    asked_before = len(httpserver.log)
    assert retry_run(run)
    run_comparison(run.pk)
    run.refresh_from_db()
    assert run.status == ComparisonRun.Status.SUCCEEDED, run.error
    assert run.report["calls"] == {"made": 3, "reused": 1}
    assert len(httpserver.log) - asked_before == 3


def test_a_429_is_waited_out_as_the_provider_asks_and_counted(httpserver, endpoint, ready_workload, alice):
    httpserver.expect_oneshot_request(PATH).respond_with_json(
        {"error": {"message": "Rate limit reached", "code": "rate_limit_exceeded"}}, status=429,
        headers={"Retry-After": "1"})
    httpserver.expect_request(PATH).respond_with_json(reply())
    run = _run(ready_workload, alice, endpoint)
    assert run.status == ComparisonRun.Status.SUCCEEDED, run.error
    retried = [c.reply for c in EndpointCall.objects.filter(run=run) if c.reply["attempts"] == 2]
    assert len(retried) == 1 and retried[0]["retry_wait_s"] >= 0.95
    assert sum(r.retries for r in run.results.all()) == 1
