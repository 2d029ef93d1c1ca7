"""'The chair on the left' over POST /api/chat follows the camera the message carries: among a row of chairs alike
(same label, same colour: only where each stands tells them apart) the answer is about the chair the camera draws
leftmost (rightmost, second from the left), worked out here from the camera and the chairs' boxes alone. Where the
screen shows no leftmost (the row seen end on), or there is no camera, the agent asks, and never answers."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from chat_helpers import events_until, run_events
from cli_run import run_cli
from http_client import call
from small_scene import ROW_CHAIRS, across_screen, centre_of, left_to_right, on_screen, write_chair_row
from sse_client import SSEStream

from api_server.app import create_app
from api_server.serve import BackgroundServer
from scene_agent.config import Settings
from scene_agent.scene.loader import load_scene

ChatServer = Callable[[], BackgroundServer]
CLEAR = 0.02  # across the screen (tangent of the angle): the leftmost and the next are told apart by about 1°


def upright(position: list[float], target: list[float]) -> dict[str, Any]:
    """A camera at `position` looking at `target`, not rolled (as orbiting leaves it): its up is the screen's."""
    sight = np.subtract(target, position)
    up = np.cross(np.cross(sight, [0.0, 0.0, 1.0]), sight)
    return {"position": position, "target": target, "up": [float(v) for v in up / np.linalg.norm(up)]}


# Cameras as the page sends them (scene coordinates, z up). The row runs west to east along y = 1.95 m, x from 1.5
# to 4.5 m.
FRONT = upright([3.0, -3.0, 3.0], [3.0, 2.0, 0.45])           # south of it, above, looking north
BEHIND = upright([3.0, 7.0, 3.0], [3.0, 2.0, 0.45])           # north of it, looking south
OBLIQUE_SOUTH_WEST = upright([-2.0, -3.0, 3.0], [3.0, 2.0, 0.45])
DOWN_NORTH_UP = {"position": [3.0, 1.95, 9.0], "target": [3.0, 1.95, 0.0], "up": [0.0, 1.0, 0.0]}
DOWN_SOUTH_UP = {"position": [3.0, 1.95, 9.0], "target": [3.0, 1.95, 0.0], "up": [0.0, -1.0, 0.0]}
# From the row's west end, above its line: the chairs are drawn one behind the other on one vertical line.
END_ON_WEST = upright([-3.0, 1.95, 2.0], [3.0, 1.95, 0.45])
# Sitting low by the row's west end, looking east-south-east past it: the row recedes along the screen's left, its
# nearest chair drawn furthest left, every chair wholly in view.
WEST_END_LOOKING_PAST = upright([-1.0, 1.6, 1.0], [2.8, 0.2, 0.2])
HALF_VIEW = (0.466 * 1.6, 0.466)  # tan 25°: the viewer's 50° field of view, across a 1280 × 800 page


@pytest.fixture(scope="module")
def row_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_chair_row(tmp_path_factory.mktemp("scenes") / "row")


def row_boxes(row_path: Path) -> dict[str, dict[str, Any]]:
    """Each chair's box ({"min", "max"}), from the manifest."""
    scene = load_scene(row_path)
    return {code: scene.index.objects[code].obj.bounds.model_dump() for code in ROW_CHAIRS}


@pytest.fixture(scope="module")
def chair_centres(row_path: Path) -> dict[str, tuple[float, float, float]]:
    """Each chair's box centre."""
    return {code: centre_of(box) for code, box in row_boxes(row_path).items()}


@pytest.fixture
def row_server(row_path: Path, settings: Settings, tmp_path: Path, offline: None) -> Iterator[ChatServer]:
    """`row_server()`: a real server for the row of chairs, the offline planner answering."""
    started: list[BackgroundServer] = []

    def start() -> BackgroundServer:
        app = create_app({"SCENE_PATH": str(row_path), "SETTINGS": settings, "VIEWER_DIST": str(tmp_path / "dist")})
        started.append(BackgroundServer(app).__enter__())
        return started[-1]

    yield start
    for server in started:
        server.close()


def post(server: BackgroundServer, message: str, camera: dict[str, Any] | None) -> dict[str, Any]:
    """POST /api/chat (with the camera, when there is one): the 202 body."""
    body: dict[str, Any] = {"message": message}
    if camera is not None:
        body["camera"] = camera
    reply = call("POST", f"{server.url}/api/chat", body)
    assert reply.status == 202, reply.body
    return reply.json()


def answered_about(server: BackgroundServer, message: str, camera: dict[str, Any]) -> tuple[list[str], str]:
    """Ask and read the run to its end; it must have answered: the codes and the words of the answer."""
    started = post(server, message, camera)
    events = run_events(server.url, started["run_id"])
    final = events[-1]
    assert final["type"] == "final" and final["status"] == "answered", final
    assert not any(e["type"] == "selection_required" for e in events), "answered without asking"
    return final["codes"], final["answer"]


def asked_among(server: BackgroundServer, message: str, camera: dict[str, Any] | None) -> list[str]:
    """Ask; the run must ask for a pick before answering anything: its candidates (the run is stopped after)."""
    started = post(server, message, camera)
    run_url = f"{server.url}/api/runs/{started['run_id']}"
    with SSEStream(f"{run_url}/events") as stream:
        seen, selection = events_until(stream, "selection_required")
        assert not any(e.json()["type"] == "final" for e in seen)
        assert call("POST", f"{run_url}/stop").status == 200
        _, final = events_until(stream, "final")
    assert final["status"] == "cancelled" and final["codes"] == []
    return list(selection["candidates"])


def about_only(answer: str, code: str) -> bool:
    """The answer names `code` and no other chair of the row."""
    return code in answer and not any(other in answer for other in ROW_CHAIRS if other != code)


def screen_pick(camera: dict[str, Any], centres: dict[str, tuple[float, float, float]], message: str) -> str:
    """The chair the camera draws where the message says (left, right, second from the left), clearly apart from
    the chairs drawn beside it."""
    order = left_to_right(camera, centres)
    drawn = [across_screen(camera, centres)[code] for code in order]
    at = 1 if "second chair from the left" in message else 0 if "left" in message else len(order) - 1
    beside = [drawn[i] for i in (at - 1, at + 1) if 0 <= i < len(order)]
    assert all(abs(drawn[at] - other) > CLEAR for other in beside), f"not told apart on the screen: {order} {drawn}"
    return order[at]


@pytest.mark.parametrize("camera", [FRONT, BEHIND, DOWN_NORTH_UP, DOWN_SOUTH_UP, OBLIQUE_SOUTH_WEST],
                         ids=["front", "behind", "down-north-up", "down-south-up", "oblique-south-west"])
@pytest.mark.parametrize("message", ["what colour is the chair on the left?", "what colour is the chair on the right?",
                                     "what colour is the second chair from the left?"])
def test_left_and_right_are_the_screen_s_for_the_camera_sent(row_server: ChatServer, chair_centres: dict[str, Any],
                                                            camera: dict[str, Any], message: str) -> None:
    server = row_server()
    expected = screen_pick(camera, chair_centres, message)
    codes, answer = answered_about(server, message, camera)
    assert codes == [expected], answer
    assert about_only(answer, expected) and "red" in answer, answer


def test_turned_half_round_the_same_words_name_the_chair_at_the_other_end(row_server: ChatServer,
                                                                         chair_centres: dict[str, Any]) -> None:
    server = row_server()
    front, _ = answered_about(server, "what colour is the chair on the left?", FRONT)
    behind, _ = answered_about(server, "what colour is the chair on the left?", BEHIND)
    assert {front[0], behind[0]} == {left_to_right(FRONT, chair_centres)[0], left_to_right(FRONT, chair_centres)[-1]}
    assert front != behind


def test_seen_end_on_no_chair_is_leftmost_on_the_screen_and_it_asks_among_them(row_server: ChatServer,
                                                                            chair_centres: dict[str, Any]) -> None:
    """From the row's end the chairs are drawn one behind the other: 'on the left' tells none apart."""
    drawn = across_screen(END_ON_WEST, chair_centres)
    assert max(drawn.values()) - min(drawn.values()) < CLEAR
    server = row_server()
    assert sorted(asked_among(server, "what colour is the chair on the left?", END_ON_WEST)) == ROW_CHAIRS
    # 'in front' still tells them apart from there: the nearest
    codes, answer = answered_about(server, "what colour is the chair in front?", END_ON_WEST)
    nearest = min(chair_centres, key=lambda c: math.dist(chair_centres[c], END_ON_WEST["position"]))
    assert codes == [nearest], answer


def test_a_row_receding_along_the_screen_s_left_its_nearest_chair_is_the_one_on_the_left(
        row_server: ChatServer, row_path: Path, chair_centres: dict[str, Any]) -> None:
    corners = {f"{code} {i}": [(box["min"], box["max"])[(i >> a) & 1][a] for a in range(3)]
               for code, box in row_boxes(row_path).items() for i in range(8)}
    drawn = on_screen(WEST_END_LOOKING_PAST, corners).values()
    assert all(abs(x) < HALF_VIEW[0] and abs(y) < HALF_VIEW[1] for x, y in drawn), "every chair wholly in view"
    expected = screen_pick(WEST_END_LOOKING_PAST, chair_centres, "the chair on the left")
    codes, answer = answered_about(row_server(), "what colour is the chair on the left?", WEST_END_LOOKING_PAST)
    assert codes == [expected], answer


def ends_of_the_row(centres: dict[str, tuple[float, float, float]]) -> set[str]:
    """The two chairs at the ends of the row (the farthest apart)."""
    pairs = [(a, b) for a in centres for b in centres if a < b]
    far = max(pairs, key=lambda p: math.dist(centres[p[0]], centres[p[1]]))
    return set(far)


def cli_pick(row_path: Path, tmp_path: Path, message: str) -> list[str]:
    """`scene-agent ask MESSAGE --json` (no camera: the CLI has none), nobody picking: the candidates it asked among."""
    env = {"SCENE_AGENT_STATE_DIR": str(tmp_path / "cli-state"), "SCENE_AGENT_SELECTION_DIR": str(tmp_path / "cli-sel"),
           "SCENE_AGENT_VIEWER_URL": "http://127.0.0.1:9/", "OPENAI_API_KEY": ""}
    done = run_cli("ask", message, "--scene", str(row_path), "--json", "--timeout", "1", env=env)
    events = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert events and events[-1]["type"] == "final" and events[-1]["status"] == "timeout", done.stdout + done.stderr
    assert not any(e["type"] == "final" and e["status"] == "answered" for e in events)
    return list(next(e for e in events if e["type"] == "selection_required")["candidates"])


def test_without_a_camera_it_asks_and_never_answers(row_server: ChatServer, row_path: Path, tmp_path: Path) -> None:
    """Whatever it asks among (see the next test), it asks: left with no view is never guessed."""
    over_http = asked_among(row_server(), "what colour is the chair on the left?", None)
    assert len(over_http) > 1 and set(over_http) <= set(ROW_CHAIRS)
    assert cli_pick(row_path, tmp_path, "what colour is the chair on the left?") == over_http


@pytest.mark.parametrize("how", ["http", "cli"])
def test_without_a_camera_it_asks_among_the_chairs_at_the_ends(row_server: ChatServer, row_path: Path, tmp_path: Path,
                                                             chair_centres: dict[str, Any], how: str) -> None:
    message = "what colour is the chair on the left?"
    asked = asked_among(row_server(), message, None) if how == "http" else cli_pick(row_path, tmp_path, message)
    assert set(asked) == ends_of_the_row(chair_centres)
