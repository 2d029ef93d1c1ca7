"""A viewer URL that does not open is never handed out: `scene-agent mcp` used a scene-agent server already
running at SCENE_AGENT_VIEWER_URL, which then stopped. The call fails saying so and what to set, and the pick's
session is closed as cancelled rather than left waiting for a Confirm that cannot come; a view's link fails the
same way."""

from __future__ import annotations

import anyio
from mcp_helpers import host, outcome_of, settings_of
from test_mcp_stdio import run

from api_server.app import create_app
from api_server.serve import BackgroundServer
from scene_agent.demo.place import ensure_demo_scene


def test_a_pick_is_not_handed_out_when_the_viewer_is_gone(env: dict[str, str]) -> None:
    settings = settings_of(env)
    port = int(env["SCENE_AGENT_VIEWER_URL"].rsplit(":", 1)[1].strip("/"))
    viewer = BackgroundServer(create_app({"SCENE_PATH": str(ensure_demo_scene()), "SETTINGS": settings}), port=port)
    viewer.__enter__()  # running before `scene-agent mcp` starts, which then uses it rather than serving its own
    closed = False

    async def body() -> None:
        nonlocal closed
        async with host(env, elicit=None) as (session, _):
            await anyio.to_thread.run_sync(viewer.close)  # the server it used stops
            closed = True
            refused = await session.call_tool("ask", {"question": "what's the color of the chair in the kitchen?"})
            said = refused.content[0].text
            assert refused.is_error and "no scene-agent server answers at" in said and "SCENE_AGENT_VIEWER_URL" in said
            # nor a view's link
            shown = await session.call_tool("visualize", {"codes": ["0-3"]})
            said = shown.content[0].text
            assert shown.is_error and "its link would not open: no scene-agent server answers at" in said

    try:
        run(body)
    finally:
        if not closed:
            viewer.close()
    sessions = [p.name.split(".")[0] for p in settings.sessions_dir.iterdir() if p.name.endswith(".outcome.json")]
    outcome = outcome_of(env, sessions[0])
    assert outcome is not None and outcome.status == "cancelled" and outcome.reason == "the viewer does not answer"
