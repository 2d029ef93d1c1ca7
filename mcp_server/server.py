"""`build_server`: scene-agent's tools and the scene as an MCP server (the official SDK's `MCPServer`).

Tools: the agent's own tools from tools/registry.py (`find`, `visualize`, `color`, `volume`; not those that ask
the user questions), their input and output schemas generated from the same pydantic models
(mcp_server/tool_functions.py); `ask` (the whole agent: find, decide, pick, measure, answer) and
`wait_for_selection`. Results come as text (a one-line summary, then the result as JSON) plus the
same result as structured content. Resources: the scene's manifest (JSON) and a summary (Markdown).

A pick happens in our web viewer: see mcp_server/picks.py for how the host is asked for it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import anyio.to_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, InputRequiredResult, TextContent
from pydantic import BaseModel

import scene_agent
from mcp_server.app_view import apps_extension, view_meta
from mcp_server.hosts import HostLine
from mcp_server.jobs import CANCEL_WAIT_S, Finished, Job, JobLink, Jobs, PickNeeded
from mcp_server.models import (
    AskInput,
    AskOutcome,
    CancelOutcome,
    CancelSelectionInput,
    PendingPick,
    WaitForSelectionInput,
    WaitOutcome,
)
from mcp_server.picks import (
    HOST_CANCELLED,
    Shown,
    elicitation_done,
    follow,
    next_milestone,
    pick_needed,
    resume,
    viewer_trouble,
)
from mcp_server.scene_source import SceneSource
from mcp_server.task_runs import current_run
from mcp_server.tasks import TasksMiddleware, follow_task
from mcp_server.tool_functions import Handler, mcp_tool
from scene_agent.agent.scene_agent import SceneAgent
from scene_agent.config import Settings
from scene_agent.errors import SceneAgentError
from scene_agent.language.words import Lang, detect_language
from scene_agent.scene.loader import Scene
from scene_agent.selection.channel import SelectionChannel
from scene_agent.tools.context import ToolContext
from scene_agent.tools.registry import TOOLS
from scene_agent.tools.tool import Tool
from scene_agent.tools.visualize import VisOutput

INSTRUCTIONS = ("Answers questions about one scanned building (floors → rooms → objects, codes like 0-7 and 0-7-12). "
                "`ask` does everything in one call; when the words leave a real choice it has the user pick in a 3D "
                "viewer (through elicitation when the host offers it, else it returns a viewer URL and a session id for "
                "`wait_for_selection`). The other tools are the agent's own steps.")


# Fields that name a file of this machine: of no use to a host (which reaches the scene through the tools and the
# viewer URL) and not to be handed out; left out of every result, however deep.
LOCAL_PATHS = frozenset({"selection_file"})


def _without_local_paths(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_local_paths(v) for k, v in value.items() if k not in LOCAL_PATHS}
    if isinstance(value, list):
        return [_without_local_paths(v) for v in value]
    return value


def result(value: BaseModel) -> CallToolResult:
    """Text for people and models (the summary line, then the result as JSON) and the result as structured content."""
    summary = value.human_summary().en if hasattr(value, "human_summary") else ""
    dumped = _without_local_paths(value.model_dump(mode="json", exclude_none=True))
    text = f"{summary}\n\n{json.dumps(dumped, ensure_ascii=False)}" if summary else json.dumps(dumped, ensure_ascii=False)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=dumped)


def _language_of(parsed: BaseModel) -> Lang:
    """The language of the first argument in words (find's query), else English: what the tool's words are in."""
    texts = (value for value in parsed.model_dump().values() if isinstance(value, str))
    return next((lang for text in texts if (lang := detect_language(text)) is not None), "en")


def _failed(done: Finished) -> ToolError:
    error = done.error or SceneAgentError("the call ended without a result")
    return ToolError(error.message)


@dataclass
class SceneTools:
    """The scene, where picks travel, and the jobs waiting on them: what every tool call of this server uses."""

    source: SceneSource
    settings: Settings
    channel: SelectionChannel
    jobs: Jobs

    @property
    def scene(self) -> Scene:
        """The scene (a handler waits for it first: on a first start it may still be being built)."""
        return self.source.scene

    def context(self, **kwargs: Any) -> ToolContext:
        """A tool context on this server's scene and channel (answers in English unless a question says otherwise)."""
        return ToolContext(self.scene, self.settings, channel=self.channel, **kwargs)

    # -- the agent's tools ----------------------------------------------------------------------------------

    def handler(self, tool: Tool) -> Handler[BaseModel]:
        """How this server calls one of the agent's tools."""

        async def call(ctx: Context, parsed: BaseModel) -> CallToolResult | InputRequiredResult:
            await self.source.wait(ctx)
            return await self.run_tool(ctx, tool, parsed)

        return call

    async def run_tool(self, ctx: Context, tool: Tool, parsed: BaseModel) -> CallToolResult | InputRequiredResult:
        """A call that does not wait for the user runs at once; one that does (visualize's pick) runs as a job whose
        pick the host is asked for, or is resumed with the host's answer (the 2026-07-28 protocol's retry)."""
        if tool.may_wait and ctx.request_state:
            job = await resume(ctx, self.jobs, self.scene, self.channel)
        elif not tool.waits(parsed.model_dump()):
            context = self.context(lang=_language_of(parsed))
            value = await anyio.to_thread.run_sync(lambda: tool.run(context, parsed))
            if isinstance(value, VisOutput) and value.viewer_url and (trouble := await viewer_trouble(self.scene, self.settings)):
                raise ToolError(f"the view was made, but its link would not open: {trouble}")  # never a dead link
            return result(value)
        else:
            job = self.jobs.add(Job(tool.name)).start(lambda job: tool.run(self.context(user=JobLink(job)), parsed))
        return self._ran(tool, await follow(ctx, job, self.scene, self.channel))

    def _ran(self, tool: Tool, reached: Finished | PickNeeded | InputRequiredResult) -> CallToolResult | InputRequiredResult:
        if isinstance(reached, InputRequiredResult):
            return reached
        if isinstance(reached, PickNeeded):  # the host cannot be asked: it opens the URL, then wait_for_selection
            assert reached.vis is not None
            return result(reached.vis)
        if not isinstance(reached.value, tool.result_model):
            raise _failed(reached)
        return result(reached.value)

    # -- the whole agent ------------------------------------------------------------------------------------

    async def ask(self, ctx: Context, spec: AskInput) -> CallToolResult | InputRequiredResult:
        await self.source.wait(ctx)
        if ctx.request_state:
            job = await resume(ctx, self.jobs, self.scene, self.channel)
        else:
            agent = SceneAgent(self.scene, self.settings, channel=self.channel, ask_questions=False,
                               selection_timeout=spec.timeout)
            job = self.jobs.add(Job("ask")).start(
                lambda job: agent.query(spec.question, on_event=job.see, control=job.control).final)
        job.lang = detect_language(spec.question) or "en"
        run = current_run.get()
        reached = (await follow_task(ctx, job, self.scene, self.channel, run) if run is not None
                   else await follow(ctx, job, self.scene, self.channel))
        return reached if isinstance(reached, InputRequiredResult) else result(self._asked(reached, job))

    @staticmethod
    def _asked(reached: Finished | PickNeeded, job: Job) -> AskOutcome:
        if isinstance(reached, PickNeeded):
            pick = PendingPick(session_id=reached.session_id, viewer_url=reached.viewer_url,
                               candidates=reached.candidates, prompt=reached.prompt, multiple=reached.multiple,
                               seconds_left=round(reached.seconds_left, 1))
            shown: Shown = ("inline" if job.inline else "opened" if job.viewer_opened == reached.session_id else "link")
            return AskOutcome(status="selection_required", pick=pick, answer=pick_needed(reached, job.lang, shown))
        final = reached.value
        if final is None:
            raise _failed(reached)
        outcome = AskOutcome.model_validate(final.model_dump(include={"status", "answer", "codes", "viewer_url"}))
        if outcome.status == "cancelled" and job.control.reason and job.control.reason not in outcome.answer:
            outcome.answer += f" ({job.control.reason}.)"
        return outcome

    async def wait_for_selection(self, ctx: Context, spec: WaitForSelectionInput) -> CallToolResult:
        job = self.jobs.by_session(spec.session_id)
        if job is None:
            raise ToolError(f"no call of this server waits on selection session {spec.session_id} (it was never "
                            "returned here, or ended long ago)")
        milestone = (await next_milestone(ctx, job, spec.timeout, stop_on_cancel=False) if job.finished is None
                     else job.finished)
        if milestone is not None and job.viewer_opened is not None:  # the URL elicitation ends here
            await elicitation_done(ctx, job.viewer_opened)
            job.viewer_opened = None
        if milestone is None:
            left = job.pick.seconds_left if job.pick else 0.0
            return result(WaitOutcome(session_id=spec.session_id, status="waiting", seconds_left=round(left, 1)))
        if job.tool == "ask":
            outcome = WaitOutcome(session_id=spec.session_id, status="done", seconds_left=0.0, ask=self._asked(milestone, job))
        elif isinstance(milestone, PickNeeded) or isinstance(milestone.value, VisOutput):
            visualized = milestone.vis if isinstance(milestone, PickNeeded) else milestone.value
            assert isinstance(visualized, VisOutput)
            outcome = WaitOutcome(session_id=spec.session_id, status="done", seconds_left=0.0, visualize=visualized)
        else:
            raise _failed(milestone)
        return result(outcome)

    async def cancel_selection(self, ctx: Context, spec: CancelSelectionInput) -> CallToolResult:
        job = self.jobs.by_session(spec.session_id)
        if job is None:
            raise ToolError(f"no call of this server waits on selection session {spec.session_id} (it was never "
                            "returned here, or ended long ago)")
        if job.pick is None or job.pick.session_id != spec.session_id:  # picked, timed out, cancelled, or finished
            return result(CancelOutcome(session_id=spec.session_id, status="ended"))
        job.control.stop(HOST_CANCELLED)
        await anyio.to_thread.run_sync(lambda: job.ended.wait(CANCEL_WAIT_S))
        return result(CancelOutcome(session_id=spec.session_id, status="cancelled"))


def build_server(source: SceneSource, settings: Settings, channel: SelectionChannel) -> tuple[MCPServer, Jobs]:
    """The MCP server for one scene (there, or being built): its tools and resources; the jobs it runs (to stop them
    on shutdown)."""
    tools = SceneTools(source, settings, channel, Jobs())
    served = [mcp_tool(tool.name, tool.description, tool.input_model, tool.result_model, tools.handler(tool),
                       input_required=tool.may_wait, read_only=tool.read_only,
                       meta=view_meta() if tool.may_wait else None)  # visualize shows the viewer
              for tool in TOOLS.values() if not tool.asks_questions]  # the host's model asks the user itself
    served.append(mcp_tool("ask", AskInput.__doc__ or "", AskInput, AskOutcome, tools.ask, input_required=True,
                           meta=view_meta()))
    served.append(mcp_tool("wait_for_selection", WaitForSelectionInput.__doc__ or "", WaitForSelectionInput, WaitOutcome,
                           tools.wait_for_selection, read_only=True))  # it only waits: the pick is the user's
    served.append(mcp_tool("cancel_selection", CancelSelectionInput.__doc__ or "", CancelSelectionInput, CancelOutcome,
                           tools.cancel_selection))
    server = MCPServer("scene-agent", version=scene_agent.__version__, instructions=INSTRUCTIONS, tools=served,
                       extensions=[apps_extension(settings)], middleware=[HostLine(), TasksMiddleware()])
    _register_resources(server, source)
    return server, tools.jobs


def _register_resources(server: MCPServer, source: SceneSource) -> None:
    scene_id, name = source.scene_id, source.name

    @server.resource(f"scene://{scene_id}/manifest", name=f"{scene_id} manifest", mime_type="application/json",
                     description=f"The scene manifest of '{name}': floors → rooms → objects, with codes, types, labels, "
                                 "bounds and point counts.")
    def manifest() -> str:
        return source.scene.manifest.model_dump_json(indent=1, exclude_none=True)

    @server.resource(f"scene://{scene_id}/summary", name=f"{scene_id} summary", mime_type="text/markdown",
                     description=f"'{name}' in brief: how many floors, rooms and objects; each floor's rooms and their "
                                 "objects.")
    def summary() -> str:
        scene = source.scene
        floors, rooms, objects = scene.index.counts
        lines = [f"# {scene.manifest.name} (`{scene.scene_id}`)", "",
                 f"{floors} floors, {rooms} rooms, {objects} objects.", ""]
        for floor in scene.manifest.floors:
            lines.append(f"## Floor {floor.code}" + (f": {floor.name}" if floor.name else ""))
            for room in floor.rooms:
                labels = ", ".join(f"{o.label} {o.code}" for o in room.objects) or "no objects"
                lines.append(f"- **{room.code}** {room.display_name} ({room.type}): {labels}")
            lines.append("")
        return "\n".join(lines)
