"""The visualize tool [VIS]: view manifests, sessions, viewer URLs, and errors that name what is wrong."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from channels import EVERY_CHANNEL
from pydantic import ValidationError

from scene_agent.config import Settings
from scene_agent.errors import SceneAgentError, usage_error
from scene_agent.scene.loader import load_scene
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.files.backend import FileBackend
from scene_agent.selection.files.store import SessionStore
from scene_agent.selection.result import SelectionResult
from scene_agent.selection.session import SelectionSession
from scene_agent.tools.context import ToolContext
from scene_agent.tools.registry import TOOLS
from scene_agent.tools.user_link import NoUser
from scene_agent.tools.visualize import VisOutput, VisualizeInput, default_prompt, open_view

CHANNELS = EVERY_CHANNEL  # the tests that use a channel run on each


@pytest.fixture
def scene(small_scene_path: Path):
    return load_scene(small_scene_path)


def visualize(scene, settings: Settings, channel: SelectionChannel | None = None, user: object = None,
              **arguments: object) -> VisOutput:
    """The tool as the agent's toolbox runs it: arguments parsed by its spec, then run."""
    spec = TOOLS["visualize"]
    context = ToolContext(scene=scene, settings=settings, channel=channel, user=user or NoUser())
    return spec.run(context, spec.parse(arguments))


class PicksWhenShown(NoUser):
    """A user who, shown a selection, checks what the tool stored and picks `code` through the channel."""

    def __init__(self, channel: SelectionChannel, code: str | None):
        self.channel = channel
        self.code = code
        self.shown: list[tuple[VisOutput, SelectionSession, str]] = []
        self.ended: list[SelectionResult] = []

    def selection_shown(self, vis: VisOutput, session: SelectionSession, channel: str) -> None:
        self.shown.append((vis, session, channel))
        assert self.channel.get(session.session_id) == session
        assert self.channel.someone_waits(session.session_id)  # the wait is registered before the session is shown
        if self.code:
            self.channel.submit(session.session_id, [self.code])
        else:
            self.channel.cancel(session.session_id)

    def selection_ended(self, result: SelectionResult, interrupted: bool) -> None:
        self.ended.append(result)


def error_of(scene, settings: Settings, **arguments: object) -> str:
    """The message the toolbox reports for a call that fails."""
    try:
        visualize(scene, settings, **arguments)
    except ValidationError as exc:
        return usage_error(exc).message
    except SceneAgentError as exc:
        return exc.message
    raise AssertionError(f"visualize({arguments}) did not fail")


def view_of(settings: Settings, name: str) -> dict:
    return json.loads((settings.views_dir / f"{name}.json").read_text())


def test_view_only_room(scene, settings):
    out = visualize(scene, settings, codes=["0-1"])
    assert (out.status, out.mode, out.name, out.objects, out.requires_selection) == ("ok", "room", "room 0-1 (kitchen)", ["0-1"], False)
    assert out.viewer_url == f"http://localhost:8090/?manifest=/manifests/{out.view}.json"
    view = view_of(settings, out.view)
    assert (view["selection"], view["focus"], view["scene_url"]) == (False, ["0-1"], "/api/scenes/small")
    assert [(i["code"], i["role"]) for i in view["items"]] == [("0-1", "focus"), ("0-1-1", "context"), ("0-1-2", "context"),
                                                              ("0-1-3", "context"), ("0-1-4", "context")]
    assert view["items"][1]["points_url"] == "/api/scenes/small/points/0-1-1"
    assert not SessionStore(settings).directory.exists()  # no session for a plain view


def test_the_same_view_has_the_same_name(scene, settings):
    assert visualize(scene, settings, codes=["0-2-2", "0-2-3"]).view == visualize(scene, settings, codes=["0-2-2", "0-2-3"]).view
    assert visualize(scene, settings, codes=["0-2-2"]).view != visualize(scene, settings, codes=["0-2-3"]).view


def test_objects_come_with_their_rooms_and_a_floor_expands_to_its_rooms(scene, settings):
    out = visualize(scene, settings, codes=["0-2-2", "1-1-1"])
    assert (out.mode, out.name) == ("objects", "2 objects: 0-2-2, 1-1-1")
    items = view_of(settings, out.view)["items"]
    assert [(i["code"], i["role"]) for i in items] == [("0-2-2", "focus"), ("1-1-1", "focus"), ("0-2", "context"), ("1-1", "context")]
    floor = visualize(scene, settings, codes=["1"])
    assert (floor.mode, floor.objects) == ("multi-room", ["1-1", "1-2", "1-3", "1-4"])


def test_selection_stores_the_session_and_its_view_then_waits_for_the_pick(scene, settings, channels):
    channel = channels(settings)
    user = PicksWhenShown(channel, "1-2")
    out = visualize(scene, settings, channel, user, codes=["1-1", "1-2"], selection_mode=True, timeout=90)
    assert (out.status, out.mode, out.requires_selection) == ("ok", "multi-room", True)
    [(shown, session, where)] = user.shown
    assert shown.session_id == out.session_id and where == channel.describe()
    assert (session.candidates, session.labels, session.timeout, session.view) == (
        ["1-1", "1-2"], {"1-1": "bedroom", "1-2": "bedroom"}, 90, out.view)
    assert session.prompt == "Which bedroom do you mean? Pick it, then Confirm"
    query = parse_qs(urlsplit(out.viewer_url).query)
    assert query == {"manifest": [f"/manifests/{out.view}.json"], "selectionMode": ["true"], "sessionId": [out.session_id],
                     "prompt": [session.prompt]}
    assert out.selection_file == str(settings.selection_dir / f"viewer_selection_{out.session_id}.json")
    view = json.loads(channel.read_view(out.view) or b"{}")
    assert (view["session_id"], view["prompt"], view["selection"]) == (out.session_id, session.prompt, True)
    assert out.selection is not None and (out.selection.status, out.selection.codes) == ("confirmed", ["1-2"])
    assert user.ended == [out.selection]
    assert not channel.someone_waits(out.session_id)  # the claim ends with the wait
    assert not Path(out.selection_file).exists()  # consumed


def test_a_cancel_in_the_viewer_is_the_tools_result(scene, settings, channels):
    channel = channels(settings)
    out = visualize(scene, settings, channel, PicksWhenShown(channel, None), codes=["0-1-1", "0-1-2"], selection_mode=True)
    assert out.selection is not None and (out.selection.status, out.selection.cancelled_by) == ("cancelled", "viewer")


def test_a_view_only_view_is_served_by_the_channel(scene, settings, channels):
    channel = channels(settings)
    out = visualize(scene, settings, channel, codes=["0-1"])
    assert out.selection is None and json.loads(channel.read_view(out.view) or b"{}")["focus"] == ["0-1"]


def test_default_prompts():
    assert default_prompt(["chair", "chair"], multiple=True) == "Pick the chairs you mean, then Confirm"
    assert default_prompt(["chair", "sofa"], multiple=False) == "Which one do you mean? Pick it, then Confirm"


@pytest.mark.parametrize(("arguments", "message"), [
    ({"codes": ["0-9"]}, "no room 0-9"),
    ({"codes": ["0-1-99"]}, "no object 0-1-99"),
    ({"codes": ["7"]}, "no floor 7"),
    ({"codes": ["kitchen"]}, "not scene codes"),
    ({"codes": []}, "codes"),
    ({"codes": ["0-1"], "multiple": True}, "multiple only applies"),
    ({"codes": ["0", "0-1"], "selection_mode": True}, "a floor code cannot be picked"),
    ({"codes": ["0-1", "0-1-1"], "selection_mode": True}, "all rooms or all objects"),
    ({"codes": ["0-1-1"], "selection_mode": True, "timeout": 0}, "timeout"),
    ({"codes": ["0-1-1"], "selection_mode": "sure"}, "selection_mode"),
])
def test_bad_input_is_an_error_that_names_it(scene, settings, arguments, message):
    assert message in error_of(scene, settings, **arguments)
    assert not settings.state_dir.exists() or not any(settings.views_dir.glob("*.json"))


def test_open_view_raises_for_the_cli(scene, settings):
    from scene_agent.errors import NotFoundError

    with pytest.raises(NotFoundError):
        open_view(scene, VisualizeInput(codes=["0-9"]), settings, SelectionChannel(FileBackend(settings)))
