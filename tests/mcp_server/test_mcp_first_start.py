"""`scene-agent mcp` on a first start without --scene: the demo scene is not built yet, and building it takes about
half a minute, longer than hosts wait for a server to answer. The server answers at once; the first call that needs
the scene waits for the build, with progress notifications saying so."""

from __future__ import annotations

from pathlib import Path

import anyio
from mcp_helpers import host, progress_to

from scene_agent.demo.place import demo_is_built


def test_a_first_start_answers_at_once_and_the_first_call_waits_for_the_demo(env: dict[str, str], tmp_path: Path) -> None:
    demo = tmp_path / "demo"  # nothing built there yet: this is the first start

    async def body() -> None:
        async with host({**env, "SCENE_AGENT_DEMO_DIR": str(demo)}, elicit=None) as (session, seen):
            # initialize was answered while the demo is still being built
            assert not demo_is_built(demo)
            assert {t.name for t in (await session.list_tools()).tools} >= {"ask", "find"}
            found = await session.call_tool("find", {"query": "the chairs in the kitchen"},
                                            progress_callback=await progress_to(seen))
            assert not found.is_error and found.structured_content is not None
            assert [c["code"] for c in found.structured_content["candidates"]] == ["0-3-2", "0-3-3", "0-3-4", "0-3-5"]
            assert seen.progress and "building the demo scene" in (seen.progress[0][2] or "")
            assert demo_is_built(demo)

    anyio.run(body)
