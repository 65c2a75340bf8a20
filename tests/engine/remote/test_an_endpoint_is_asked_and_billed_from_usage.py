"""An endpoint is asked one greedy chat completion and billed from the usage it reports, its cached prompt tokens
apart; retries the endpoint asks for (429 with Retry-After) or needs (a 500) show as attempts and seconds waited."""

import json
import time

from werkzeug import Response

from engine.remote.client import EndpointTarget, ask, list_models

from .conftest import KEY, PATH


def test_a_reply_gives_its_text_and_usage_and_the_request_is_greedy_and_keyed(httpserver, endpoint, completion):
    httpserver.expect_request(PATH, method="POST").respond_with_json(completion(prompt=1200, cached=1024, out=9))

    reply = ask(endpoint(), "You answer briefly.", "What is the fee?", 32)

    assert (reply.text, reply.prompt_tokens, reply.cached_tokens, reply.completion_tokens) == (
        "The fee is $4,500.", 1200, 1024, 9)
    assert (reply.attempts, reply.retry_wait_s) == (1, 0.0) and reply.latency_s > 0
    ((request, _),) = httpserver.log
    assert request.headers["Authorization"] == f"Bearer {KEY}"
    sent = request.get_json()
    assert sent["model"] == "gpt-test" and sent["temperature"] == 0 and sent["max_tokens"] == 32
    assert sent["messages"] == [{"role": "system", "content": "You answer briefly."},
                                {"role": "user", "content": "What is the fee?"}]
    assert not sent.get("stream")


def test_a_reply_without_cached_tokens_counts_none(httpserver, endpoint, completion):
    httpserver.expect_request(PATH).respond_with_json(completion())
    assert ask(endpoint(), "s", "u", 8).cached_tokens == 0


def test_a_429s_retry_after_is_waited_and_counted(httpserver, endpoint, completion):
    httpserver.expect_ordered_request(PATH).respond_with_json(
        {"error": {"message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"}}, status=429,
        headers={"Retry-After": "1"})
    httpserver.expect_ordered_request(PATH).respond_with_json(completion())

    reply = ask(endpoint(), "s", "u", 8)

    assert reply.attempts == 2 and reply.text == "The fee is $4,500."
    assert 0.95 <= reply.retry_wait_s < 1.5 and reply.latency_s >= reply.retry_wait_s


def test_a_server_error_is_tried_again_after_the_clients_backoff(httpserver, endpoint, completion):
    httpserver.expect_ordered_request(PATH).respond_with_data("upstream failed", status=500)
    httpserver.expect_ordered_request(PATH).respond_with_json(completion())

    reply = ask(endpoint(), "s", "u", 8)

    assert reply.attempts == 2 and 0.3 <= reply.retry_wait_s <= 0.6  # 0.5 s less up to a quarter of jitter


def test_a_timed_out_attempts_wait_is_the_backoff_not_the_timeout(own_server, completion):
    slow = iter([True])  # the first request sleeps past the timeout, the second is answered at once
    own_server.expect_request(PATH).respond_with_handler(
        lambda request: time.sleep(0.8) if next(slow, False) else Response(json.dumps(completion()),
                                                                            content_type="application/json"))

    reply = ask(EndpointTarget(own_server.url_for("/v1"), "gpt-test", KEY, timeout_s=0.3), "s", "u", 8)

    assert reply.attempts == 2 and 0.3 <= reply.retry_wait_s <= 0.6 and reply.latency_s >= 0.6


def test_the_models_are_listed(httpserver, endpoint):
    httpserver.expect_request("/v1/models", method="GET").respond_with_json(
        {"object": "list", "data": [{"id": "gpt-test", "object": "model", "created": 0, "owned_by": "me"},
                                    {"id": "gpt-other", "object": "model", "created": 0, "owned_by": "me"}]})
    assert list_models(endpoint()) == ["gpt-test", "gpt-other"]


def test_an_endpoint_without_a_key_is_asked_with_the_placeholder_such_servers_ignore(httpserver, completion):
    httpserver.expect_request(PATH).respond_with_json(completion())
    assert ask(EndpointTarget(httpserver.url_for("/v1"), "gpt-test", ""), "s", "u", 8).attempts == 1
    assert httpserver.log[0][0].headers["Authorization"] == "Bearer EMPTY"


def test_the_key_stays_out_of_the_targets_repr(endpoint):
    assert KEY not in repr(endpoint()) and KEY not in str(endpoint())
