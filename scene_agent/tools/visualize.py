"""The `visualize` tool [VIS]: open rooms/objects in the viewer, view-only or asking the user to pick."""

from __future__ import annotations

from typing import Literal

import inflection
from pydantic import Field, field_validator

from scene_agent.config import Settings
from scene_agent.errors import NotFoundError, UsageError
from scene_agent.model import Model
from scene_agent.scene.codes import is_code, kind_of
from scene_agent.scene.index import IndexedRoom
from scene_agent.scene.loader import Scene
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.result import SelectionResult
from scene_agent.selection.session import (
    DEFAULT_TIMEOUT_S,
    MAX_TIMEOUT_S,
    SelectionSession,
    SessionMode,
    mode_for,
    selection_view,
)
from scene_agent.selection.views import build_view, viewer_url
from scene_agent.tools.context import ToolContext
from scene_agent.tools.summary import Summary, codes_shown, codes_shown_zh
from scene_agent.tools.tool import Tool
from scene_agent.tools.user_link import UserLink


class VisualizeInput(Model):
    """Show rooms or objects in the point-cloud viewer; with selection_mode, ask the user to pick among them."""

    codes: list[str] = Field(min_length=1, max_length=500,
                             description="Codes to show: rooms ('0-7'), objects ('0-7-12') or a whole floor ('0'). "
                                         "With selection_mode: the candidates, all rooms or all objects.")
    selection_mode: bool = Field(default=False, description="Ask the user to pick among the codes and wait for the answer.")
    prompt: str | None = Field(default=None, max_length=300,
                               description="What the viewer asks the user, e.g. 'Which chair do you mean?'.")
    multiple: bool = Field(default=False, description="Let the user pick several (e.g. to compare them).")
    timeout: float = Field(default=DEFAULT_TIMEOUT_S, gt=0, le=MAX_TIMEOUT_S, description="Seconds the user has to pick.")

    @field_validator("codes")
    @classmethod
    def _well_formed(cls, v: list[str]) -> list[str]:
        bad = [code for code in v if not is_code(code)]
        if bad:
            raise ValueError(f"not scene codes (expected F, F-R or F-R-O, e.g. 0-7-12): {', '.join(bad)}")
        return list(dict.fromkeys(v))


class VisOutput(Model):
    """What the viewer was asked to show; for a selection, the session to wait on."""

    status: Literal["ok"] = "ok"
    mode: SessionMode | None = None
    name: str | None = Field(default=None, description="What is shown, in words.")
    viewer_url: str | None = None
    objects: list[str] | None = Field(default=None, description="The codes shown (a floor expands to its rooms).")
    requires_selection: bool = False
    session_id: str | None = None
    selection_file: str | None = None
    view: str | None = Field(default=None, description="Name of the view manifest (/manifests/<view>.json).")
    selection: SelectionResult | None = Field(default=None, description="How the wait for the user's pick ended.")

    def human_summary(self) -> Summary:
        """The viewer's URL, or what was picked, or why nothing was."""
        picked = self.selection
        if picked is None:
            return Summary(en=self.viewer_url or "shown", zh=self.viewer_url or "已显示")
        if picked.status == "confirmed":
            return Summary(en=f"picked {codes_shown(picked.codes)}", zh=f"已选择 {codes_shown_zh(picked.codes)}")
        if picked.status == "timeout":
            return Summary(en="timed out, nothing picked", zh="超时，未选择", tone="timeout")
        return Summary(en=f"{picked.status}, nothing picked", zh=f"{picked.status}，未选择", tone="nothing")


def _label(scene: Scene, code: str) -> str:
    entry = scene.item(code)
    return entry.type.replace("_", " ") if isinstance(entry, IndexedRoom) else entry.label


def _describe(scene: Scene, codes: list[str]) -> str:
    if len(codes) == 1:
        entry = scene.item(codes[0])
        if isinstance(entry, IndexedRoom):
            return f"room {codes[0]} ({entry.room.display_name})"
        return f"{entry.label} {codes[0]}"
    labels = sorted({_label(scene, c) for c in codes})
    noun = inflection.pluralize(labels[0]) if len(labels) == 1 else ("rooms" if kind_of(codes[0]) == "room" else "objects")
    return f"{len(codes)} {noun}: {', '.join(codes)}"


def default_prompt(labels: list[str], multiple: bool) -> str:
    """'Which chair do you mean?' / 'Pick the chairs to use' from the candidates' labels."""
    kinds = sorted(set(labels))
    noun = kinds[0] if len(kinds) == 1 else "one"
    if multiple:
        return f"Pick the {inflection.pluralize(noun) if noun != 'one' else 'ones'} you mean, then Confirm"
    return f"Which {noun} do you mean? Pick it, then Confirm"


def _expand(scene: Scene, codes: list[str]) -> list[str]:
    """A floor code stands for its rooms; unknown codes raise NotFoundError."""
    shown: list[str] = []
    for code in codes:
        if kind_of(code) == "floor":
            floor = scene.index.floors.get(code)
            if floor is None:
                raise NotFoundError(f"no floor {code} in scene {scene.scene_id}")
            shown += [room.code for room in floor.rooms]
        else:
            scene.item(code)
            shown.append(code)
    return list(dict.fromkeys(shown))


def visualize(ctx: ToolContext, spec: VisualizeInput) -> VisOutput:
    """The tool: show the codes; in selection mode, also wait for the user's pick and return it under `selection`."""
    if spec.selection_mode and "timeout" not in spec.model_fields_set:
        spec = spec.model_copy(update={"timeout": ctx.selection_timeout})
    channel = ctx.selection_channel()
    vis, session = open_view(ctx.scene, spec, ctx.settings, channel)
    if session is None:
        return vis
    return vis.model_copy(update={"selection": wait_for_selection(channel, session, vis, ctx.user)})


def open_view(scene: Scene, spec: VisualizeInput, settings: Settings,
              channel: SelectionChannel) -> tuple[VisOutput, SelectionSession | None]:
    """Store the view manifest (and the session, for a selection) and return the viewer URL; raises on bad codes."""
    if not spec.selection_mode and spec.multiple:
        raise UsageError("multiple only applies to a selection (selection_mode)")
    if spec.selection_mode and any(kind_of(c) == "floor" for c in spec.codes):
        raise UsageError("selection candidates are rooms or objects; a floor code cannot be picked")
    codes = _expand(scene, spec.codes)
    mode = mode_for(codes) if spec.selection_mode else _view_mode(codes)
    session = None
    if spec.selection_mode:
        labels = {code: _label(scene, code) for code in codes}
        prompt = spec.prompt or default_prompt(list(labels.values()), spec.multiple)
        session = SelectionSession.create(codes, labels, prompt, scene_id=scene.scene_id, multiple=spec.multiple,
                                          timeout=spec.timeout)
        session = session.model_copy(update={"view": selection_view(session.session_id)})
    view = build_view(scene, codes, mode, session)
    if session is None:
        channel.write_view(view)
    else:
        session = channel.open(session, view)
    vis = VisOutput(status="ok", mode=mode, name=_describe(scene, codes), viewer_url=viewer_url(settings.viewer_url, view.view, session),
                    objects=codes, requires_selection=session is not None,
                    session_id=session.session_id if session else None,
                    selection_file=str(channel.selection_file(session.session_id)) if session else None,
                    view=view.view)
    return vis, session


def wait_for_selection(channel: SelectionChannel, session: SelectionSession, vis: VisOutput, user: UserLink) -> SelectionResult:
    """Wait through the channel for the user's pick: registered before it is shown, so no answer slips by.

    A stop from the user (`user.on_stop`) or Ctrl-C (KeyboardInterrupt, which the CLI also raises for SIGTERM
    and SIGHUP) closes the session as cancelled by the caller; so does a failure to show it.
    """
    pending = channel.watch(session)
    unregister = user.on_stop(pending.cancel)
    result: SelectionResult | None = None
    interrupted = False
    try:
        user.selection_shown(vis, session, channel.describe())
        result = pending.wait(user.selection_progress)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        unregister()
        if result is None:  # interrupted, or showing it failed: the session must not stay open
            pending.cancel()
            result = pending.wait()
    user.selection_ended(result, interrupted)
    return result


def _view_mode(codes: list[str]) -> SessionMode:
    kinds = {kind_of(c) for c in codes}
    if kinds == {"room"}:
        return "room" if len(codes) == 1 else "multi-room"
    return "objects"


TOOL = Tool("visualize", VisualizeInput, VisOutput, visualize, aliases=("vis",),
            waits_for_user=lambda arguments: bool(arguments.get("selection_mode")),
            returns="View-only returns the viewer URL at once. With selection_mode it waits for the user's pick and returns "
                    "it under `selection`.")
