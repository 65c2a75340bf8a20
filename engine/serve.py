"""`python -m engine serve`: the engine behind the OpenAI chat-completions protocol.

GET /v1/models and POST /v1/chat/completions (not streamed), with `usage` as OpenAI reports it, so that any
OpenAI-compatible client (the `openai` package, a business's tools, the app's own endpoint runs) can ask a model
through the engine's attention: a GPU box running the engine serves Index Share to all of them. Decoding is greedy
and one request runs at a time (the model and its attention state are not reentrant); the others wait their turn.

Errors answer in OpenAI's shape, {"error": {"message", "type", "code"}}: a missing or wrong key 401
(invalid_api_key), an unknown model 404 (model_not_found), a request past the model's positions 400
(context_length_exceeded), a malformed or oversized body 400 or 413. The key comes from ENGINE_SERVE_API_KEY, never
from the command line (where `ps` shows it), and is never logged or echoed.
"""

from __future__ import annotations

import hmac
import json
import logging
import os
import threading
import time
import uuid
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from engine.core.attention_config import AttentionConfig
from engine.core.errors import EngineError
from engine.model.generate import generate
from engine.model.loader import LoadedModel

KEY_ENV = "ENGINE_SERVE_API_KEY"
MAX_BODY_BYTES = 32 << 20  # a million tokens of text is about 4 MB
DEFAULT_MAX_TOKENS = 256
ROLES = ("system", "user", "assistant")

log = logging.getLogger(__name__)


class RequestError(Exception):
    """A request the server refuses, with OpenAI's status, type and code."""

    def __init__(self, status: HTTPStatus, message: str, code: str | None = None,
                 kind: str = "invalid_request_error"):
        super().__init__(message)
        self.status, self.code, self.kind = status, code, kind


class Engine:
    """The model the server answers with, its attention, and the lock that gives it one request at a time."""

    def __init__(self, lm: LoadedModel, attention: AttentionConfig, key: str | None, aliases: tuple[str, ...] = ()):
        self.lm, self.attention, self.key = lm, attention, key
        self.names = {lm.name, *aliases}  # a request may name the model as the command did (its catalogue name)
        self.lock = threading.Lock()

    def models(self) -> dict:
        return {"object": "list", "data": [{"id": self.lm.name, "object": "model", "created": 0,
                                            "owned_by": "costplanner", "max_positions": self.lm.max_positions}]}

    def complete(self, request: dict) -> dict:
        """A chat completion for an OpenAI request body, already parsed."""
        if request.get("model") not in self.names:
            raise RequestError(HTTPStatus.NOT_FOUND, f"the model {request.get('model')!r} does not exist; this "
                               f"server has {self.lm.name!r}", "model_not_found")
        if request.get("stream"):
            raise RequestError(HTTPStatus.BAD_REQUEST, "streaming is not supported: send stream false", "unsupported")
        max_tokens = request.get("max_completion_tokens", request.get("max_tokens", DEFAULT_MAX_TOKENS))
        if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < 1:
            raise RequestError(HTTPStatus.BAD_REQUEST, f"max_tokens must be a whole number, 1 or more; got "
                               f"{max_tokens!r}", "invalid_value")
        ids = self._prompt(_messages(request.get("messages")))
        if len(ids) + max_tokens > self.lm.max_positions:
            raise RequestError(
                HTTPStatus.BAD_REQUEST,
                f"This model's maximum context length is {self.lm.max_positions} tokens. However, you requested "
                f"{len(ids) + max_tokens} tokens ({len(ids)} in the messages, {max_tokens} in the completion). "
                "Please reduce the length of the messages or completion.", "context_length_exceeded")
        with self.lock:
            result = generate(self.lm, ids, self.attention, max_tokens)
        return {
            "id": f"chatcmpl-{uuid.uuid4().hex}", "object": "chat.completion", "created": int(time.time()),
            "model": self.lm.name,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": result.text},
                         "finish_reason": "length" if result.new_tokens >= max_tokens else "stop"}],
            "usage": {"prompt_tokens": len(ids), "completion_tokens": result.new_tokens,
                      "total_tokens": len(ids) + result.new_tokens,
                      # Every request is prefilled whole: nothing is served from a cache, and none is billed so.
                      "prompt_tokens_details": {"cached_tokens": 0}},
        }

    def _prompt(self, messages: list[dict]) -> list[int]:
        if not getattr(self.lm.tokenizer, "chat_template", None):
            raise RequestError(HTTPStatus.BAD_REQUEST, f"{self.lm.name} has no chat template: it takes no messages")
        ids = self.lm.tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=True)
        return list(ids if isinstance(ids, list) else ids["input_ids"])


def _messages(messages) -> list[dict]:
    """The messages as the chat template takes them: a role and text each (a list of text parts is joined)."""
    if not isinstance(messages, list) or not messages:
        raise RequestError(HTTPStatus.BAD_REQUEST, "messages must be a non-empty list", "invalid_value")
    out = []
    for message in messages:
        role = message.get("role") if isinstance(message, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list):
            parts = [p.get("text") for p in content if isinstance(p, dict) and p.get("type") == "text"]
            content = "".join(p for p in parts if isinstance(p, str)) if len(parts) == len(content) else None
        if role not in ROLES or not isinstance(content, str):
            raise RequestError(HTTPStatus.BAD_REQUEST, f"each message needs a role ({', '.join(ROLES)}) and text "
                               "content", "invalid_value")
        out.append({"role": role, "content": content})
    return out


def handler(engine: Engine) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "engine-serve"

        def do_GET(self) -> None:
            self._answer(lambda: engine.models() if self.path == "/v1/models" else _not_found(self.path))

        def do_POST(self) -> None:
            self._answer(lambda: engine.complete(self._body()) if self.path == "/v1/chat/completions"
                         else _not_found(self.path))

        def _answer(self, make) -> None:
            try:
                self._authorised()
                status, body = HTTPStatus.OK, make()
            except RequestError as exc:
                status, body = exc.status, {"error": {"message": str(exc), "type": exc.kind, "code": exc.code}}
            except EngineError as exc:
                status, body = HTTPStatus.BAD_REQUEST, {"error": {"message": str(exc), "type": "invalid_request_error",
                                                                  "code": None}}
            except Exception:
                log.exception("the request failed")
                status, body = HTTPStatus.INTERNAL_SERVER_ERROR, {"error": {
                    "message": "the server failed to answer; see its log", "type": "server_error", "code": None}}
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _authorised(self) -> None:
            if engine.key is None:
                return
            given = self.headers.get("Authorization", "").removeprefix("Bearer ").strip()
            if not hmac.compare_digest(given.encode(), engine.key.encode()):
                raise RequestError(HTTPStatus.UNAUTHORIZED, "the API key is missing or wrong", "invalid_api_key",
                                   "authentication_error")

        def _body(self) -> dict:
            try:
                length = int(self.headers.get("Content-Length", ""))
            except ValueError:
                raise RequestError(HTTPStatus.LENGTH_REQUIRED, "send the body with its Content-Length") from None
            if length > MAX_BODY_BYTES:
                raise RequestError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                                   f"the body is {length} bytes; at most {MAX_BODY_BYTES} are read")
            try:
                body = json.loads(self.rfile.read(length))
            except (ValueError, UnicodeDecodeError):
                raise RequestError(HTTPStatus.BAD_REQUEST, "the body is not valid JSON", "invalid_json") from None
            if not isinstance(body, dict):
                raise RequestError(HTTPStatus.BAD_REQUEST, "the body must be a JSON object", "invalid_json")
            return body

        def log_message(self, format: str, *args) -> None:  # noqa: A002 (the base class's name)
            log.info("%s %s", self.address_string(), format % args)

    return Handler


def _not_found(path: str):
    raise RequestError(HTTPStatus.NOT_FOUND, f"no such endpoint: {path}; this server answers /v1/models and "
                       "/v1/chat/completions", "not_found")


def serve(lm: LoadedModel, attention: AttentionConfig, host: str, port: int, aliases: tuple[str, ...] = ()) -> None:
    """Answer until interrupted. Port 0 takes a free one; the first line printed says where."""
    key = os.environ.get(KEY_ENV) or None
    server = ThreadingHTTPServer((host, port), handler(Engine(lm, attention, key, aliases)))
    print(f"serving {lm.name} ({attention.mode}) on http://{host}:{server.server_port}/v1"
          f"{'' if key else f', without a key: set {KEY_ENV} to require one'}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
