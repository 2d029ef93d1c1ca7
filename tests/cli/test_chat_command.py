"""`scene-agent chat` as a user runs it: piped turns with history, /commands, a pick through a real server, Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from cli_proc import CliProcess, Spawner, http, start_serve, submit


@pytest.fixture
def chat(spawn: Spawner, env: dict[str, str]) -> Iterator[Callable[..., CliProcess]]:
    """Start `chat ARGS` processes with a pipe to their stdin, reaped by the spawner."""

    def start(*args: str) -> CliProcess:
        process = CliProcess("chat", *args, env=spawn.env, stdin=True)
        spawn.started.append(process)
        return process

    yield start


def run_chat(lines: list[str], env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """`chat ARGS` with LINES piped to stdin, to the end."""
    return subprocess.run([sys.executable, "-m", "scene_agent", "chat", *args], input="".join(f"{x}\n" for x in lines),
                          capture_output=True, text=True, timeout=120, env={**os.environ, **env})


def test_piped_turns_keep_history_and_list_what_was_asked(env: dict[str, str]) -> None:
    out = run_chat(["how big is the sofa?", "what colour is it?", "what's the color of the bedroom?", "/questions",
                    "/history", "/quit", "how big is the bed?"], env, "--timeout", "1")
    assert out.returncode == 0, out.stderr
    stdout, stderr = out.stdout, out.stderr
    # Turn 1 and its follow-up: "it" is the sofa of the turn before.
    assert "Sofa 0-2-1 is " in stdout and "m³" in stdout
    assert "Sofa 0-2-1 is " in stdout
    assert "🔧 color code='0-2-1' …" in stderr.splitlines()
    # Turn 3 asked for a pick nobody gave: the selection is listed as expired.
    assert "Nobody picked in the viewer in time" in stdout
    assert "Questions and selections" in stdout
    table = stdout[stdout.index("Questions and selections"):]
    row = next(line for line in table.splitlines() if "SELECTION" in line)
    assert [cell.strip() for cell in row.split("│")[1:5]] == ["1", "3", "SELECTION", "EXPIRED"]
    assert "Which bedroom do you mean:" in table
    # /history: the three turns in order.
    assert stdout.index("1. [answered] User: how big is the sofa?") < stdout.index("2. [answered] User: what colour is it?") \
        < stdout.index("3. [timeout] User: what's the color of the bedroom?")
    # The prompt on stderr, piped input echoed; nothing after /quit is run.
    assert "you> how big is the sofa?" in stderr and "you> /quit" in stderr
    assert "bed?" not in stderr and "Traceback" not in stderr
    assert "you>" not in stdout


def test_questions_before_anything_was_asked_and_unknown_commands(env: dict[str, str]) -> None:
    out = run_chat(["/questions", "/history", "/nope", "/help"], env)  # ends at EOF
    assert out.returncode == 0, out.stderr
    assert "Nothing has been asked yet." in out.stdout and "No turns yet." in out.stdout
    assert "Unknown command /nope" in out.stderr and "/questions  every question" in out.stderr
    assert out.stderr.rstrip().endswith("Bye.")


def test_pick_in_a_chat_then_a_follow_up(chat: Callable[..., CliProcess], spawn: Spawner, demo_path: Path, env: dict[str, str]) -> None:
    _, info = start_serve(spawn, demo_path)
    env["SCENE_AGENT_VIEWER_URL"] = info["url"]
    origin = info["url"].rstrip("/")
    process = chat("--timeout", "30")
    process.say("what's the color of the bedroom?")
    url = process.wait_stderr("Please pick the bedroom you mean in the viewer: ").split("in the viewer: ", 1)[1].strip()
    assert submit(origin, parse_qs(urlsplit(url).query)["sessionId"][0], "1-4")[0] == 200
    answer = [process.line()]
    while not answer[-1].startswith("Viewer: "):  # the answer, then the link that was opened
        answer.append(process.line())
    assert "Kids bedroom 1-4 is " in "".join(answer)
    process.say("how big is it?")
    answer = process.line()
    assert "1-4" in answer and "m³" in answer
    process.say("/questions")
    rows = []
    while not rows:
        line = process.line()
        rows = [line] if "SELECTION" in line else []
    cells = [cell.strip() for cell in rows[0].split("│")[1:7]]
    assert cells[:4] == ["1", "1", "SELECTION", "ANSWERED"] and cells[5] == "1-4"
    assert cells[4].startswith("Which bedroom")
    process.say("/quit")
    assert process.finish() == 0
    assert "Traceback" not in "".join(process.stderr)


def test_ctrl_c_during_a_pick_stops_the_turn_not_the_chat(chat: Callable[..., CliProcess]) -> None:
    process = chat("--timeout", "30")
    process.say("what's the color of the bedroom?")
    process.wait_stderr("Ctrl-C cancels")
    process.proc.send_signal(signal.SIGINT)
    process.wait_stderr("✖ Selection cancelled here")
    assert process.line().startswith("The selection was cancelled, so I did not answer.")
    process.say("/questions")
    while "SELECTION" not in (line := process.line()):
        pass
    assert "IGNORED" in line
    process.say("how big is the sofa?")
    while "Sofa 0-2-1" not in (line := process.line()):
        pass
    process.say("/quit")
    assert process.finish() == 0
    assert "Traceback" not in "".join(process.stderr)


def test_ctrl_c_at_the_prompt_ends_the_chat(chat: Callable[..., CliProcess]) -> None:
    process = chat()
    process.wait_stderr("/help lists the commands")
    process.proc.send_signal(signal.SIGINT)
    assert process.finish() == 0
    stderr = "".join(process.stderr)
    assert stderr.rstrip().endswith("Bye.") and "Traceback" not in stderr


def test_chat_serve_runs_the_viewer_server_for_the_length_of_the_chat(chat: Callable[..., CliProcess], env: dict[str, str]) -> None:
    import socket

    with socket.socket() as probe:  # a free loopback port for the viewer URL (what `make run` uses is 8090)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env["SCENE_AGENT_VIEWER_URL"] = f"http://127.0.0.1:{port}/"
    process = chat("--serve")
    process.wait_stderr(f"Serving scene 'demo' at http://127.0.0.1:{port}/")
    status, health = http("GET", f"http://127.0.0.1:{port}/api/health")
    assert status == 200 and health["scene_id"] == "demo"
    process.say("/quit")
    assert process.finish() == 0
    with pytest.raises(OSError):
        http("GET", f"http://127.0.0.1:{port}/api/health", timeout=2)



def test_on_a_terminal_a_pick_is_answered_in_words(spawn: Spawner, demo_path: Path) -> None:
    chat = CliProcess("chat", "--timeout", "60", env=spawn.env, terminal=True)
    spawn.started.append(chat)
    chat.say("what's the color of the chair?")
    chat.wait_stderr("👉 Please pick the chair you mean in the viewer")
    chat.wait_stderr("or type which one here")
    chat.say("the purple one")
    chat.wait_stderr("There is no purple chair; the chairs are red, blue, green, yellow and gray.")
    chat.say("the red one")
    chat.wait_stderr("Picked 0-3-2 from your words.")
    chat.wait_stderr("👆 Picked 0-3-2 (chair) (you said “the red one”)")
    assert chat.line() == "You picked chair 0-3-2 (Kitchen).\n" and "Chair 0-3-2 is red" in chat.line()
    chat.say("/questions")
    table = "".join(chat.line() for _ in range(6))
    assert "ANSWERED" in table and "0-3-2" in table
    chat.say("/quit")
    assert chat.finish() == 0


def test_a_chinese_question_gets_a_chinese_answer_whatever_the_setting(env: dict[str, str], demo_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "scene_agent", "ask", "沙发是什么颜色？"], capture_output=True, text=True,
                         timeout=120, env={**os.environ, **env, "SCENE_AGENT_LANG": "en"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("沙发 0-2-1") and "灰色" in out.stdout
    assert "1 个候选：0-2-1" in out.stderr  # the cards speak the question's language too
    english = subprocess.run([sys.executable, "-m", "scene_agent", "ask", "how big is the sofa?"], capture_output=True,
                             text=True, timeout=120, env={**os.environ, **env, "SCENE_AGENT_LANG": "zh"})
    assert english.returncode == 0 and english.stdout.startswith("Sofa 0-2-1 is ") and "1 candidate: 0-2-1" in english.stderr
