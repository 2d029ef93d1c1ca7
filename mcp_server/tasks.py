"""`ask` as a task (protocol 2025-11-25): a pick that outlasts any request timeout of the host's client.

A host that declares tasks calls `ask` with `task` in its params. The call returns a task at once (`working`); the
host then asks for its status (`tasks/get`, a short request each time, so no client timeout cuts the pick) and, once
it ended, for the call's result (`tasks/result`: the same result `ask` gives without a task). Meanwhile the pick is
asked of the host as without a task, on the connection's own stream, naming the task: the viewer opened through URL
elicitation, or a form; a host that can do neither reads the viewer's link in the task's status message. The status
stays `working` while the user picks: `input_required` would have a host block on `tasks/result`, which its request
timeout cuts again. `tasks/cancel` cancels the pick (the viewer says so); `tasks/list` lists the connection's tasks.

The SDK serves none of this (it has the types only, and checks a `tools/call` result against the plain result), so
it is a middleware around every request (`MCPServer(middleware=…)`): it adds the `tasks` capability to
`initialize`, `execution.taskSupport` to the task tools in `tools/list`, and answers `tools/call` with a task and
the four `tasks/*` methods itself. Only on 2025-11-25 connections: 2026-07-28 turns tasks into an extension of
another shape (its own picks are input_required rounds, mcp_server/picks.py).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Mapping
from typing import Any

import anyio
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import Context
from mcp.shared.exceptions import MCPError, NoBackChannelError
from mcp_types import (
    INVALID_PARAMS,
    METHOD_NOT_FOUND,
    CancelTaskResult,
    CreateTaskResult,
    GetTaskResult,
    ListTasksResult,
    ServerTasksCapability,
    ServerTasksRequestsCapability,
    TasksCallCapability,
    TasksCancelCapability,
    TasksListCapability,
    TasksToolsCapability,
    ToolExecution,
)
from pydantic import BaseModel

from mcp_server.hosts import connection_of, pick_mode, say_how_picks_go
from mcp_server.jobs import CANCEL_WAIT_S, Finished, Job
from mcp_server.picks import (
    HOST_CANCELLED,
    RELATED_TASK,
    ask_host,
    elicitation_done,
    question_of,
    viewer_answers,
)
from mcp_server.task_runs import TaskRun, TaskRuns, UnknownTaskError, current_run
from scene_agent.language.words import Lang
from scene_agent.scene.loader import Scene
from scene_agent.selection.channel import SelectionChannel

log = logging.getLogger(__name__)

TASKS_VERSION = "2025-11-25"
TASK_TOOLS = frozenset({"ask"})
CAPABILITY = ServerTasksCapability(list=TasksListCapability(), cancel=TasksCancelCapability(),
                                   requests=ServerTasksRequestsCapability(tools=TasksToolsCapability(
                                       call=TasksCallCapability())))


def _wire(value: HandlerResult) -> dict[str, Any]:
    if isinstance(value, BaseModel):
        return value.model_dump(by_alias=True, mode="json", exclude_none=True)
    return dict(value or {})


def _error_result(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": True}


def _task_id(params: Mapping[str, Any] | None) -> str:
    task_id = (params or {}).get("taskId")
    if not isinstance(task_id, str):
        raise MCPError(INVALID_PARAMS, "taskId must be the string id of a task")
    return task_id


class TasksMiddleware:
    """Tasks for this server's task tools, on 2025-11-25 connections (see the module's docstring)."""

    def __init__(self) -> None:
        self.runs = TaskRuns()

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.method == "initialize":
            return self._initialized(await call_next(ctx))
        if ctx.protocol_version != TASKS_VERSION:
            return await call_next(ctx)
        if ctx.method == "tools/list":
            return self._listed(await call_next(ctx))
        if ctx.method == "tools/call" and (ctx.params or {}).get("task") is not None:
            return self._start(ctx, call_next)
        if ctx.method.startswith("tasks/"):
            return await self._serve(ctx)
        return await call_next(ctx)

    @staticmethod
    def _initialized(result: HandlerResult) -> dict[str, Any]:
        wire = _wire(result)
        if wire.get("protocolVersion") == TASKS_VERSION:
            wire.setdefault("capabilities", {})["tasks"] = CAPABILITY.model_dump(by_alias=True, exclude_none=True)
        return wire

    @staticmethod
    def _listed(result: HandlerResult) -> dict[str, Any]:
        wire = _wire(result)
        execution = ToolExecution(task_support="optional").model_dump(by_alias=True)
        for tool in wire.get("tools", []):
            if tool.get("name") in TASK_TOOLS:
                tool["execution"] = execution
        return wire

    def _start(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> dict[str, Any]:
        params = dict(ctx.params or {})
        task = params.pop("task")
        name = params.get("name")
        if name not in TASK_TOOLS:
            raise MCPError(METHOD_NOT_FOUND, f"{name} does not run as a task; call it without 'task' "
                                             f"(tools that do: {', '.join(sorted(TASK_TOOLS))})")
        ttl = task.get("ttl") if isinstance(task, dict) else None
        run = self.runs.add(connection_of(ctx.session), ttl if isinstance(ttl, int) else None)
        token = current_run.set(run)  # the new asyncio task copies this context: the call knows it is a task
        try:
            run.runner = asyncio.create_task(self._run(run, call_next, dataclasses.replace(ctx, params=params)))
        finally:
            current_run.reset(token)
        return CreateTaskResult(task=run.task()).model_dump(by_alias=True, mode="json", exclude_none=True)

    @staticmethod
    async def _run(run: TaskRun, call_next: CallNext, ctx: ServerRequestContext[Any, Any]) -> None:
        try:
            outcome = _wire(await call_next(ctx))
        except asyncio.CancelledError:
            run.end("cancelled", _error_result("the task was cancelled"), "cancelled by the MCP host")
        except MCPError as exc:
            run.end("failed", _error_result(exc.error.message), exc.error.message)
        except Exception as exc:  # the task fails, saying so; the server goes on
            log.exception("task %s failed", run.task_id)
            run.end("failed", _error_result(f"the call failed: {exc}"), "the call failed")
        else:
            run.end("failed" if outcome.get("isError") else "completed", outcome)

    async def _serve(self, ctx: ServerRequestContext[Any, Any]) -> dict[str, Any]:
        if ctx.method == "tasks/list":
            listed = ListTasksResult(tasks=[run.task() for run in self.runs.of(connection_of(ctx.session))])
            return listed.model_dump(by_alias=True, mode="json", exclude_none=True)
        if ctx.method not in ("tasks/get", "tasks/result", "tasks/cancel"):
            raise MCPError(METHOD_NOT_FOUND, f"no method {ctx.method}")
        try:
            run = self.runs.get(connection_of(ctx.session), _task_id(ctx.params))
        except UnknownTaskError as exc:
            raise MCPError(INVALID_PARAMS, str(exc)) from None
        if ctx.method == "tasks/get":
            return GetTaskResult(**run.task().model_dump()).model_dump(by_alias=True, mode="json", exclude_none=True)
        if ctx.method == "tasks/result":
            await run.ended.wait()  # until the task ends, as the protocol has it
            outcome = dict(run.outcome or {})
            outcome["_meta"] = {**outcome.get("_meta", {}), RELATED_TASK: {"taskId": run.task_id}}
            return outcome
        if run.terminal:
            raise MCPError(INVALID_PARAMS, f"task {run.task_id} already ended ({run.status}): nothing to cancel")
        assert run.runner is not None
        run.runner.cancel()
        with anyio.move_on_after(CANCEL_WAIT_S):
            await run.ended.wait()
        cancelled = CancelTaskResult(**run.task().model_dump())
        return cancelled.model_dump(by_alias=True, mode="json", exclude_none=True)


# -- the pick of a call that runs as a task ----------------------------------------------------------------------

WAITING: dict[str, dict[Lang, str]] = {
    "link": {"en": "The user picks in the 3D viewer at {url} (open it for them) and confirms; this task then ends "
                   "with the answer.",
             "zh": "请让用户打开 {url}，在 3D 查看器中选择并确认；之后此任务给出答案。"},
    "opened": {"en": "The 3D viewer is open and the user is picking there; this task then ends with the answer.",
               "zh": "3D 查看器已打开，用户正在其中选择；之后此任务给出答案。"},
    "form": {"en": "The user picks in the form; this task then ends with the answer.",
             "zh": "用户在表单中选择；之后此任务给出答案。"},
}


async def follow_task(ctx: Context, job: Job, scene: Scene, channel: SelectionChannel, run: TaskRun) -> Finished:
    """Follow a job that runs as a task to its end: each pick asked of the host on the connection's stream (the
    call has returned), or its link in the task's status; a task cancelled meanwhile stops the job."""
    mode = pick_mode(ctx)
    if mode == "app":  # the app is shown with the call's result, which a task gives only at its end
        mode = "none"
    say_how_picks_go(ctx)
    asked: str | None = None
    try:
        while True:
            milestone = await anyio.to_thread.run_sync(job.next_milestone, 1.0, abandon_on_cancel=True)
            if milestone is None:
                continue
            if asked is not None:
                await elicitation_done(ctx, asked, run.task_id)
                asked = None
            if isinstance(milestone, Finished):
                return milestone
            await viewer_answers(job, scene, channel.settings)
            question = question_of(milestone)
            run.say(f"{question} {WAITING['form' if mode == 'form' else 'link'][job.lang].format(url=milestone.viewer_url)}")
            if mode not in ("url", "form"):
                continue
            try:
                await ask_host(ctx, job, milestone, mode, scene, channel, task_id=run.task_id)
            except NoBackChannelError:  # no stream to ask on (streamable HTTP without its GET stream): the link stays
                log.info("task %s: the host cannot be asked on this connection; its status gives the viewer's link",
                         run.task_id)
                run.say(f"{question} {WAITING['link'][job.lang].format(url=milestone.viewer_url)}")
                mode = "none"
                continue
            if mode == "url" and not job.control.stopped.is_set():
                run.say(f"{question} {WAITING['opened'][job.lang]}")
                asked = milestone.session_id
    except anyio.get_cancelled_exc_class():
        job.control.stop(HOST_CANCELLED)
        raise
