"""The seed questions on a HOV-SG graph as HOV-SG writes it without its room classifier (every room "room_<n>"),
through the real server's web chat (offline planner): the bedroom and the bathroom are found by what they hold, and
the answer says that the type was inferred, and from what."""

from __future__ import annotations

from pathlib import Path

from chat_helpers import ask, events_until, start
from http_client import call
from scan_fixtures import HOVSG_UNTYPED_ROOMS, write_hovsg_graph
from sse_client import SSEStream

from api_server.app import create_app
from api_server.serve import BackgroundServer
from scene_agent.config import Settings
from scene_agent.importers import import_hovsg


def test_what_colour_is_the_bedroom_on_an_untyped_hovsg_graph(tmp_path: Path, settings: Settings, offline: None) -> None:
    scene = import_hovsg(write_hovsg_graph(tmp_path, HOVSG_UNTYPED_ROOMS), tmp_path / "scene")
    app = create_app({"SCENE_PATH": str(scene), "SETTINGS": settings, "VIEWER_DIST": str(tmp_path / "dist")})
    with BackgroundServer(app) as server:
        _, events = ask(server.url, "what's the colour of the bedroom?")
        final = events[-1]
        assert final["type"] == "final" and final["status"] == "answered", final
        assert "Room 0-0 (which I take for a bedroom: it has a bed and a nightstand) is " in final["answer"]
        _, events = ask(server.url, "卫生间是什么颜色的？")
        assert "房间 0-1（我判断为浴室：里面有马桶、水槽）" in events[-1]["answer"], events[-1]["answer"]


def test_the_kitchen_where_no_room_is_known_to_be_one_is_asked_among_the_untyped_rooms(
        tmp_path: Path, settings: Settings, offline: None) -> None:
    rooms = {**HOVSG_UNTYPED_ROOMS, "0_3": ("room_3", {"0_3_0": ("lamp", 30, (200, 200, 40))})}
    scene = import_hovsg(write_hovsg_graph(tmp_path, rooms), tmp_path / "scene")
    app = create_app({"SCENE_PATH": str(scene), "SETTINGS": settings, "VIEWER_DIST": str(tmp_path / "dist")})
    with BackgroundServer(app) as server:
        _, events = ask(server.url, "how big is the bedroom?")
        assert events[-1]["status"] == "answered", events[-1]
        assert "Room 0-0 (which I take for a bedroom: it has a bed and a nightstand) is " in events[-1]["answer"]
        started = start(server.url, "what's the colour of the kitchen?")
        with SSEStream(f"{server.url}/api/runs/{started['run_id']}/events") as stream:
            _, required = events_until(stream, "selection_required")
            assert required["candidates"] == ["0-2", "0-3"]  # the rooms whose type nothing told, never the bedroom
            reply = call("POST", f"{server.url}/api/submit-selection",
                         {"session_id": required["session_id"], "selections": [{"itemCode": "0-3"}]})
            assert reply.status == 200, reply.body
            final = [e.json() for e in stream if e.name == "message"][-1]
        assert final["status"] == "answered" and final["codes"] == ["0-3"]
        assert "No room here is known to be a kitchen" in final["answer"], final["answer"]
