"""Following a job over MCP: progress while a pick is awaited, and the pick asked of the host the way it can.

For each pick a job needs (mcp_server/jobs.py), by what the host declared:

- URL elicitation: the host is sent to the viewer in selection mode (`elicitation/create`, mode url, the session
  id as elicitation id); the job's own wait on the selection channel brings the pick; then
  `notifications/elicitation/complete`. Declined or cancelled: the job is stopped (the session closed as
  cancelled) and the call ends "cancelled".
- Form elicitation only: one field, an enum of the candidates' codes titled with what they are (an array of
  them when several may be picked); the answer is delivered through the channel like a Confirm.
- Neither: the call returns the viewer URL and the session id; `wait_for_selection` follows the job from there.
- Protocol 2026-07-28 (no requests from server to client): the same URL or form request is returned as an
  `input_required` result; the host answers and calls again, and `resume` takes the job up where it was.

While a pick is awaited, progress notifications say how many seconds are left. A host that cancels the request
stops the job, so the session ends as cancelled and the viewer says so.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Annotated, Any, Literal

import anyio
import anyio.to_thread
from mcp.server.elicitation import render_elicitation_schema
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.session import ServerSession
from mcp.shared.message import ServerMessageMetadata
from mcp_types import ElicitRequest, ElicitRequestFormParams, ElicitRequestURLParams, ElicitResult, InputRequiredResult
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel, ValidationError, WithJsonSchema, create_model

from mcp_server.hosts import PickMode, pick_mode, say_how_picks_go
from mcp_server.jobs import CANCEL_WAIT_S, Finished, Job, Jobs, Milestone, PickNeeded
from scene_agent.cli.viewer_check import server_warning
from scene_agent.config import Settings
from scene_agent.errors import SceneAgentError
from scene_agent.language.words import Lang
from scene_agent.scene.index import IndexedRoom
from scene_agent.scene.loader import Scene
from scene_agent.selection.channel import SelectionChannel

log = logging.getLogger(__name__)

PICK_KEY = "pick"  # the name of the one input request of an input_required round
HOST_CANCELLED = "cancelled by the MCP host"


# A call that opened the viewer returns after this long at most with the pick still to make (`selection_required`;
# wait_for_selection follows it): common clients give up on a request after 60 s, progress or not.
CALL_BUDGET_S = 45.0

# A form answered with none of the candidates is asked again, this many times in all; then the pick is cancelled.
FORM_TRIES = 2
NOT_A_CANDIDATE = "the host's answer was none of the candidates"
VIEWER_AWAY = "the viewer does not answer"


def refused(action: str) -> str:
    """Why a job stopped when the user turned the pick down in the host."""
    return f"the pick was {'declined' if action == 'decline' else 'cancelled'} in the MCP host"


def modern(ctx: Context) -> bool:
    """Whether this request speaks 2026-07-28 (elicitation only as an input_required result)."""
    return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS


def title(scene: Scene, code: str) -> str:
    """What a candidate is, for a form: 'chair 0-3-2 · Kitchen'."""
    entry = scene.item(code)
    if isinstance(entry, IndexedRoom):
        return f"{entry.room.display_name} ({code})"
    return f"{entry.label} {code} · {entry.room.room.display_name}"


def choice_model(scene: Scene, pick: PickNeeded) -> type[BaseModel]:
    """One field, `choice`: a candidate's code (titled), or several of them when the pick takes several."""
    titled = [{"const": code, "title": title(scene, code)} for code in pick.candidates]
    code_type: Any = Literal[tuple(pick.candidates)]
    if pick.multiple:
        field: Any = Annotated[list[code_type], WithJsonSchema(
            {"type": "array", "title": "Pick", "items": {"anyOf": titled}, "minItems": 1})]
    else:
        field = Annotated[code_type, WithJsonSchema({"type": "string", "title": "Pick", "oneOf": titled})]
    return create_model("Pick", choice=(field, ...))


Shown = Literal["link", "opened", "inline"]  # where the viewer of a pending pick is: to open, open, in the conversation
WHERE: dict[Shown, dict[Lang, str]] = {
    "link": {"en": "The user picks in the 3D viewer at pick.viewer_url (open it for them) and confirms",
             "zh": "请让用户打开 pick.viewer_url，在 3D 查看器中选择并确认"},
    "opened": {"en": "The 3D viewer is open and the user is picking there", "zh": "3D 查看器已打开，用户正在其中选择"},
    "inline": {"en": "The 3D viewer is shown in this conversation, where the user picks and confirms",
               "zh": "3D 查看器已显示在对话中，用户在其中选择并确认"},
}


def question_of(pick: PickNeeded) -> str:
    """The pick's question without the viewer's instruction to confirm: 'Which chair do you mean: …?'."""
    return pick.prompt.removesuffix(" Pick it, then Confirm").removesuffix(", then Confirm")


def pick_needed(pick: PickNeeded, lang: Lang, shown: Shown) -> str:
    """What a call that returns before the pick says, in the question's language: the choice, where it is made, and
    to call wait_for_selection."""
    question = question_of(pick)
    if lang == "zh":
        return f"{question} {WHERE[shown]['zh']}；然后用 session_id {pick.session_id} 调用 wait_for_selection 获取答案。"
    return f"{question} {WHERE[shown]['en']}; then call wait_for_selection with session_id {pick.session_id} for the answer."


def _message(pick: PickNeeded, mode: PickMode) -> str:
    if mode == "url":
        return f"{pick.prompt} (in the 3D viewer; {pick.seconds_left:.0f} s to pick)"
    return question_of(pick)


async def next_milestone(ctx: Context, job: Job, timeout: float | None = None, *, stop_on_cancel: bool = True
                         ) -> Milestone | None:
    """The job's next milestone, reporting progress while a pick is awaited; None when `timeout` passed first.

    A host that cancels the request stops the job (its pick is closed as cancelled), then the cancellation goes on;
    with `stop_on_cancel` False (a wait_for_selection) the job and its pick go on.
    """
    deadline = None if timeout is None else time.monotonic() + timeout
    try:
        while True:
            step = 1.0 if deadline is None else max(0.0, min(1.0, deadline - time.monotonic()))
            milestone = await anyio.to_thread.run_sync(job.next_milestone, step, abandon_on_cancel=True)
            if milestone is not None:
                return milestone
            if deadline is not None and time.monotonic() >= deadline:
                return None
            pick = job.pick
            if pick is not None:
                left = pick.seconds_left
                await ctx.report_progress(round(pick.timeout - left, 1), pick.timeout,
                                          f"{left:.0f} s left to pick in the viewer")
    except anyio.get_cancelled_exc_class():
        if stop_on_cancel:
            job.control.stop(HOST_CANCELLED)
        raise


RELATED_TASK = "io.modelcontextprotocol/related-task"  # the `_meta` key naming the task a request is sent for


async def elicit(ctx: Context, params: ElicitRequestURLParams | ElicitRequestFormParams, task_id: str | None = None
                 ) -> ElicitResult:
    """Ask the host (`elicitation/create`): on the call's own stream, or for a task (whose call has returned) on the
    connection's, naming the task."""
    if task_id is not None:
        params = params.model_copy(update={"meta": {RELATED_TASK: {"taskId": task_id}}})
    related = None if task_id is not None else ctx.request_context.request_id
    session: ServerSession = ctx.session
    return await session.send_request(ElicitRequest(params=params), ElicitResult,
                                      metadata=ServerMessageMetadata(related_request_id=related))


async def elicitation_done(ctx: Context, session_id: str, task_id: str | None = None) -> None:
    """Tell a host that opened the viewer through URL elicitation that the pick there is over."""
    if pick_mode(ctx) == "url" and not modern(ctx):
        await ctx.session.send_elicit_complete(session_id,
                                               related_request_id=None if task_id is not None else ctx.request_id)


async def _submit(channel: SelectionChannel, pick: PickNeeded, codes: list[str]) -> None:
    """A pick made in the host's form, delivered through the channel as a Confirm would be."""
    try:
        await anyio.to_thread.run_sync(lambda: channel.submit(pick.session_id, codes, by="host"))
    except SceneAgentError as exc:  # answered in the viewer meanwhile, say: that answer stands
        log.info("the host's pick for session %s was not taken: %s", pick.session_id, exc.message)


def _chosen(scene: Scene, pick: PickNeeded, content: dict[str, Any] | None) -> list[str] | None:
    """The codes a form answer picks, or None when it is not a choice among the candidates."""
    try:
        choice = choice_model(scene, pick).model_validate(content or {}).choice  # type: ignore[attr-defined]
    except ValidationError:
        return None
    return [str(c) for c in choice] if isinstance(choice, list) else [str(choice)]


async def _not_a_candidate(job: Job, pick: PickNeeded, answer: object) -> ToolError:
    """A form answered outside the choices, for the last time: the pick is cancelled (never left pending: closed before
    the host hears), and said."""
    job.control.stop(NOT_A_CANDIDATE, by_user=False)
    await anyio.to_thread.run_sync(lambda: job.ended.wait(CANCEL_WAIT_S))
    return ToolError(f"the pick was cancelled: the host answered {answer!r}, which is none of the candidates "
                     f"({', '.join(pick.candidates)}); ask again")


async def ask_host(ctx: Context, job: Job, pick: PickNeeded, mode: PickMode, scene: Scene,
                   channel: SelectionChannel, task_id: str | None = None) -> None:
    """Ask for the pick now (handshake protocols): open the viewer, or an inline form; a refusal stops the job."""
    if mode == "url":
        opened = await elicit(ctx, ElicitRequestURLParams(message=_message(pick, mode), url=pick.viewer_url,
                                                          elicitation_id=pick.session_id), task_id)
        if opened.action != "accept":
            job.control.stop(refused(opened.action))
        return
    message = _message(pick, mode)
    schema = render_elicitation_schema(choice_model(scene, pick))
    for tries_left in reversed(range(FORM_TRIES)):
        answer = await elicit(ctx, ElicitRequestFormParams(message=message, requested_schema=schema), task_id)
        if answer.action != "accept":
            job.control.stop(refused(answer.action))
            return
        codes = _chosen(scene, pick, dict(answer.content or {}))
        if codes is not None:
            await _submit(channel, pick, codes)
            return
        given = (answer.content or {}).get("choice")
        if not tries_left:  # answered outside the choices again: cancelled, never left pending
            raise await _not_a_candidate(job, pick, given)
        message = f"{given!r} is none of them. {_message(pick, mode)}"


def input_required(job: Job, pick: PickNeeded, mode: PickMode, scene: Scene) -> InputRequiredResult:
    """The pick asked as an input_required result (2026-07-28): the host answers, then calls the tool again."""
    request: ElicitRequest
    if mode == "url":
        request = ElicitRequest(params=ElicitRequestURLParams(message=_message(pick, mode), url=pick.viewer_url))
    else:
        schema = render_elicitation_schema(choice_model(scene, pick))
        request = ElicitRequest(params=ElicitRequestFormParams(message=_message(pick, mode), requested_schema=schema))
    state = json.dumps({"job": job.id, "session_id": pick.session_id, "mode": mode})
    return InputRequiredResult(input_requests={PICK_KEY: request}, request_state=state)


async def resume(ctx: Context, jobs: Jobs, scene: Scene, channel: SelectionChannel) -> Job:
    """The second round of an input_required call: the job it asked for, told what the host answered."""
    state = json.loads(ctx.request_state or "{}")
    job = jobs.get(str(state.get("job")))
    if job is None:
        raise ToolError("that pick is no longer waited for (it ended, or this server restarted); ask again")
    pick = job.pick
    answer = (ctx.input_responses or {}).get(PICK_KEY)
    if not isinstance(answer, ElicitResult) or answer.action != "accept":
        job.control.stop(refused(answer.action if isinstance(answer, ElicitResult) else "cancel"))
    elif state.get("mode") == "form" and pick is not None and pick.session_id == state.get("session_id"):
        codes = _chosen(scene, pick, dict(answer.content or {}))
        if codes is None:
            raise await _not_a_candidate(job, pick, (answer.content or {}).get("choice"))
        await _submit(channel, pick, codes)
    elif state.get("mode") == "url" and pick is not None and pick.session_id == state.get("session_id"):
        job.viewer_opened = pick.session_id  # the host opened the viewer: this round waits a bounded time (_follow)
    return job


async def follow(ctx: Context, job: Job, scene: Scene, channel: SelectionChannel) -> Finished | PickNeeded | InputRequiredResult:
    """Follow the job to its end, asking the host for each pick; or stop at a pick the host cannot be asked for
    (returned: the caller says where to pick and that wait_for_selection follows up), or at an input_required round.

    A host that cancels the request meanwhile (while it is asked, too) stops the job.
    """
    try:
        return await _follow(ctx, job, scene, channel)
    except anyio.get_cancelled_exc_class():
        job.control.stop(HOST_CANCELLED)
        raise


async def viewer_trouble(scene: Scene, settings: Settings) -> str | None:
    """Why a viewer URL would not open (no server answers there, or one for another scene) and what to do; None when
    it would."""
    warning = await anyio.to_thread.run_sync(server_warning, settings, scene)
    if warning is None:
        return None
    return (f"{warning}. Set SCENE_AGENT_VIEWER_URL to a running scene-agent server for this scene, or leave it unset "
            "(`scene-agent mcp` then serves the viewer itself)")


async def viewer_answers(job: Job, scene: Scene, settings: Settings) -> None:
    """Before a pick's URL is handed out: a viewer that does not answer there (the server stopped, another scene) is
    a pick nobody can make, so it is cancelled at once and the call fails saying what to do."""
    trouble = await viewer_trouble(scene, settings)
    if trouble is None:
        return
    job.control.stop(VIEWER_AWAY, by_user=False)
    await anyio.to_thread.run_sync(lambda: job.ended.wait(CANCEL_WAIT_S))
    raise ToolError(f"the pick was cancelled: {trouble}")


async def _follow(ctx: Context, job: Job, scene: Scene, channel: SelectionChannel) -> Finished | PickNeeded | InputRequiredResult:
    job.inline = pick_mode(ctx) == "app"
    say_how_picks_go(ctx)
    pending = job.pick  # a retry after the host opened the viewer (2026-07-28) waits for that pick a bounded time too
    asked = pending if pending is not None and job.viewer_opened == pending.session_id else None
    deadline = time.monotonic() + CALL_BUDGET_S
    while True:
        left = deadline - time.monotonic() if asked is not None else None
        milestone = await next_milestone(ctx, job, None if left is None else max(0.0, left))
        if milestone is None and asked is not None:  # the viewer is open and the pick is the user's: the host follows
            job.viewer_opened = asked.session_id       # it with wait_for_selection, before its client gives up
            return asked
        if asked is not None:
            await elicitation_done(ctx, asked.session_id)
            asked = None
        if isinstance(milestone, Finished) or milestone is None:
            assert milestone is not None  # without a timeout, a milestone always comes
            return milestone
        await viewer_answers(job, scene, channel.settings)
        mode = pick_mode(ctx)
        if mode in ("none", "app"):  # a link in the result, or the viewer showing the result in the conversation
            return milestone
        if modern(ctx):
            return input_required(job, milestone, mode, scene)
        await ask_host(ctx, job, milestone, mode, scene, channel)
        asked = milestone if mode == "url" else None  # a form's answer is in the channel already
