"""Driving `scene-agent mcp` as a host does: the MCP SDK's own client over stdio, the server a real subprocess.

`Host` opens one client session on a fresh `python -m scene_agent mcp` and records what the server sent
besides results (progress, elicitation requests, elicitation-complete notifications). A host declares URL and
form elicitation (`elicit="url"`), form only (`"form"`), or none (`None`). The viewer's Confirm is played by a
POST to the API server the MCP process started at SCENE_AGENT_VIEWER_URL.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import parse_qs, urlsplit

import mcp_types as types
from http_client import call
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.session import ClientRequestContext

from scene_agent.config import Settings
from scene_agent.selection.files.backend import FileBackend
from scene_agent.selection.session import SessionOutcome

Elicit = Literal["url", "form"] | None
Answer = Callable[[types.ElicitRequestParams], Awaitable[types.ElicitResult]]


class FormOnlySession(ClientSession):
    """A host that offers form elicitation only (the SDK's client declares both when given a callback)."""

    def _build_capabilities(self, version: str) -> types.ClientCapabilities:  # type: ignore[override]
        capabilities = super()._build_capabilities(version)
        capabilities.elicitation = types.ElicitationCapability(form=types.FormElicitationCapability())
        return capabilities


@dataclass
class Seen:
    """What the server sent the host besides results."""

    elicitations: list[types.ElicitRequestParams] = field(default_factory=list)
    progress: list[tuple[float, float | None, str | None]] = field(default_factory=list)
    completed: list[str] = field(default_factory=list)


def mcp_env(tmp_path: Any, viewer_port: int) -> dict[str, str]:
    """State, picks and the viewer URL of the test's own; the offline planner in English; warnings are errors."""
    return {"SCENE_AGENT_STATE_DIR": str(tmp_path / "state"), "SCENE_AGENT_SELECTION_DIR": str(tmp_path / "selections"),
            "SCENE_AGENT_VIEWER_URL": f"http://127.0.0.1:{viewer_port}/", "OPENAI_API_KEY": "", "SCENE_AGENT_LANG": "en",
            "PYTHONWARNINGS": "error"}


def settings_of(env: dict[str, str]) -> Settings:
    """The settings an `mcp_env` environment gives `scene-agent mcp`: its state, picks and viewer URL."""
    return Settings(state_dir=Path(env["SCENE_AGENT_STATE_DIR"]), selection_dir=Path(env["SCENE_AGENT_SELECTION_DIR"]),
                    viewer_url=env["SCENE_AGENT_VIEWER_URL"])


def outcome_of(env: dict[str, str], session_id: str) -> SessionOutcome | None:
    """How a pick's session ended, read from the environment's state directory (after the server has gone, too)."""
    return FileBackend(settings_of(env)).outcome(session_id)


def session_of(url: str) -> str:
    """The session id in a viewer URL."""
    return parse_qs(urlsplit(url).query)["sessionId"][0]


def pick(viewer_url: str, *codes: str) -> int:
    """Confirm these codes in the viewer: POST /api/submit-selection to the server the URL names."""
    parts = urlsplit(viewer_url)
    return call("POST", f"{parts.scheme}://{parts.netloc}/api/submit-selection",
                {"session_id": session_of(viewer_url), "selections": [{"itemCode": c} for c in codes]}).status


def session_state(viewer_url: str) -> dict[str, Any]:
    """GET /api/sessions/<id> for the session a viewer URL names."""
    parts = urlsplit(viewer_url)
    return dict(call("GET", f"{parts.scheme}://{parts.netloc}/api/sessions/{session_of(viewer_url)}").json())


@asynccontextmanager
async def host(env: dict[str, str], *args: str, elicit: Elicit = "url", answer: Answer | None = None,
               ) -> AsyncIterator[tuple[ClientSession, Seen]]:
    """A client session on a new `scene-agent mcp ARGS` process with `env`; what it saw besides results."""
    seen = Seen()
    params = StdioServerParameters(command=sys.executable, args=["-m", "scene_agent", "mcp", *args],
                                   env={**os.environ, **env})

    async def on_elicit(context: ClientRequestContext, request: types.ElicitRequestParams) -> types.ElicitResult:
        seen.elicitations.append(request)
        assert answer is not None, f"an elicitation nobody expected: {request}"
        return await answer(request)

    async def on_message(message: object) -> None:
        if isinstance(message, types.ElicitCompleteNotification):
            seen.completed.append(message.params.elicitation_id)

    session_class = FormOnlySession if elicit == "form" else ClientSession
    callback = on_elicit if elicit else None
    async with stdio_client(params) as (read, write), \
            session_class(read, write, elicitation_callback=callback, message_handler=on_message) as session:
        await session.initialize()
        yield session, seen


async def progress_to(seen: Seen) -> Callable[[float, float | None, str | None], Awaitable[None]]:
    """A progress callback that records into `seen`."""

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.progress.append((progress, total, message))

    return on_progress
