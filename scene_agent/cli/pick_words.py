"""Typing which one while the viewer waits: in `chat` (and `ask` on a terminal) a line typed during a pick answers it.

A reader thread starts when the agent asks for a pick and stops when the pick ends. It reads the
terminal (or pipe) a byte at a time, so whatever is typed after the pick ended stays there for the
chat's prompt. Each line goes to `answer_in_words`, which records it as the user's answer; the
waiting agent then wakes as it would for a Confirm in the viewer. Words that fit nothing are
explained, and the pick goes on waiting.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable

from scene_agent.agent.events import AgentEvent, SelectionCancelled, SelectionReceived, SelectionRequired, SelectionTimeout
from scene_agent.agent.pick_in_words import answer_in_words
from scene_agent.cli.question_dialog import End, LineReader
from scene_agent.errors import SceneAgentError
from scene_agent.language.words import Lang
from scene_agent.scene.loader import Scene
from scene_agent.selection.channel import SelectionChannel

Say = Callable[[str, str], None]  # (text, style)
LONG_WAIT_S = 24 * 3600.0


class WordsWhilePicking:
    """Watches a run's events; while a pick is pending, lines read from stdin answer it."""

    def __init__(self, scene: Scene, channel: SelectionChannel, say: Say, lang: Lang, fd: int | None = None):
        self.scene = scene
        self.channel = channel
        self.say = say
        self.lang = lang
        self.fd = sys.stdin.fileno() if fd is None else fd
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._session: str | None = None

    def see(self, event: AgentEvent) -> None:
        """Start reading when a pick is asked for; stop when it ends."""
        match event:
            case SelectionRequired(session_id=session) if self._thread is None:
                self._session = session
                self._stop.clear()
                self._thread = threading.Thread(target=self._read, daemon=True, name="pick-words")
                self._thread.start()
            case SelectionReceived(session_id=session) | SelectionTimeout(session_id=session) | SelectionCancelled(
                    session_id=session) if session == self._session:
                self.close()

    def close(self) -> None:
        """Stop reading (at the latest when the turn ends)."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)

    def _read(self) -> None:
        reader = LineReader(self.fd)
        while not self._stop.is_set():
            line = reader.readline(time.monotonic() + LONG_WAIT_S, self._stop)
            if isinstance(line, End):
                return
            if line.strip() and self._session is not None:
                self._answer(line.strip())

    def _answer(self, text: str) -> None:
        try:
            answer = answer_in_words(self.scene, self.channel, self._session or "", text, self.lang)
        except SceneAgentError as exc:
            self.say(exc.message, "yellow")
            return
        self.say(answer.message, "green")
        self._stop.set()
