"""`scene-agent ask` as a user runs it, on the demo scene with the offline planner: NDJSON events, human cards,
exit statuses, and picks answered through a real `scene-agent serve`."""

from __future__ import annotations

import json
import signal
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from cli_proc import CliProcess, Spawner, http, start_serve, submit
from cli_run import run_cli

BEDROOMS = ["1-2", "1-3", "1-4"]




@pytest.fixture
def served(spawn: Spawner, demo_path: Path, env: dict[str, str]) -> Iterator[str]:
    """A `scene-agent serve` of the demo scene; the env points the viewer at it. Yields its origin."""
    _, info = start_serve(spawn, demo_path)
    env["SCENE_AGENT_VIEWER_URL"] = info["url"]
    yield info["url"].rstrip("/")


def events_of(stdout: str) -> list[dict[str, Any]]:
    """Every stdout line as one JSON event (fails on any other line)."""
    return [json.loads(line) for line in stdout.splitlines()]


def read_until(process: CliProcess, event_type: str) -> list[dict[str, Any]]:
    """NDJSON events up to and including the first of `event_type`."""
    events = [process.json_line()]
    while events[-1]["type"] != event_type:
        events.append(process.json_line())
    return events


def finish_json(process: CliProcess) -> tuple[int, list[dict[str, Any]]]:
    """Exit status and the events not read yet."""
    status = process.finish()
    return status, [json.loads(line) for line in process.rest()]


def assert_well_formed(events: list[dict[str, Any]]) -> None:
    """Each tool call: one start then one result or error with the same id and tool; the final event last and only once."""
    assert [e["type"] for e in events].count("final") == 1 and events[-1]["type"] == "final"
    starts = {e["id"]: e for e in events if e["type"] == "tool_call_start"}
    ends = [e for e in events if e["type"] in ("tool_call_result", "tool_call_error")]
    assert sorted(e["id"] for e in ends) == sorted(starts)
    for end in ends:
        start = starts[end["id"]]
        assert events.index(start) < events.index(end)
        assert (end["tool_name"], end["args"]) == (start["tool_name"], start["args"])
        assert end["duration_ms"] >= 0
    assert all(e["ts"].endswith("Z") for e in events)


# --- answered at once ------------------------------------------------------------------------------


def test_json_events_for_the_sofa(env: dict[str, str]) -> None:
    out = run_cli("ask", "how big is the sofa?", "--json", env=env)
    assert out.returncode == 0, out.stderr
    events = events_of(out.stdout)
    assert_well_formed(events)
    tools = [e["tool_name"] for e in events if e["type"] == "tool_call_result"]
    assert tools == ["find", "volume"]
    volume = next(e for e in events if e["type"] == "tool_call_result" and e["tool_name"] == "volume")
    assert volume["args"] == {"code": "0-2-1"} and volume["result"]["volume_m3"] > 0
    final = events[-1]
    assert (final["status"], final["codes"]) == ("answered", ["0-2-1"])
    assert "m³" in final["answer"]
    assert "selection_required" not in {e["type"] for e in events}


def test_human_output_answer_on_stdout_cards_on_stderr(env: dict[str, str]) -> None:
    out = run_cli("ask", "how big is the sofa?", env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Sofa 0-2-1 is ") and "m³" in out.stdout
    assert "🔧" not in out.stdout and "✅" not in out.stdout
    lines = out.stderr.splitlines()
    assert "🔧 find query='the sofa' …" in lines
    assert "🔧 volume code='0-2-1' …" in lines
    assert any(line.startswith("✅ find (") and line.endswith("→ 1 candidate: 0-2-1") for line in lines)
    assert any(line.startswith("✅ volume (") and "→ 0-2-1: " in line and line.endswith(" m³") for line in lines)
    assert "Traceback" not in out.stderr


CHAIRS = ["0-3-2", "0-3-3", "0-3-4", "0-3-5"]


def test_parallel_calls_one_card_each(env: dict[str, str]) -> None:
    # "all the chairs" → one colour call per chair, run in parallel worker threads.
    query = "what colour are all the chairs in the kitchen?"
    out = run_cli("ask", query, "--json", env=env)
    assert out.returncode == 0, out.stderr
    events = events_of(out.stdout)
    assert_well_formed(events)
    colors = [e for e in events if e["type"] == "tool_call_result" and e["tool_name"] == "color"]
    assert sorted(e["args"]["code"] for e in colors) == CHAIRS
    assert events[-1]["codes"] == CHAIRS

    human = run_cli("ask", query, env=env)
    assert human.returncode == 0, human.stderr
    lines = human.stderr.splitlines()
    assert sorted(line for line in lines if line.startswith("🔧 color ")) == [f"🔧 color code='{c}' …" for c in CHAIRS]
    done = [line for line in lines if line.startswith("✅ color (")]
    assert sorted(line.split("→ ")[1].split()[1] for line in done) == CHAIRS
    assert all(code in human.stdout for code in CHAIRS)


@pytest.mark.parametrize("json_output", [True, False])
def test_nothing_found_exits_1(env: dict[str, str], json_output: bool) -> None:
    out = run_cli("ask", "what's the color of the piano?", *(["--json"] if json_output else []), env=env)
    assert out.returncode == 1, out.stderr
    if json_output:
        final = events_of(out.stdout)[-1]
        assert (final["type"], final["status"], final["codes"]) == ("final", "not_found", [])
        assert "piano" in final["answer"]
    else:
        assert "Nothing called 'piano'" in out.stdout
        assert "✅ find (" in out.stderr and "→ nothing found" in out.stderr


def test_show_a_room_returns_without_waiting(env: dict[str, str]) -> None:
    out = run_cli("ask", "show me room 0-3", "--json", env=env)
    assert out.returncode == 0, out.stderr
    events = events_of(out.stdout)
    assert_well_formed(events)
    types = {e["type"] for e in events}
    assert "selection_required" not in types and "selection_timeout" not in types
    final = events[-1]
    assert (final["status"], final["codes"]) == ("answered", ["0-3"])
    assert final["viewer_url"].startswith("http://127.0.0.1:9/?manifest=/manifests/view-")
    # Nobody serves the viewer URL: said once, on stderr (stdout holds events only).
    assert out.stderr.count("no scene-agent server answers at http://127.0.0.1:9") == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [(["   "], "the question is empty"), (["   ", "--json"], '"error": "bad_usage"'),
     (["sofa", "--timeout", "0"], "--timeout"), (["sofa", "--timeout", "99999"], "--timeout")],
)
def test_bad_usage_exits_2(env: dict[str, str], args: list[str], message: str) -> None:
    out = run_cli("ask", *args, env=env)
    assert out.returncode == 2
    assert message in out.stdout + out.stderr
    assert "Traceback" not in out.stdout + out.stderr


# --- a pick in the viewer, through a real server ---------------------------------------------------------


def test_pick_a_bedroom_then_the_answer_is_about_it(spawn: Spawner, served: str) -> None:
    process = spawn("ask", "what's the color of the bedroom?", "--json", "--timeout", "30")
    events = read_until(process, "selection_required")
    required = events[-1]
    assert required["candidates"] == BEDROOMS and required["multiple"] is False
    assert required["viewer_url"].startswith(served + "/?")
    sid = required["session_id"]
    assert parse_qs(urlsplit(required["viewer_url"]).query)["sessionId"] == [sid]
    assert any(e["type"] == "message" and "pick" in e["text"] for e in events)
    assert submit(served, sid, "1-3")[0] == 200
    status, rest = finish_json(process)
    events += rest
    assert status == 0, "".join(process.stderr)
    assert_well_formed(events)
    received = next(e for e in events if e["type"] == "selection_received")
    assert (received["session_id"], received["codes"]) == (sid, ["1-3"])
    assert received["tool_call_id"] == required["tool_call_id"]
    colors = [e for e in events if e["type"] == "tool_call_result" and e["tool_name"] == "color"]
    assert [c["args"] for c in colors] == [{"code": "1-3"}]
    final = events[-1]
    assert (final["status"], final["codes"]) == ("answered", ["1-3"])
    assert "1-3" in final["answer"]
    assert "no scene-agent server" not in "".join(process.stderr)


def test_human_pick_shows_the_link_and_a_countdown(spawn: Spawner, served: str) -> None:
    process = spawn("ask", "what's the color of the bedroom?", "--timeout", "30")
    line = process.wait_stderr("Please pick the bedroom you mean in the viewer: ")
    url = line.split("in the viewer: ", 1)[1].strip()
    assert url.startswith(served + "/?")
    process.wait_stderr(" s left — Ctrl-C cancels")
    assert submit(served, parse_qs(urlsplit(url).query)["sessionId"][0], "1-2")[0] == 200
    process.wait_stderr("👆 Picked 1-2")
    assert process.finish() == 0
    stdout = "".join(process.stdout)
    assert "1-2" in stdout and "Viewer: " + url in stdout
    assert "⏳" not in stdout and "Traceback" not in "".join(process.stderr)


def test_no_pick_times_out(spawn: Spawner, served: str) -> None:
    process = spawn("ask", "what's the color of the bedroom?", "--json", "--timeout", "1")
    sid = read_until(process, "selection_required")[-1]["session_id"]
    status, rest = finish_json(process)
    assert status == 1
    assert next(e["type"] for e in rest) == "selection_timeout"
    final = rest[-1]
    assert (final["type"], final["status"], final["codes"]) == ("final", "timeout", [])
    assert http("GET", f"{served}/api/sessions/{sid}")[1]["status"] == "expired"


def assert_closed_by_caller(origin: str, sid: str) -> None:
    """The session is over for good: a late pick is refused with 409."""
    assert http("GET", f"{origin}/api/sessions/{sid}")[1]["status"] == "cancelled"
    code, body = submit(origin, sid, "1-2")
    assert (code, body["error"]) == (409, "already_answered")


def test_ctrl_c_while_waiting_cancels_the_session(spawn: Spawner, served: str) -> None:
    process = spawn("ask", "what's the color of the bedroom?", "--json", "--timeout", "30")
    sid = read_until(process, "selection_required")[-1]["session_id"]
    process.proc.send_signal(signal.SIGINT)
    status, rest = finish_json(process)
    assert status == 1, "".join(process.stderr)
    cancelled = next(e for e in rest if e["type"] == "selection_cancelled")
    assert (cancelled["session_id"], cancelled["cancelled_by"]) == (sid, "caller")
    assert (rest[-1]["type"], rest[-1]["status"]) == ("final", "cancelled")
    assert "Traceback" not in "".join(process.stderr)
    assert_closed_by_caller(served, sid)


def test_ctrl_c_while_waiting_human(spawn: Spawner, served: str) -> None:
    process = spawn("ask", "what's the color of the bedroom?", "--timeout", "30")
    url = process.wait_stderr("Please pick the bedroom").split("in the viewer: ", 1)[1].strip()
    process.wait_stderr("Ctrl-C cancels")
    process.proc.send_signal(signal.SIGINT)
    process.wait_stderr("✖ Selection cancelled here")
    assert process.finish() == 1
    assert "Traceback" not in "".join(process.stderr)
    assert_closed_by_caller(served, parse_qs(urlsplit(url).query)["sessionId"][0])


# --- Ctrl-C anywhere else --------------------------------------------------------------------------------


@pytest.fixture
def stalled_viewer(env: dict[str, str]) -> Iterator[threading.Event]:
    """A viewer URL whose server accepts, then sends its answer one byte at a time, for as long as the test runs.

    `ask` checks the viewer once it has a link, so it is busy in that check (not waiting for a pick) until
    the test ends: a Ctrl-C sent then lands outside any selection wait. The event yielded is set once `ask`
    has connected.
    """
    listener = socket.create_server(("127.0.0.1", 0))
    done = threading.Event()
    connected = threading.Event()

    def trickle() -> None:
        conn, _ = listener.accept()
        connected.set()
        with conn:
            if done.is_set():
                return  # the wake-up connection of the teardown below
            conn.recv(65536)
            # A status line that never ends, one byte every 0.2 s: each byte restarts the client's 1 s read timeout.
            # (The wait paces the bytes; it does not wait for something to happen.)
            while not done.wait(0.2):
                try:
                    conn.sendall(b"H")
                except OSError:
                    return

    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    env["SCENE_AGENT_VIEWER_URL"] = f"http://127.0.0.1:{listener.getsockname()[1]}/"
    try:
        yield connected
    finally:
        done.set()
        if not connected.is_set():  # closing a listening socket does not wake accept(): connect once instead
            socket.create_connection(listener.getsockname(), timeout=5).close()
        thread.join(timeout=10)
        listener.close()


def test_ctrl_c_outside_a_wait_exits_130(spawn: Spawner, stalled_viewer: threading.Event) -> None:
    process = spawn("ask", "show me room 0-3", "--json")
    events = read_until(process, "tool_call_result")
    while events[-1].get("tool_name") != "visualize":
        events += read_until(process, "tool_call_result")
    assert stalled_viewer.wait(timeout=30), "ask never checked the viewer"
    process.proc.send_signal(signal.SIGINT)
    status, rest = finish_json(process)
    assert status == 130
    assert [(e["type"], e["status"]) for e in rest] == [("final", "cancelled")]
    stderr = "".join(process.stderr)
    assert "Interrupted (Ctrl-C)." in stderr and "Traceback" not in stderr


@pytest.mark.parametrize("question, first", [
    ("what colour is the trash can by itself?", "The trash can by itself is trash can 0-1-3 (lone)."),
    ("单独放着的垃圾桶是什么颜色？", "单独放着的垃圾桶是垃圾桶 0-1-3（lone）。"),
])
def test_the_one_by_itself_is_answered_and_said(env: dict[str, str], tmp_path: Path, question: str, first: str) -> None:
    from scene_bench.grounding.boxes import GroundBox, build_scene

    cans = [GroundBox(id=i, label="trash can", center=(x, y, 0.25), size=(0.3, 0.3, 0.5), rgb=(90, 90, 90))
            for i, (x, y) in enumerate([(1.0, 1.0), (1.4, 1.0), (4.5, 3.0)])]
    scene = build_scene("lone", cans, tmp_path / "lone")
    out = run_cli("ask", question, "--scene", str(scene), env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0] == first


@pytest.mark.parametrize("question, answer, code", [
    ("what's on the nightstand in the guest bedroom?", "On the nightstand: lamp 1-3-4 (Guest bedroom).", 0),
    ("what is next to the bed in the kids bedroom?",
     "Next to the bed: nightstand 1-4-2 (Kids bedroom), nightstand 1-4-3 (Kids bedroom), lamp 1-4-4 (Kids bedroom), "
     "rug 1-4-9 (Kids bedroom) and window 1-4-10 (Kids bedroom).", 0),
    ("客房床头柜上有什么？", "床头柜上有：台灯 1-3-4（Guest bedroom）。", 0),
    ("what is between the bed and the wardrobe in the guest bedroom?",
     "Between the bed and the wardrobe: plant 1-3-7 (Guest bedroom).", 0),
    ("客房的床和衣柜之间有什么？", "床和衣柜之间有：植物 1-3-7（Guest bedroom）。", 0),
    ("what's in the corner of the kitchen?", "In the corner: refrigerator 0-3-6 (Kitchen).", 0),
    ("厨房角落里有什么？", "角落里有：冰箱 0-3-6（Kitchen）。", 0),
    ("list everything on the desk", "On the desk: monitor 0-4-3 (Study) and lamp 0-4-4 (Study).", 0),
    ("床下面有东西吗？", "床下面有：地毯 1-2-8（Master bedroom）。", 0),  # under it, not the nightstands beside it
    ("what is on the coffee table?", "Nothing is on the coffee table (0-2-4).", 1),
    ("茶几上有什么东西？", "茶几（0-2-4）上没有东西。", 1),
])
def test_what_is_on_a_thing_is_listed(env: dict[str, str], question: str, answer: str, code: int) -> None:
    out = run_cli("ask", question, env=env)
    assert out.returncode == code, out.stderr
    assert out.stdout.strip() == answer
