"""What `ask` (one query) and `chat` (a conversation) run: the agent from the terminal, tool-call cards on stderr,
answers on stdout. The commands' options are in ask_cmds.py.

Ctrl-C while the agent waits for a pick stops the run through its RunControl: the agent cancels the
selection session and the run ends with a `cancelled` final (exit status 1). Anywhere else Ctrl-C
stops at once: `ask` exits with 130, `chat` drops the turn and prompts again (at the prompt it ends the chat).
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import TypedDict

import typer
from rich.table import Table
from rich.text import Text

from scene_agent.agent.control import RunControl
from scene_agent.agent.events import (
    AgentEvent,
    Final,
    SelectionCancelled,
    SelectionReceived,
    SelectionRequired,
    SelectionTimeout,
    ToolCallResult,
    event_json,
)
from scene_agent.agent.scene_agent import SceneAgent
from scene_agent.cli.cards import CardRenderer
from scene_agent.cli.messages import t
from scene_agent.cli.output import console, err_console, print_json
from scene_agent.cli.pick_words import WordsWhilePicking
from scene_agent.cli.question_dialog import terminal_questions
from scene_agent.cli.viewer_check import server_warning, serving
from scene_agent.config import Settings, load_settings
from scene_agent.demo.place import open_scene_or_demo
from scene_agent.errors import UsageError
from scene_agent.language.words import detect_language
from scene_agent.scene.loader import Scene
from scene_agent.tools.visualize import VisOutput

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it

PROMPT = "you> "

class _Waits(TypedDict, total=False):
    """--timeout as SceneAgent's keyword arguments; left out, the agent keeps its own defaults."""

    selection_timeout: float
    question_timeout: float


def _new_agent(scene: Scene, settings: Settings, timeout: float | None, no_questions: bool) -> SceneAgent:
    waits: _Waits = {} if timeout is None else {"selection_timeout": timeout, "question_timeout": timeout}
    # No terminal on stdin → no question channel: the agent is told `no_ui` and decides without asking.
    channel = None if no_questions else terminal_questions()
    return SceneAgent(scene, settings, questions=channel, ask_questions=False if no_questions else None, **waits)


class ViewerCheck:
    """Warns once, at the first viewer link a run produces, when no server (for this scene) answers there."""

    def __init__(self, settings: Settings, scene: Scene):
        self.settings = settings
        self.scene = scene
        self.done = False

    def warning_for(self, event: AgentEvent) -> str | None:
        """The warning to show now, or None (no link in this event, already checked, or the server is fine)."""
        if self.done:
            return None
        match event:
            case SelectionRequired(viewer_url=url) | Final(viewer_url=url) | ToolCallResult(result=VisOutput(viewer_url=url)):
                pass
            case _:
                url = None
        if not url:
            return None
        self.done = True
        return server_warning(self.settings, self.scene)


class JsonEvents:
    """--json: each event as one line of JSON on stdout, from whichever thread emits it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._closed = False

    def render(self, event: AgentEvent) -> None:
        """Write one event (dropped once closed)."""
        with self._lock:
            if not self._closed:
                sys.stdout.write(event_json(event) + "\n")
                sys.stdout.flush()

    def note(self, text: str, style: str = "yellow") -> None:
        """Warnings go to stderr: stdout holds events only."""
        err_console.print(Text(text, style=style))

    def close(self) -> None:
        """No more events."""
        with self._lock:
            self._closed = True


class CtrlC:
    """Where Ctrl-C goes during a turn: while a selection waits, to the run's stop switch; otherwise KeyboardInterrupt.

    The switch cancels the session however far the agent has got between announcing it and waiting on it, and
    is flipped from a thread of its own: a signal handler must not take locks the interrupted code may hold.
    """

    def __init__(self, control: RunControl):
        self.control = control
        self.waiting: set[str] = set()

    def see(self, event: AgentEvent) -> None:
        """Track the selections in progress (called before the event is shown, so a Ctrl-C after seeing it counts)."""
        match event:
            case SelectionRequired(session_id=session):
                self.waiting.add(session)
            case SelectionReceived(session_id=session) | SelectionTimeout(session_id=session) | SelectionCancelled(session_id=session):
                self.waiting.discard(session)

    def __call__(self, signum: int, frame: object) -> None:
        if not self.waiting:
            raise KeyboardInterrupt
        threading.Thread(target=self.control.stop, args=("interrupted (Ctrl-C)",), daemon=True, name="ctrl-c").start()

    @contextmanager
    def installed(self) -> Iterator[None]:
        """This handler for SIGINT while the turn runs (only the main thread can install one)."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = signal.signal(signal.SIGINT, self)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, previous)


def run_turn(agent: SceneAgent, text: str, check: ViewerCheck, json_output: bool, words: bool = False) -> Final | None:
    """One query, its events shown as they come (in the question's language); None when Ctrl-C stopped it (outside a
    selection wait). With `words`, a line typed while the viewer waits for a pick answers the pick."""
    lang = detect_language(text) or agent.lang
    view: JsonEvents | CardRenderer = JsonEvents() if json_output else CardRenderer(
        err_console, console, scene=agent.scene, lang=lang, words_hint=words)
    reader = WordsWhilePicking(agent.scene, agent.channel, view.note, lang) if words else None
    control = RunControl()
    ctrl_c = CtrlC(control)

    def on_event(event: AgentEvent) -> None:
        ctrl_c.see(event)
        view.render(event)
        if reader is not None:
            reader.see(event)
        warning = check.warning_for(event)
        if warning:
            view.note(t("ask.warning", lang, text=warning))

    try:
        with ctrl_c.installed():
            return agent.query(text, on_event, control).final
    except KeyboardInterrupt:
        view.close()  # a tool still running in a worker thread may finish later: its events are dropped
        if json_output:  # the stream still ends with a final event
            print_json(Final(status="cancelled", answer=t("ask.interrupted", lang)))
        return None
    finally:
        if reader is not None:
            reader.close()
        view.close()


def ask(query: str, timeout: float | None, no_questions: bool, scene: Path | None, json_output: bool) -> None:
    """`ask`: one question; exit 1 when it was not answered, 130 when Ctrl-C stopped it."""
    if not query.strip():
        raise UsageError(t("ask.empty"))
    try:
        settings = load_settings()
        agent = _new_agent(open_scene_or_demo(scene), settings, timeout, no_questions)
        final = run_turn(agent, query, ViewerCheck(settings, agent.scene), json_output, words=_stdin_is_terminal())
    except KeyboardInterrupt:
        final = None
    if final is None:
        err_console.print(t("ask.interrupted"))
        raise typer.Exit(EXIT_INTERRUPTED)
    if final.status != "answered":
        raise typer.Exit(1)


def _stdin_is_terminal() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (AttributeError, OSError, ValueError):
        return False


def _read_line(interactive: bool) -> str | None:
    """The next line typed (or piped) after the prompt; None at the end of input."""
    sys.stderr.write(PROMPT)
    sys.stderr.flush()
    if interactive:
        try:
            return input()
        except EOFError:
            sys.stderr.write("\n")
            return None
    line = sys.stdin.readline()
    if not line:
        sys.stderr.write("\n")
        return None
    sys.stderr.write(line if line.endswith("\n") else line + "\n")  # echo piped input, so the transcript reads
    return line


def _show_questions(agent: SceneAgent, json_output: bool) -> None:
    records = agent.records.list()
    if json_output:
        for record in records:
            print_json(record)
        return
    if not records:
        console.print(t("chat.no_questions"))
        return
    table = Table(title=t("chat.questions_title"), show_lines=False)
    for column in t("chat.questions_columns").split("|"):
        table.add_column(column, overflow="fold")
    for r in records:
        answer = ", ".join(r.answer) if isinstance(r.answer, list) else (r.answer or "")
        table.add_row(str(r.number), str(r.turn), r.type, r.status, r.content, answer)
    console.print(table)


def _show_history(agent: SceneAgent, json_output: bool) -> None:
    if json_output:
        for i, x in enumerate(agent.history, 1):
            print_json({"turn": i, "query": x.query, "status": x.status, "answer": x.answer, "codes": list(x.codes)})
        return
    if not agent.history:
        console.print(t("chat.no_history"))
    for i, exchange in enumerate(agent.history, 1):
        console.print(Text(f"{i}. [{exchange.status}] {exchange.summary()}"))


def _chat_command(agent: SceneAgent, line: str, json_output: bool) -> bool:
    """Run a /command; False when the chat should end."""
    command = line.split()[0].lower()
    if command in ("/quit", "/exit", "/q"):
        return False
    if command == "/questions":
        _show_questions(agent, json_output)
    elif command == "/history":
        _show_history(agent, json_output)
    elif command == "/help":
        err_console.print(Text(t("chat.help")))
    else:
        err_console.print(Text(t("chat.unknown_command", command=command), style="yellow"))
    return True


def chat(timeout: float | None, no_questions: bool, scene: Path | None, json_output: bool, serve: bool) -> None:
    """`chat`: turn after turn until /quit, the end of input or Ctrl-C at the prompt."""
    try:
        settings = load_settings()
        loaded = open_scene_or_demo(scene)
        with serving(settings, loaded) if serve else nullcontext(None) as served:
            if served:
                err_console.print(Text(served.line, style="bold"))
                settings = served.settings  # links to the server started here, unless SCENE_AGENT_VIEWER_URL is set
            agent = _new_agent(loaded, settings, timeout, no_questions)
            check = ViewerCheck(settings, agent.scene)
            err_console.print(Text(t("chat.hello", scene=agent.scene.scene_id), style="dim"))
            _chat_loop(agent, check, json_output)
    except KeyboardInterrupt:  # at the prompt, or between turns: the chat ends
        sys.stderr.write("\n")
    err_console.print(Text(t("chat.bye"), style="dim"))


def _chat_loop(agent: SceneAgent, check: ViewerCheck, json_output: bool) -> None:
    interactive = sys.stdin.isatty()
    while (line := _read_line(interactive)) is not None:
        text = line.strip()
        if not text:
            continue
        if text.startswith("/"):
            if not _chat_command(agent, text, json_output):
                return
            continue
        if run_turn(agent, text, check, json_output, words=interactive) is None:
            err_console.print(Text(t("chat.turn_stopped"), style="yellow"))
