"""The scene the MCP server answers about: opened before serving, or, on a first start without --scene, the demo
scene built in the background, so that the server answers `initialize` at once (hosts give up on a server that
stays silent for 15 s, and the demo takes about half a minute to build) and the first call that needs the scene
waits for it, reporting progress."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import anyio.to_thread
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError

from scene_agent.errors import SceneAgentError
from scene_agent.scene.loader import Scene

log = logging.getLogger(__name__)

BUILDING = "building the demo scene (the first start does it once)"


class SceneSource:
    """A scene that is there, or being built in a thread of its own."""

    def __init__(self, scene_id: str, name: str, scene: Scene | None = None):
        self.scene_id, self.name = scene_id, name
        self._scene = scene
        self._error: str | None = None
        self._done = threading.Event()
        if scene is not None:
            self._done.set()

    @classmethod
    def of(cls, scene: Scene) -> SceneSource:
        """A scene opened already."""
        return cls(scene.scene_id, scene.manifest.name, scene)

    @classmethod
    def building(cls, scene_id: str, name: str, build: Callable[[], Scene]) -> SceneSource:
        """The scene `build()` makes, in a thread of its own from now on."""
        source = cls(scene_id, name)
        threading.Thread(target=source._build, args=(build,), name="mcp-scene-build", daemon=True).start()
        return source

    def _build(self, build: Callable[[], Scene]) -> None:
        try:
            self._scene = build()
        except SceneAgentError as exc:
            self._error = exc.message
        except Exception as exc:  # a failed build must fail the calls with what happened, not hang them
            log.exception("the scene could not be opened")
            self._error = f"the scene could not be opened: {type(exc).__name__}: {exc}"
        finally:
            self._done.set()

    @property
    def scene(self) -> Scene:
        """The scene (call `wait` first where it may still be building)."""
        if self._scene is None:
            raise ToolError(self._error or f"the scene is not ready yet: {BUILDING}; try again in a moment")
        return self._scene

    async def wait(self, ctx: Context) -> Scene:
        """The scene, once there; meanwhile progress notifications say it is being built."""
        started = time.monotonic()
        while not self._done.is_set():
            await anyio.to_thread.run_sync(self._done.wait, 1.0, abandon_on_cancel=True)
            if not self._done.is_set():
                await ctx.report_progress(round(time.monotonic() - started, 1), None, f"{BUILDING}…")
        return self.scene
