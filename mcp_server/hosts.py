"""What a host can do for a pick, and the line that says it once per connection (`scene-agent mcp` on stderr).

Best first: the viewer inside the conversation (the host renders MCP Apps: shown with the call's result), a URL
the host opens (URL elicitation), an inline form (form elicitation), or not at all (a link in the result). The line
is said when the host initializes ("Claude Code 2.1 gets picks as an inline form of the candidates (the host
declared form elicitation only)"), or, on 2026-07-28 (no initialize), at its first pick.
"""

from __future__ import annotations

import logging
import weakref
from typing import Any, Literal

from mcp.server.apps import APP_MIME_TYPE, EXTENSION_ID
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import Context
from mcp_types import ClientCapabilities, Implementation, InitializeRequestParams
from pydantic import ValidationError

log = logging.getLogger(__name__)

PickMode = Literal["app", "url", "form", "none"]

HOW: dict[PickMode, str] = {
    "app": "the viewer inside the conversation (the host renders MCP Apps)",
    "url": "the viewer opened through URL elicitation",
    "form": "an inline form of the candidates (the host declared form elicitation only)",
    "none": "a viewer link in the result, then wait_for_selection (the host declared no elicitation)",
}
AS_TASK = ("; `ask` called as a task is polled, no request waiting for the pick (its link in the task's status "
           "when the host cannot be asked)")


def mode_for(capabilities: ClientCapabilities | None) -> PickMode:
    """How a host that declared these capabilities is asked for a pick, best first."""
    if capabilities is None:
        return "none"
    apps = (capabilities.extensions or {}).get(EXTENSION_ID)
    if apps is not None and APP_MIME_TYPE in (apps.get("mimeTypes") or ()):
        return "app"
    elicitation = capabilities.elicitation
    if elicitation is None:
        return "none"
    if elicitation.url is not None:
        return "url"
    return "form"  # `elicitation: {}` (declared before the modes existed) means form


def pick_mode(ctx: Context) -> PickMode:
    """How the host of this call is asked for a pick."""
    return mode_for(ctx.client_capabilities)


def connection_of(session: Any) -> object:
    """The connection a request came on (the SDK builds a session object per request)."""
    return getattr(session, "_connection", session)


_told: weakref.WeakSet[object] = weakref.WeakSet()


def _say(connection: object, info: Implementation | None, mode: PickMode, extra: str = "") -> None:
    if connection in _told:
        return
    _told.add(connection)
    who = f"{info.name} {info.version}" if info is not None else "the host"
    log.info("%s gets picks as %s%s", who, HOW[mode], extra)


def say_how_picks_go(ctx: Context) -> None:
    """At a pick: the line, unless this connection's initialize said it."""
    params = getattr(ctx.session, "client_params", None)
    _say(connection_of(ctx.session), getattr(params, "client_info", None), pick_mode(ctx))


class HostLine:
    """A middleware that says the line when a host initializes."""

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        result = await call_next(ctx)
        if ctx.method == "initialize":
            try:
                init = InitializeRequestParams.model_validate(ctx.params or {}, by_name=False)
            except ValidationError:  # refused by the SDK already
                return result
            version = result.get("protocolVersion") if isinstance(result, dict) else getattr(result, "protocol_version", None)
            _say(connection_of(ctx.session), init.client_info, mode_for(init.capabilities),
                 AS_TASK if version == "2025-11-25" else "")
        return result
