"""An OpenAI-compatible endpoint played by pytest-httpserver: real HTTP on 127.0.0.1, answers the test chooses."""

import pytest
from pytest_httpserver import HTTPServer

from engine.remote.client import EndpointTarget

KEY = "sk-remote-test-never-shown-7731"
PATH = "/v1/chat/completions"


@pytest.fixture
def endpoint(httpserver):
    """A target on the test server; keyword arguments set its timeout and retries."""
    return lambda **settings: EndpointTarget(httpserver.url_for("/v1"), "gpt-test", KEY, **settings)


@pytest.fixture
def own_server():
    """A server of the test's own that answers requests side by side: its slow handlers hold up no other test."""
    server = HTTPServer(threaded=True)
    server.start()
    yield server
    server.clear()
    server.stop()


@pytest.fixture
def completion():
    """An OpenAI chat completion's body, usage included unless told otherwise."""
    def body(text="The fee is $4,500.", prompt=120, cached=None, out=7, **drop) -> dict:
        usage = {"prompt_tokens": prompt, "completion_tokens": out, "total_tokens": prompt + out}
        if cached is not None:
            usage["prompt_tokens_details"] = {"cached_tokens": cached}
        whole = {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "gpt-test", "usage": usage,
                 "choices": [{"index": 0, "finish_reason": "stop",
                              "message": {"role": "assistant", "content": text}}]}
        return {k: v for k, v in whole.items() if k not in drop}
    return body
