"""One chat completion from an OpenAI-compatible endpoint, billed from the `usage` it reports, its faults worded in
one line for a run page.

The maintained `openai` client makes the requests and retries them (openai 3.63, `_base_client.py`): a timeout, a
connection that fails, and the answers 408, 409, 429 and 5xx are tried again, up to `max_retries` more times. Between
tries it waits what the endpoint asks in `retry-after-ms` or `Retry-After` when that is over 0 and at most 120 s
(over 120 s it does not try again), else 0.5 s doubling to at most 8 s, less up to a quarter at random. A hook on its
HTTP client counts the requests it made and the seconds it waited between them, so a reply shows what it cost to get.

The key is the caller's secret: the target's repr leaves it out, no message here names it, and text quoted from the
endpoint has it blanked. Nor do openai 3.63 and httpx2 log it: at DEBUG they log a response's headers, never a
request's.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import httpx2
import openai

from engine.core.errors import EngineError

# How providers word a request longer than the model's context: OpenAI and vLLM ("This model's maximum context length
# is ..."), llama.cpp ("exceeds the available context size"), vLLM's "maximum model length", Anthropic's
# "prompt is too long", text-generation-inference's "`max_new_tokens` must be <= ...", and "context window".
CONTEXT_WORDINGS = re.compile(
    r"context[ _]length|context size|context window|maximum model length|prompt is too long|max_new_tokens` must be <=",
    re.IGNORECASE)
CONTEXT_CODES = {"context_length_exceeded", "exceed_context_size_error"}  # OpenAI's code, llama.cpp's type
QUOTED_CHARS = 300  # of what the endpoint said, enough for its reason, short enough for one line


@dataclass(frozen=True)
class EndpointTarget:
    """Where to ask: an OpenAI-compatible API's base URL (usually ending in /v1), the model it serves, and its key."""

    base_url: str
    model: str
    api_key: str = field(repr=False)
    timeout_s: float = 120.0  # how long one request may wait to connect, send, or hear the next byte of its answer
    max_retries: int = 4  # requests after the first, for the faults the client tries again


@dataclass
class Reply:
    text: str
    prompt_tokens: int
    cached_tokens: int  # of the prompt tokens, those the provider read from its prompt cache (billed cheaper)
    completion_tokens: int
    latency_s: float  # wall seconds of the whole call, its retries and their waits included
    attempts: int  # HTTP requests made
    retry_wait_s: float  # of latency_s, the seconds waited between requests (a 429's Retry-After shows here)


class EndpointRefused(EngineError):
    """The endpoint refused the request as longer than its model's context: an answer, as the local engine's refusal
    to truncate is, not a fault of the endpoint."""


class EndpointFailed(EngineError):
    """The endpoint gave no reply that can be used and billed: the key or model refused, rate limits, server errors or
    timeouts that outlasted the retries, no connection, or a reply without choices or usage."""


def ask(target: EndpointTarget, system: str, user: str, max_tokens: int) -> Reply:
    """The model's greedy answer to a system and a user message, with the usage the endpoint bills."""
    with _call(target) as tally:
        completion = _client(target).chat.completions.create(
            model=target.model, temperature=0, max_tokens=max_tokens, stream=False,
            messages=[{"role": "system", "content": system}, {"role": "user", "content": user}])
        if isinstance(completion, str):  # the client hands back the text of an answer that is not JSON
            raise _failed(target, "the reply is not JSON", tally.attempts)
        # The client does not validate what it parsed (an endpoint's extra or missing fields must not break it), so
        # each part read here is checked for its type.
        choices = getattr(completion, "choices", None)
        message = getattr(choices[0], "message", None) if isinstance(choices, list) and choices else None
        if message is None:
            raise _failed(target, "the reply has no choices", tally.attempts)
        usage = getattr(completion, "usage", None)
        tokens_in, tokens_out = getattr(usage, "prompt_tokens", None), getattr(usage, "completion_tokens", None)
        if not isinstance(tokens_in, int) or not isinstance(tokens_out, int):
            raise _failed(target, "the reply carries no usage to bill the call by", tally.attempts)
        cached = getattr(getattr(usage, "prompt_tokens_details", None), "cached_tokens", None)
        return Reply(text=_text(getattr(message, "content", None)), prompt_tokens=tokens_in,
                     cached_tokens=cached if isinstance(cached, int) else 0, completion_tokens=tokens_out,
                     latency_s=time.monotonic() - tally.began, attempts=tally.attempts, retry_wait_s=tally.waited_s)


def list_models(target: EndpointTarget) -> list[str]:
    """The names of the models the endpoint serves (GET /models), to check a target before a run uses it."""
    with _call(target) as tally:
        page = _client(target).models.list()
        if isinstance(page, str) or not isinstance(getattr(page, "data", None), list):
            raise _failed(target, "the reply is not a list of models", tally.attempts)
        return [model.id for model in page.data]


def _text(content: object) -> str:
    """A message's text: a string, or the text parts of a list of parts (as Mistral sends); none when it has none
    (a reasoning model that spent max_tokens thinking)."""
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content
                       if isinstance(part, dict) and part.get("type") == "text")
    return content if isinstance(content, str) else ""


class _Tally:
    """The HTTP requests one call made, and the seconds it waited between them."""

    def __init__(self) -> None:
        self.began = time.monotonic()
        self.attempts, self.waited_s = 0, 0.0
        self.heard: float | None = None  # when the latest request last did anything

    def started(self, request: httpx2.Request) -> None:
        now = time.monotonic()
        if self.heard is not None:
            self.waited_s += now - self.heard
        self.attempts, self.heard = self.attempts + 1, now
        # httpcore reports each step of a request to its trace extension: the last step of one that got no answer
        # (a timeout, a refused connection) marks when it gave up, which no response hook would see.
        request.extensions["trace"] = self.step

    def step(self, event: str, info: dict) -> None:
        self.heard = time.monotonic()


_calls: contextvars.ContextVar[_Tally] = contextvars.ContextVar("endpoint_call")  # per call: clients are shared


def _count(request: httpx2.Request) -> None:
    """The HTTP client's request hook: runs before every request the openai client sends, retries included."""
    tally = _calls.get(None)
    if tally is not None:
        tally.started(request)


@functools.lru_cache(maxsize=32)
def _client(target: EndpointTarget) -> openai.OpenAI:
    """One client per target, its connections kept alive across a run's calls."""
    # A server run without a key (vLLM, llama.cpp) ignores the header; the client insists on one: "EMPTY" is vLLM's.
    return openai.OpenAI(base_url=target.base_url, api_key=target.api_key or "EMPTY", timeout=target.timeout_s,
                         max_retries=target.max_retries,
                         http_client=openai.DefaultHttpxClient(event_hooks={"request": [_count]}))


@contextlib.contextmanager
def _call(target: EndpointTarget) -> Iterator[_Tally]:
    """A call's tally, with the client's errors raised as ours. `from None`: the client's error may quote the
    endpoint's answer whole, and a traceback in a worker's log should not carry what a server echoed."""
    tally = _Tally()
    token = _calls.set(tally)
    try:
        yield tally
    except (openai.OpenAIError, json.JSONDecodeError) as error:
        raise _fault(target, error, tally.attempts) from None
    finally:
        _calls.reset(token)


def _fault(target: EndpointTarget, error: Exception, attempts: int) -> EngineError:
    if isinstance(error, json.JSONDecodeError):
        return _failed(target, "the reply is not JSON", attempts)
    if isinstance(error, openai.APITimeoutError):  # before APIConnectionError, its parent
        return _failed(target, f"timed out (no answer within {target.timeout_s:g} s)", attempts)
    if isinstance(error, openai.APIConnectionError):
        return _failed(target, f"could not connect ({_quoted(target, error.__cause__) or 'no reason given'})", attempts)
    if not isinstance(error, openai.APIStatusError):
        return _failed(target, f"the client failed ({type(error).__name__})", attempts, _quoted(target, error))
    status, said = error.status_code, _said(target, error)
    if isinstance(error, openai.BadRequestError) and _is_past_context(error, said):
        return EndpointRefused(_message(target, "the request is longer than the model's context", attempts, said))
    if isinstance(error, (openai.AuthenticationError, openai.PermissionDeniedError)):
        return _failed(target, f"the key was refused (HTTP {status})", attempts)  # OpenAI's words quote part of it
    if isinstance(error, openai.NotFoundError):
        return _failed(target, "the model was not found (HTTP 404; check its name, and that the base URL is "
                       "the API's, which usually ends in /v1)", attempts)
    if isinstance(error, openai.RateLimitError):
        return _failed(target, "still rate-limited (HTTP 429)", attempts, said)
    if status >= 500:
        return _failed(target, f"server error (HTTP {status})", attempts, said)
    return _failed(target, f"the request was refused (HTTP {status})", attempts, said)


def _is_past_context(error: openai.BadRequestError, said: str) -> bool:
    kind = error.body.get("type") if isinstance(error.body, dict) else None
    return any(isinstance(code, str) and code in CONTEXT_CODES for code in (error.code, kind)) or bool(
        CONTEXT_WORDINGS.search(said))


def _said(target: EndpointTarget, error: openai.APIStatusError) -> str:
    """The endpoint's own reason, on one line, with the key blanked should a server echo it."""
    body = error.body  # the client has already unwrapped {"error": {...}}
    said = (body.get("message") or body.get("detail")) if isinstance(body, dict) else body
    if not isinstance(said, str) or said.lstrip().startswith("<"):  # no reason given, or an HTML error page
        return ""
    return _quoted(target, said)


def _quoted(target: EndpointTarget, said: object) -> str:
    """Text from elsewhere, on one line, short, with the key blanked should it be echoed."""
    said = " ".join(str(said or "").split())
    return (said.replace(target.api_key, "[key]") if target.api_key else said)[:QUOTED_CHARS]


def _failed(target: EndpointTarget, fault: str, attempts: int, said: str = "") -> EndpointFailed:
    return EndpointFailed(_message(target, fault, attempts, said))


def _message(target: EndpointTarget, fault: str, attempts: int, said: str) -> str:
    tries = f"{attempts} attempt" + ("" if attempts == 1 else "s")
    return f"The endpoint {target.base_url} (model {target.model}): {fault}, after {tries}" + (
        f". It said: {said}" if said else "")
