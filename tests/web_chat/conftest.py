"""The web chat in a real browser against a real server: the offline planner, or a model stub server."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_fixtures import BrowserPage, WebServer
from chat_ui import ChatUI
from llm_stub import LLMStub

MODEL_ENV = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "SCENE_AGENT_MODEL", "SCENE_AGENT_NO_QUESTIONS")


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """No model configured: new conversations get the offline planner."""
    for name in MODEL_ENV:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def chat(page: BrowserPage, web_server: Callable[..., WebServer], small_scene_path: Path,
         offline: None) -> Callable[..., ChatUI]:
    """`chat(**config)`: the page open on a new server for the small scene (app config, e.g. CHAT_SELECTION_TIMEOUT)."""

    def open_chat(**config: Any) -> ChatUI:
        ui = ChatUI(page, web_server(small_scene_path, **config))
        ui.open()
        return ui

    return open_chat


@pytest.fixture
def model(monkeypatch: pytest.MonkeyPatch, offline: None) -> Iterator[Callable[..., LLMStub]]:
    """`model(*replies)`: an OpenAI-compatible stub server scripted with `replies`; conversations started after use it."""
    stubs: list[LLMStub] = []

    def start(*replies: Any) -> LLMStub:
        stub = LLMStub(*replies).__enter__()
        stubs.append(stub)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        monkeypatch.setenv("OPENAI_BASE_URL", stub.base_url)
        monkeypatch.setenv("SCENE_AGENT_MODEL", "stub-model")
        return stub

    try:
        yield start
    finally:
        for stub in stubs:
            stub.close()
