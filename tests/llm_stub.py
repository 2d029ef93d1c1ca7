"""An OpenAI-compatible chat-completions stub server on loopback: tests script the replies, the real `openai` client talks to it.

    with LLMStub(tool_calls(call("find", {"query": "chair"})), text("done")) as stub:
        client = openai.OpenAI(base_url=stub.base_url, api_key="test-key", max_retries=0)
        ...
        assert stub.requests[1]["messages"][-1]["tool_call_id"] == "call_1"
"""

from __future__ import annotations

import itertools
import json
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException

from api_server.serve import BackgroundServer

DEFAULT_MODEL = "stub-model"


@dataclass(frozen=True)
class Call:
    """One scripted tool call: a function name and its arguments as sent (a JSON string, or any raw string)."""

    name: str
    arguments: str


@dataclass(frozen=True)
class Text:
    """An assistant message with content (finish_reason "stop")."""

    content: str


@dataclass(frozen=True)
class ToolCalls:
    """An assistant message calling tools (finish_reason "tool_calls"), optionally with content too."""

    calls: tuple[Call, ...]
    content: str | None = None


@dataclass(frozen=True)
class Error:
    """An HTTP error with an OpenAI-style body."""

    status: int
    message: str
    type: str
    code: str | None


Reply = Text | ToolCalls | Error | Callable[[dict[str, Any]], "Reply"]


def text(content: str) -> Text:
    """Reply with an assistant message saying `content`."""
    return Text(content)


def call(name: str, arguments: dict[str, Any] | None = None, *, raw: str | None = None) -> Call:
    """A tool call of `name` with `arguments` sent as JSON, or with the `raw` string as is (e.g. malformed JSON)."""
    if raw is not None and arguments is not None:
        raise ValueError("give either arguments or raw, not both")
    return Call(name, raw if raw is not None else json.dumps(arguments or {}))


def tool_calls(*calls: Call, content: str | None = None) -> ToolCalls:
    """Reply with an assistant message calling these tools (in parallel when several)."""
    if not calls:
        raise ValueError("tool_calls() needs at least one call()")
    return ToolCalls(calls, content)


def error(status: int = 500, message: str = "stub error", type: str | None = None, code: str | None = None) -> Error:
    """Reply with HTTP `status` and body {"error": {"message", "type", "param", "code"}}."""
    return Error(status, message, type or ("server_error" if status >= 500 else "invalid_request_error"), code)


def _checked(reply: Any) -> Reply:
    if not (isinstance(reply, (Text, ToolCalls, Error)) or callable(reply)):
        raise TypeError(f"not a scripted reply (use text(), tool_calls(), error() or a function): {reply!r}")
    return reply


def _error_response(status: int, message: str, type: str, code: str | None) -> Response:
    body = {"error": {"message": message, "type": type, "param": None, "code": code}}
    return Response(json.dumps(body), status=status, mimetype="application/json")


class LLMStub:
    """A chat-completions server on 127.0.0.1 (OS-chosen port): each request consumes the next scripted reply."""

    def __init__(self, *replies: Reply, model: str = DEFAULT_MODEL):
        self.model = model
        self.requests: list[Any] = []  # JSON bodies of POST /v1/chat/completions, in arrival order
        self.headers: list[dict[str, str]] = []  # their headers (lower-case names), same order
        self.failures: list[BaseException] = []  # exceptions raised by callable replies; re-raised on exit
        self._script: deque[Reply] = deque(_checked(reply) for reply in replies)
        self._lock = threading.Lock()
        self._completion_ids = itertools.count(1)
        self._call_ids = itertools.count(1)
        self._server = BackgroundServer(self._app(), threads=4)
        self.base_url = f"{self._server.url}/v1"

    def __enter__(self) -> LLMStub:
        self._server.__enter__()
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        self.close()
        if self.failures and exc_type is None:
            raise AssertionError(f"a scripted reply function raised: {self.failures[0]!r}") from self.failures[0]

    def close(self) -> None:
        """Stop the server and its threads."""
        self._server.close()

    def add(self, *replies: Reply) -> None:
        """Append replies to the script."""
        with self._lock:
            self._script.extend(_checked(reply) for reply in replies)

    @property
    def remaining(self) -> int:
        """How many scripted replies have not been consumed yet."""
        with self._lock:
            return len(self._script)

    def _app(self) -> Flask:
        app = Flask("llm_stub")
        app.add_url_rule("/v1/models", "models", self._models, methods=["GET"])
        app.add_url_rule("/v1/chat/completions", "chat", self._chat, methods=["POST"])
        app.register_error_handler(HTTPException, lambda exc: _error_response(
            exc.code or 500, f"stub: {request.method} {request.path}: {exc.description}", "invalid_request_error", None))
        return app

    def _models(self) -> Response:
        model = {"id": self.model, "object": "model", "created": 0, "owned_by": "llm-stub"}
        return Response(json.dumps({"object": "list", "data": [model]}), mimetype="application/json")

    def _chat(self) -> Response:
        body = request.get_json(silent=True)
        with self._lock:
            self.requests.append(body)
            self.headers.append({name.lower(): value for name, value in request.headers.items()})
            if not isinstance(body, dict):
                return _error_response(400, "stub: the request body is not a JSON object", "invalid_request_error", None)
            if body.get("stream"):
                return _error_response(400, "stub: streaming (\"stream\": true) is not supported by the LLM stub",
                                       "invalid_request_error", "stream_unsupported")
            if not self._script:
                return _error_response(500, f"stub: the script ran out of replies (request #{len(self.requests)})",
                                       "server_error", "script_exhausted")
            reply = self._script.popleft()
        try:
            while callable(reply):  # outside the lock: a reply function may take its time
                reply = _checked(reply(body))
        except Exception as exc:  # noqa: BLE001 - the test's reply function failed: the test sees it, the client gets a 500
            with self._lock:
                self.failures.append(exc)
            return _error_response(500, f"stub: the reply function raised: {''.join(traceback.format_exception_only(exc))}",
                                   "server_error", "reply_function_failed")
        return self._render(reply, body)

    def _render(self, reply: Text | ToolCalls | Error, body: dict[str, Any]) -> Response:
        if isinstance(reply, Error):
            return _error_response(reply.status, reply.message, reply.type, reply.code)
        with self._lock:
            number = next(self._completion_ids)
            if isinstance(reply, Text):
                message, finish = {"role": "assistant", "content": reply.content, "tool_calls": None}, "stop"
            else:
                calls = [{"id": f"call_{next(self._call_ids)}", "type": "function",
                          "function": {"name": c.name, "arguments": c.arguments}} for c in reply.calls]
                message, finish = {"role": "assistant", "content": reply.content, "tool_calls": calls}, "tool_calls"
        prompt_tokens = len(json.dumps(body.get("messages", []))) // 4
        completion_tokens = len(json.dumps(message)) // 4
        completion = {
            "id": f"chatcmpl-stub-{number}", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model") or self.model,
            "choices": [{"index": 0, "message": {**message, "refusal": None}, "logprobs": None, "finish_reason": finish}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                      "total_tokens": prompt_tokens + completion_tokens},
        }
        return Response(json.dumps(completion), mimetype="application/json")
