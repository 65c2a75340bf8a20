"""Every fault of an endpoint becomes one line a manager can read on a run page: what went wrong, the endpoint's URL
and model, and how many attempts were made; a request longer than the model's context is a refusal, not a failure.
None of them names the key: not the message, not its repr, not the DEBUG log of the client and its HTTP stack."""

import logging
import socket
import time

import pytest

from engine.core.errors import EngineError
from engine.remote.client import EndpointFailed, EndpointRefused, EndpointTarget, ask, list_models

from .conftest import KEY, PATH

QUICK = {"retry-after-ms": "10"}  # the endpoint's own word on how long to wait, which the client honours


@pytest.fixture
def fails(caplog):
    """Asks, expecting `kind`; checks the key appears nowhere and returns the one-line message."""
    def run(target: EndpointTarget, kind: type[EngineError] = EndpointFailed, call=ask) -> str:
        caplog.set_level(logging.DEBUG)
        with pytest.raises(kind) as raised:
            call(target, "s", "u", 8) if call is ask else call(target)
        message = str(raised.value)
        assert KEY not in message and KEY not in repr(raised.value) and "\n" not in message
        assert any(record.name.startswith("openai") for record in caplog.records)  # the client did log at DEBUG
        assert KEY not in caplog.text
        assert f"The endpoint {target.base_url} (model gpt-test): " in message
        return message
    return run


def test_rate_limits_that_outlast_the_retries_fail_saying_so(httpserver, endpoint, fails):
    httpserver.expect_request(PATH).respond_with_json(
        {"error": {"message": "Rate limit reached for requests", "code": "rate_limit_exceeded"}}, status=429,
        headers=QUICK)
    message = fails(endpoint(max_retries=2))
    assert "still rate-limited (HTTP 429), after 3 attempts. It said: Rate limit reached for requests" in message
    assert len(httpserver.log) == 3


def test_server_errors_that_outlast_the_retries_fail(httpserver, endpoint, fails):
    httpserver.expect_request(PATH).respond_with_data("Internal Server Error", status=503, headers=QUICK)
    assert "server error (HTTP 503), after 3 attempts" in fails(endpoint(max_retries=2))


def test_an_endpoint_slower_than_the_timeout_fails_saying_it_timed_out(own_server, fails):
    own_server.expect_request(PATH).respond_with_handler(lambda request: time.sleep(1.0))
    began = time.monotonic()
    message = fails(EndpointTarget(own_server.url_for("/v1"), "gpt-test", KEY, timeout_s=0.3, max_retries=1))
    assert "timed out (no answer within 0.3 s), after 2 attempts" in message
    assert time.monotonic() - began < 1.5  # two timeouts and one backoff, not the handler's second


def test_a_closed_port_fails_saying_it_could_not_connect(fails):
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    message = fails(EndpointTarget(f"http://127.0.0.1:{port}/v1", "gpt-test", KEY, max_retries=1))
    assert "could not connect (" in message and "after 2 attempts" in message


@pytest.mark.parametrize("content_type", ["application/json", "text/html"])
def test_a_reply_that_is_not_json_fails(httpserver, endpoint, fails, content_type):
    httpserver.expect_request(PATH).respond_with_data("<html>gateway</html>", content_type=content_type)
    assert "the reply is not JSON, after 1 attempt" in fails(endpoint())


def test_a_reply_without_choices_fails(httpserver, endpoint, fails, completion):
    httpserver.expect_request(PATH).respond_with_json(completion(choices=None))
    assert "the reply has no choices, after 1 attempt" in fails(endpoint())


def test_a_reply_without_usage_cannot_be_billed_so_fails(httpserver, endpoint, fails, completion):
    httpserver.expect_request(PATH).respond_with_json(completion(usage=None))
    assert "the reply carries no usage to bill the call by, after 1 attempt" in fails(endpoint())


@pytest.mark.parametrize("body", [
    {"error": {"message": "This model's maximum context length is 128000 tokens. However, your messages resulted in "
               "130000 tokens.", "type": "invalid_request_error", "param": "messages",
               "code": "context_length_exceeded"}},  # OpenAI
    {"object": "error", "message": "This model's maximum context length is 2048 tokens. However, you requested 4000 "
     "tokens (3992 in the messages, 8 in the completion).", "type": "BadRequestError", "param": None,
     "code": 400},  # vLLM
    {"error": {"code": 400, "message": "the request exceeds the available context size, try increasing it",
               "type": "exceed_context_size_error"}},  # llama.cpp
], ids=["openai", "vllm", "llama.cpp"])
def test_a_request_past_the_context_is_refused_not_failed(httpserver, endpoint, fails, body):
    httpserver.expect_request(PATH).respond_with_json(body, status=400)
    message = fails(endpoint(), EndpointRefused)
    assert "the request is longer than the model's context, after 1 attempt. It said: " in message


def test_a_refused_key_fails_without_quoting_the_endpoints_words(httpserver, endpoint, fails):
    httpserver.expect_request(PATH).respond_with_json(
        {"error": {"message": f"Incorrect API key provided: {KEY}.", "code": "invalid_api_key"}}, status=401)
    message = fails(endpoint())
    assert message.endswith("the key was refused (HTTP 401), after 1 attempt")


def test_an_unknown_model_fails_naming_what_to_check(httpserver, endpoint, fails):
    httpserver.expect_request(PATH).respond_with_json({"error": {"message": "no", "code": "model_not_found"}}, 404)
    assert "the model was not found (HTTP 404; check its name" in fails(endpoint())


def test_another_refusal_quotes_the_endpoint_with_the_key_blanked(httpserver, endpoint, fails):
    httpserver.expect_request(PATH).respond_with_json(
        {"error": {"message": f"temperature unsupported for key {KEY}", "code": None}}, status=422)
    message = fails(endpoint())
    assert message.endswith("the request was refused (HTTP 422), after 1 attempt. It said: temperature unsupported "
                            "for key [key]")


def test_listing_the_models_fails_alike(httpserver, endpoint, fails):
    httpserver.expect_request("/v1/models").respond_with_json({"error": {"message": "bad key"}}, status=401)
    assert "the key was refused (HTTP 401)" in fails(endpoint(), call=list_models)


def test_both_are_engine_errors_worded_for_the_person_who_asked():
    assert issubclass(EndpointFailed, EngineError) and issubclass(EndpointRefused, EngineError)
