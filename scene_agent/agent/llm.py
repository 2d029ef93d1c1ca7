"""The chat model behind the OpenAI planner: any OpenAI-compatible server, through the `openai` client.

This is the one module that imports `openai`. It turns the client's answers into small frozen
dataclasses and its errors into one `ModelError` whose message names the server and what went wrong.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from typing import Any

import openai

from scene_agent.config import ModelSettings
from scene_agent.errors import SceneAgentError

log = logging.getLogger(__name__)

JSON_ONLY = "Answer with a single JSON object and nothing else: no prose, no code fences."
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)


class ModelError(SceneAgentError):
    """The model server could not be reached, refused the request, or answered something unusable."""

    code = "model_error"


@dataclass(frozen=True)
class ModelToolCall:
    """One tool call the model asked for; the arguments as the model wrote them (maybe not valid JSON)."""

    id: str
    name: str
    arguments_text: str


@dataclass(frozen=True)
class ModelTurn:
    """What the model said in one completion: text, tool calls, or both."""

    content: str | None
    tool_calls: list[ModelToolCall] = field(default_factory=list)
    finish_reason: str | None = None


def parse_json_object(text: str | None) -> dict[str, Any] | None:
    """The first JSON object in a model's text (```json fences and prose around it tolerated), or None."""
    if not text:
        return None
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    decoder = json.JSONDecoder()
    for candidate in candidates:
        start = candidate.find("{")
        while start != -1:
            try:
                value, _ = decoder.raw_decode(candidate, start)
            except json.JSONDecodeError:
                start = candidate.find("{", start + 1)
                continue
            if isinstance(value, dict):
                return value
            start = candidate.find("{", start + 1)
    return None


def _server_message(exc: openai.APIStatusError) -> str:
    body = exc.body
    message = body.get("message") if isinstance(body, dict) else None
    if isinstance(message, str) and message.strip():
        return message.strip()
    text = exc.response.text.strip() if exc.response is not None else ""
    return text[:300] or exc.message


class ChatModel:
    """A chat-completions model on an OpenAI-compatible server (OPENAI_BASE_URL, OPENAI_API_KEY, SCENE_AGENT_MODEL)."""

    def __init__(self, settings: ModelSettings):
        self.settings = settings
        self.model = settings.model
        try:
            self._client = openai.OpenAI(api_key=settings.api_key, base_url=settings.base_url, timeout=settings.timeout_s,
                                         max_retries=1)
        except openai.OpenAIError as exc:
            raise ModelError(f"could not set up the model client: {exc}") from None
        self.base_url = str(self._client.base_url).rstrip("/")

    def close(self) -> None:
        """Close the client's connections."""
        self._client.close()

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None) -> ModelTurn:
        """One non-streaming chat completion; ModelError when the server cannot be used."""
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages}
        if tools:  # some compatible servers reject an empty tool list
            kwargs["tools"] = tools
        try:
            completion = self._client.chat.completions.create(**kwargs)
        except openai.OpenAIError as exc:
            raise self._error(exc) from None
        choices = getattr(completion, "choices", None)
        if not choices:
            raise ModelError(f"the model server at {self.base_url} answered without any choices (model {self.model})")
        choice = choices[0]
        message = choice.message
        calls = []
        for i, tool_call in enumerate(message.tool_calls or []):
            if tool_call.type == "function":
                name, arguments = tool_call.function.name, tool_call.function.arguments
            else:  # a custom (free-form) tool call: name and raw input
                name, arguments = tool_call.custom.name, tool_call.custom.input
            # Some local servers leave ids out; the tool messages still need one to pair with.
            calls.append(ModelToolCall(id=tool_call.id or f"call_{i}", name=name or "", arguments_text=arguments or ""))
        return ModelTurn(content=message.content, tool_calls=calls, finish_reason=choice.finish_reason)

    def complete_json(self, system: str, user: str) -> dict[str, Any] | None:
        """One JSON object from the model (disambiguation.JsonModel), or None on any failure; never raises."""
        try:
            turn = self.complete([{"role": "system", "content": f"{system}\n{JSON_ONLY}"},
                                  {"role": "user", "content": user}])
        except Exception as exc:  # noqa: BLE001 - the caller falls back to rules; a model hiccup must not end the run
            log.info("the model's JSON answer failed: %s", exc)
            return None
        answer = parse_json_object(turn.content)
        if answer is None:
            log.info("the model's answer held no JSON object: %.200r", turn.content)
        return answer

    def _error(self, exc: openai.OpenAIError) -> ModelError:
        server = f"the model server at {self.base_url}"
        if isinstance(exc, openai.APITimeoutError):
            return ModelError(f"{server} did not answer within {self.settings.timeout_s:g} s (model {self.model})")
        if isinstance(exc, openai.APIConnectionError):
            cause = exc.__cause__ or exc.__context__
            detail = f" ({cause})" if cause else ""
            return ModelError(f"could not reach the model server at {self.base_url}{detail}; is it running, and is "
                              f"OPENAI_BASE_URL right?")
        if isinstance(exc, openai.APIStatusError):
            message = _server_message(exc)
            status = exc.status_code
            if status == 401:
                return ModelError(f"{server} rejected OPENAI_API_KEY (401: {message})")
            if status == 403:
                return ModelError(f"{server} refused access with this OPENAI_API_KEY (403: {message})")
            if status == 404:
                return ModelError(f"{server} answered 404 for model '{self.model}': {message}. Set SCENE_AGENT_MODEL to "
                                  f"a model it serves (and check that OPENAI_BASE_URL ends where the API starts, "
                                  f"often /v1)")
            return ModelError(f"{server} answered {status} (model {self.model}): {message}")
        if isinstance(exc, openai.APIError):
            return ModelError(f"{server} sent an answer that could not be used (model {self.model}): {exc.message}")
        return ModelError(f"the model request to {self.base_url} failed: {type(exc).__name__}: {exc}")
