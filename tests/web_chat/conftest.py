"""The web chat in a real browser against a real server: the offline planner, or a model stub server."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser_fixtures import BrowserPage, WebServer
from chat_ui import ChatUI


@pytest.fixture
def chat(page: BrowserPage, web_server: Callable[..., WebServer], small_scene_path: Path,
         offline: None) -> Callable[..., ChatUI]:
    """`chat(**config)`: the page open on a new server for the small scene (app config, e.g. CHAT_SELECTION_TIMEOUT)."""

    def open_chat(**config: Any) -> ChatUI:
        ui = ChatUI(page, web_server(small_scene_path, **config))
        ui.open()
        return ui

    return open_chat
