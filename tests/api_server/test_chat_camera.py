"""A chat message carries the viewer's camera: a bad one is 400 naming the field; a good one becomes the turn's
viewpoint, which the find calls of the run (and words answering a pick) run with."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from chat_helpers import ask, events_until, run_events
from http_client import call
from sse_client import SSEStream

import scene_agent.agent.pick_in_words as pick_in_words
import scene_agent.tools.find as find_tool
from api_server.serve import BackgroundServer
from scene_agent.resolution.viewpoint import Viewpoint

ChatServer = Callable[..., BackgroundServer]
# Above and south of the kitchen, looking north and down at it; up on the screen is north and up.
OBLIQUE = {"position": [2.0, -4.0, 5.0], "target": [2.0, 2.0, 0.5], "up": [0.0, 0.6, 0.8]}
# Looking north and down at 37°: the line of sight (0, 6, -4.5) / 7.5, the screen's right east.
SEEN_OBLIQUELY = Viewpoint(position=(2.0, -4.0, 5.0), forward=(0.0, 1.0), source="camera", sight=(0.0, 0.8, -0.6),
                           screen_right=(1.0, 0.0, 0.0))


class FindSpy:
    """The real find, noting the viewpoint of each call."""

    def __init__(self, real: Callable[..., Any]):
        self.real = real
        self.viewpoints: list[Viewpoint | None] = []

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.viewpoints.append(kwargs.get("viewpoint"))
        return self.real(*args, **kwargs)


@pytest.fixture
def find_calls(monkeypatch: pytest.MonkeyPatch) -> FindSpy:
    """Every find the agent's tool calls make, and words answering a pick."""
    spy = FindSpy(find_tool.find)
    monkeypatch.setattr(find_tool, "find", spy)  # what the find tool (its module's TOOL) calls
    monkeypatch.setattr(pick_in_words, "find", spy)
    return spy


@pytest.mark.parametrize(("camera", "needle"), [
    ({"position": [0, 0, 1]}, "camera.target: Field required"),
    ({"position": [0, 0], "target": [1, 1, 1]}, "camera.position: must be 3 numbers, [x, y, z] (got 2)"),
    ({"position": [0, 0, 1, 2], "target": [1, 1, 1]}, "camera.position: must be 3 numbers, [x, y, z] (got 4)"),
    ({"position": [0, "1", 1], "target": [1, 1, 1]}, "camera.position.1: Input should be a valid number"),
    ({"position": [0, 0, 1], "target": [1, 1, True]}, "camera.target.2: Input should be a valid number"),
    ({"position": [0, 0, 1], "target": [1, 1e6, 1]}, "camera.target.1: Input should be less than or equal to 100000"),
    ({"position": [0, 0, 1], "target": [1, 1, 1], "up": [0, 0, 0, 1]}, "camera.up: must be 3 numbers, [x, y, z] (got 4)"),
    ({"position": [0, 0, 1], "target": [1, 1, 1], "fov": 50}, "camera.fov: Extra inputs are not permitted"),
    ([0, 0, 1], "camera: Input should be an object"),
])
def test_a_bad_camera_is_400_naming_the_field(chat_server: ChatServer, camera: Any, needle: str) -> None:
    server = chat_server()
    reply = call("POST", f"{server.url}/api/chat", {"message": "how many chairs are there?", "camera": camera})
    assert reply.status == 400 and reply.json()["error"] == "bad_usage", reply.body
    assert needle in reply.json()["message"]
    assert server.app.extensions["scene_agent.chat"]._runs == {}, "nothing started"


@pytest.mark.parametrize("number", [b"NaN", b"Infinity", b"-Infinity"])
def test_a_camera_that_is_not_finite_is_400(chat_server: ChatServer, number: bytes) -> None:
    server = chat_server()
    raw = b'{"message": "how many chairs are there?", "camera": {"position": [0, ' + number + b', 1], "target": [1, 1, 1]}}'
    reply = call("POST", f"{server.url}/api/chat", raw=raw, headers={"Content-Type": "application/json"})
    assert reply.status == 400 and "camera.position.1: Input should be a finite number" in reply.json()["message"]


def test_the_camera_becomes_the_viewpoint_every_find_of_the_run_uses(chat_server: ChatServer, find_calls: FindSpy) -> None:
    server = chat_server()
    reply = call("POST", f"{server.url}/api/chat", {"message": "how many chairs are there?", "camera": OBLIQUE})
    assert reply.status == 202, reply.body
    events = run_events(server.url, reply.json()["run_id"])
    assert events[-1]["status"] == "answered"
    assert next(e["tool_name"] for e in events if e["type"] == "tool_call_start") == "find"
    run = server.app.extensions["scene_agent.chat"].run(reply.json()["run_id"])
    assert run.viewpoint == SEEN_OBLIQUELY
    assert run.viewpoint.right == pytest.approx((1.0, 0.0))  # looking north, the screen's right is east
    assert find_calls.viewpoints and all(v == run.viewpoint for v in find_calls.viewpoints)


def test_looking_straight_down_left_and_right_come_from_the_screen_s_up(chat_server: ChatServer,
                                                                      find_calls: FindSpy) -> None:
    server = chat_server()
    down = {"position": [2.0, 2.0, 12.0], "target": [2.0, 2.0, 0.0]}
    # west at the top of the screen: its right is north
    started = call("POST", f"{server.url}/api/chat", {"message": "how many chairs are there?",
                                                      "camera": {**down, "up": [-1.0, 0.0, 0.0]}}).json()
    run_events(server.url, started["run_id"])
    viewpoint = server.app.extensions["scene_agent.chat"].run(started["run_id"]).viewpoint
    assert viewpoint.forward == pytest.approx((-1.0, 0.0)) and viewpoint.right == pytest.approx((0.0, 1.0))
    assert find_calls.viewpoints[-1] == viewpoint
    # without `up` nothing says which way is left: no viewpoint, as without a camera
    started = call("POST", f"{server.url}/api/chat", {"message": "how many chairs are there?", "camera": down,
                                                      "conversation_id": started["conversation_id"]}).json()
    run_events(server.url, started["run_id"])
    assert server.app.extensions["scene_agent.chat"].run(started["run_id"]).viewpoint is None
    assert find_calls.viewpoints[-1] is None


@pytest.mark.parametrize(("camera", "forward"), [
    ({"position": [1, 2, 3], "target": [1, 2, 3]}, None),  # on its own target: looking nowhere
    ({"position": [1, 2, 3], "target": [1, 2, 3.0005], "up": [0, 1, 0]}, None),  # within 1 mm of it
    ({"position": [0, -3, 3], "target": [0, 0, 0], "up": [0, 0, 0]}, (0.0, 1.0)),  # no up: from position to target
    ({"position": [0, -3, 3], "target": [0, 0, 0], "up": [0, 2, -2]}, (0.0, 1.0)),  # up along the line of sight
    ({"position": [0, 0, 5], "target": [0, 0, 0], "up": [0, 0, 1]}, None),  # …looking straight down: no direction
])
def test_a_camera_whose_geometry_says_no_direction_is_taken_without_one(chat_server: ChatServer, camera: Any,
                                                                       forward: tuple[float, float] | None) -> None:
    """What fits the OpenAPI document is accepted: a camera that gives no screen right gives what it can."""
    server = chat_server()
    reply = call("POST", f"{server.url}/api/chat", {"message": "how many chairs are there?", "camera": camera})
    assert reply.status == 202, reply.body
    run_events(server.url, reply.json()["run_id"])
    viewpoint = server.app.extensions["scene_agent.chat"].run(reply.json()["run_id"]).viewpoint
    assert (viewpoint.forward if viewpoint else None) == (pytest.approx(forward) if forward else None)


def test_a_message_without_a_camera_has_no_viewpoint(chat_server: ChatServer, find_calls: FindSpy) -> None:
    server = chat_server()
    started, events = ask(server.url, "how many chairs are there?")
    assert events[-1]["status"] == "answered"
    assert server.app.extensions["scene_agent.chat"].run(started["run_id"]).viewpoint is None
    assert find_calls.viewpoints and set(find_calls.viewpoints) == {None}


def test_words_answering_a_pick_are_read_from_the_camera_they_came_with(chat_server: ChatServer,
                                                                        find_calls: FindSpy) -> None:
    server = chat_server()
    started = call("POST", f"{server.url}/api/chat", {"message": "what's the color of the chair?"}).json()
    with SSEStream(f"{server.url}/api/runs/{started['run_id']}/events") as stream:
        events_until(stream, "selection_required")
        before = len(find_calls.viewpoints)
        reply = call("POST", f"{server.url}/api/chat", {"message": "the red one", "answers_pick": True, "camera": OBLIQUE,
                                                        "conversation_id": started["conversation_id"]})
        assert reply.status == 200 and reply.json()["codes"] == ["0-1-1"], reply.body
        _, final = events_until(stream, "final")
    assert final["status"] == "answered"
    assert find_calls.viewpoints[before] == SEEN_OBLIQUELY
