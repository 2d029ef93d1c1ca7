"""`scene-agent serve` serves the page itself, so the links in its answers point at it: at the host and port it
listens on (a port the test picks, or one the OS picks with --port 0), unless SCENE_AGENT_VIEWER_URL says where the
page is (a proxy in front of it), which is kept."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from cli_proc import Spawner, http
from sse_client import read_run

from api_server.serve import served_url
from scene_agent.config import Settings

NOT_SET = {"SCENE_AGENT_VIEWER_URL": ""}  # unset for the process (empty counts as unset)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def show_room(origin: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Ask the server's web chat "show me room 0-2": its final event, and every event of the run."""
    status, started = http("POST", f"{origin}/api/chat", {"message": "show me room 0-2", "lang": "en"})
    assert status == 202, started
    events, ended = read_run(f"{origin}{started['events_url']}")
    assert ended
    parsed = [e.json() for e in events]
    assert parsed[-1]["type"] == "final" and parsed[-1]["status"] == "answered", parsed[-1]
    return parsed[-1], parsed


def links_of(events: list[dict[str, Any]]) -> list[str]:
    """Every viewer URL the run reported: the visualize call's and the final's."""
    results = [e["result"]["viewer_url"] for e in events if e["type"] == "tool_call_result" and e["tool_name"] == "visualize"]
    return [*results, *(e["viewer_url"] for e in events if e["type"] == "final")]


@pytest.mark.parametrize("port", ["picked", "0"])
def test_answers_link_to_the_port_serve_listens_on(port: str, small_scene_path: Path, spawn: Spawner) -> None:
    chosen = str(free_port()) if port == "picked" else "0"
    process = spawn("serve", "--port", chosen, "--json", "--scene", str(small_scene_path), env=NOT_SET)
    info = process.json_line()
    if port == "picked":
        assert info["port"] == int(chosen)
    origin = f"http://127.0.0.1:{info['port']}"
    assert info["viewer_url"] == origin + "/"
    final, events = show_room(origin)
    links = links_of(events)
    assert len(links) == 2 and all(link.startswith(origin + "/?manifest=/manifests/view-") for link in links), links
    assert final["viewer_url"] in final["answer"]
    status, page = http("GET", final["viewer_url"])  # the link opens: the page, from this very server
    assert status == 200 and '<aside id="chat"' in page
    manifest = urlsplit(final["viewer_url"]).query.removeprefix("manifest=")
    status, view = http("GET", origin + manifest)
    assert status == 200 and "0-2" in view["focus"]


def test_a_viewer_url_set_explicitly_is_kept(small_scene_path: Path, spawn: Spawner) -> None:
    proxy = "http://scene.example.org:8443/viewer/"
    process = spawn("serve", "--port", "0", "--json", "--scene", str(small_scene_path), env={"SCENE_AGENT_VIEWER_URL": proxy})
    info = process.json_line()
    assert info["viewer_url"] == proxy
    final, events = show_room(info["url"].rstrip("/"))
    assert all(link.startswith(proxy + "?manifest=") for link in links_of(events)), links_of(events)
    assert final["viewer_url"] in final["answer"]


def test_the_served_address_a_browser_opens() -> None:
    assert served_url("127.0.0.1", 8123) == "http://127.0.0.1:8123/"
    assert served_url("0.0.0.0", 8123) == "http://localhost:8123/"  # listening everywhere: opened on this machine
    assert served_url("::", 8123) == "http://localhost:8123/"
    assert served_url("::1", 8123) == "http://[::1]:8123/"
    given = Settings(state_dir=Path("s"), selection_dir=Path("t"), viewer_url="http://proxy.example/")
    assert given.served_at("http://127.0.0.1:1/") is given
    default = Settings(state_dir=Path("s"), selection_dir=Path("t"), viewer_url="http://localhost:8090/", viewer_url_given=False)
    assert default.served_at("http://127.0.0.1:1/").viewer_url == "http://127.0.0.1:1/"
