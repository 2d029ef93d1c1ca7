"""Tool-call cards for people: an agent run's events, rendered one at a time on the terminal.

One card per tool call, keyed by its id: "🔧 find query='chair' …" while it runs, then "✅ find (12 ms)
→ 5 candidates: …", "❌ color: <message>" or "⏰ visualize: timed out". While the agent waits for a
pick in the viewer a countdown line runs. On a terminal the running cards and the countdown live in a
rich Live region on stderr; otherwise every change is one plain line, so logs and tests can read it.
The answer itself goes to stdout.
"""

from __future__ import annotations

import math
import re
import textwrap
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import inflection
from rich.console import Console, Group
from rich.live import Live
from rich.text import Text

from scene_agent.agent.events import (
    AgentEvent,
    Final,
    Message,
    Question,
    QuestionAnswered,
    SelectionCancelled,
    SelectionExtended,
    SelectionReceived,
    SelectionRequired,
    SelectionTimeout,
    ToolCallError,
    ToolCallResult,
    ToolCallStart,
)
from scene_agent.cli.messages import language, t
from scene_agent.errors import SceneAgentError
from scene_agent.language.say import label_name, room_type_name
from scene_agent.language.words import Lang
from scene_agent.scene.index import IndexedRoom
from scene_agent.scene.loader import Scene

PLAIN_COUNTDOWN_EVERY_S = 10  # without a terminal, a countdown line every 10 s instead of one redrawn every second

# --- what a card says ---------------------------------------------------------------------------


def format_duration(ms: float) -> str:
    """'12 ms' under a second, '1.3 s' above."""
    return f"{ms:.0f} ms" if ms < 1000 else f"{ms / 1000:.1f} s"


def _short(value: Any, limit: int = 40) -> str:
    text = repr(value) if isinstance(value, str) else str(value)
    if isinstance(value, list) and len(value) > 6:
        text = f"[{', '.join(map(str, value[:5]))}, … {len(value)} in all]"
    elif isinstance(value, (list, dict)) and len(text) > limit:
        text = f"[{len(value)} items]" if isinstance(value, list) else "{…}"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def format_args(args: dict[str, Any] | str) -> str:
    """"query='chair' multiple=True" — the arguments in one short line (a string when they were not JSON)."""
    if isinstance(args, str):
        return _short(args, 80)
    return " ".join(f"{key}={_short(value)}" for key, value in args.items() if value is not None)


_ICONS = {"done": ("✅", "green"), "timeout": ("⏰", "yellow"), "nothing": ("✖", "dim")}


def pick_noun(candidates: list[str], multiple: bool, scene: Scene | None, lang: Lang | None = None) -> str:
    """'bedroom' / 'chairs' / 'one': what the user is asked to pick, in words (chairs and office chairs are chairs)."""
    labels: set[str] = set()
    heads: set[str] = set()
    rooms = False
    for code in candidates:
        try:
            entry = scene.item(code) if scene is not None else None
        except SceneAgentError:  # a label is a nicety: an unknown code just gets the generic noun
            entry = None
        if entry is None:
            labels.add("")
        elif isinstance(entry, IndexedRoom):
            labels.add(entry.type)
            rooms = True
        else:
            labels.add(entry.label)
            heads.add(entry.head)
    if "" in labels or (len(labels) != 1 and (rooms or len(heads) != 1)):
        return t("card.pick_ones" if multiple else "card.pick_one", lang)
    noun = labels.pop() if len(labels) == 1 else heads.pop()
    noun = room_type_name(noun, lang or "en") if rooms else label_name(noun, lang or "en")
    return inflection.pluralize(noun) if multiple and lang != "zh" else noun


_LINK = re.compile(r"!?\[([^\]]*)\]\(([^)\s]+)\)")
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_EMPH = re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])")


def plain_text(markdown: str) -> str:
    """The answer without markdown syntax (a model may write some): links as 'text (url)', no **, `, # or fences."""
    lines = []
    for line in markdown.strip().splitlines():
        if line.strip().startswith("```"):
            continue
        line = re.sub(r"^\s{0,3}#{1,6}\s+", "", line)
        line = re.sub(r"^(\s*)[*+]\s+", r"\1• ", line)
        line = re.sub(r"^(\s*)-\s+", r"\1• ", line)
        line = _LINK.sub(lambda m: m.group(2) if m.group(1) in ("", m.group(2)) else f"{m.group(1)} ({m.group(2)})", line)
        line = _STRONG.sub(r"\2", line)
        line = _EMPH.sub(r"\1", line)
        lines.append(line.replace("`", ""))
    return "\n".join(lines)


def wrap(text: str, width: int) -> str:
    """Each line wrapped to `width`, bullets hanging; URLs and codes are never split."""
    out = []
    for line in text.splitlines():
        bullet = re.match(r"^(\s*(?:• |\d+[.)] )?)", line)
        indent = " " * len(bullet.group(1)) if bullet else ""
        out.append(textwrap.fill(line, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)
                   if line.strip() else "")
    return "\n".join(out)


# --- the renderer -------------------------------------------------------------------------------


@dataclass
class _Card:
    tool_name: str
    args: dict[str, Any] | str
    started: float


@dataclass
class _Countdown:
    deadline: float  # time.monotonic()
    next_mark: int  # plain mode: print the next line when this many seconds are left


def _seconds_until(iso: str, fallback: float) -> float:
    try:
        return (datetime.fromisoformat(iso.replace("Z", "+00:00")) - datetime.now().astimezone()).total_seconds()
    except ValueError:
        return fallback


class CardRenderer:
    """Renders one run's events as they arrive (`render(event)`), from any thread; `close()` when the run is over."""

    def __init__(self, err: Console, out: Console, *, scene: Scene | None = None, live: bool | None = None,
                 lang: Lang | None = None, words_hint: bool = False):
        self.err = err
        self.out = out
        self.scene = scene
        self.lang = lang  # the turn's language (the question's); None: the CLI's
        self.words_hint = words_hint  # a pick may also be typed here
        self.live_mode = err.is_terminal if live is None else live
        self.cards: dict[str, _Card] = {}
        self.countdown: _Countdown | None = None
        self._lock = threading.RLock()
        self._live: Live | None = None
        self._paused = False  # a question dialog owns the terminal
        self._closed = False
        self._ticker: threading.Thread | None = None
        self._stop_ticker = threading.Event()

    # public

    def render(self, event: AgentEvent) -> None:
        """Show one event; events after `close()` (a worker finishing after Ctrl-C) are dropped."""
        with self._lock:
            if self._closed:
                return
            # one handler per event type, `_on_<type>`; a tool call's result card is any tool's (its summary)
            handler = getattr(self, "_on_" + event.type, None)
            if handler is not None:
                handler(event)
            self._refresh()

    def note(self, text: str, style: str = "yellow") -> None:
        """A warning or remark on stderr, between the cards."""
        with self._lock:
            if not self._closed:
                self.err.print(Text(text, style=style))

    def close(self) -> None:
        """Stop the live region and the countdown; nothing is rendered afterwards."""
        with self._lock:
            self._closed = True
            self._stop_live()
        self._stop_ticker.set()

    # events

    def _on_tool_call_start(self, event: ToolCallStart) -> None:
        self.cards[event.id] = _Card(event.tool_name, event.args, time.monotonic())
        if not self.live_mode:
            self.err.print(Text(f"🔧 {self._title(event.tool_name, event.args)} …"))

    def _on_tool_call_result(self, event: ToolCallResult) -> None:
        self.cards.pop(event.id, None)
        icon, style = _ICONS[event.summary.tone]
        text = event.summary.text(self.lang or language())
        line = Text(f"{icon} ", style=style)
        line.append(event.tool_name, style="bold")
        line.append(f" ({format_duration(event.duration_ms)})", style="dim")
        line.append(f" → {text}")
        self.err.print(line)

    def _on_tool_call_error(self, event: ToolCallError) -> None:
        self.cards.pop(event.id, None)
        icon, style, text = {"timeout": ("⏰", "yellow", t("card.call_timeout", self.lang)),
                             "cancelled": ("✖", "dim", t("card.call_cancelled", self.lang))}.get(
            event.status, ("❌", "red", event.error.message))
        if event.status != "failed" and event.error.message:
            text = f"{text} ({event.error.message})"
        line = Text(f"{icon} ", style=style)
        line.append(event.tool_name, style="bold")
        line.append(f": {text}")
        self.err.print(line)

    def _on_selection_required(self, event: SelectionRequired) -> None:
        noun = pick_noun(event.candidates, event.multiple, self.scene, self.lang)
        self.err.print(Text("👉 " + t("card.pick_request", self.lang, noun=noun, url=event.viewer_url), style="bold"))
        if event.channel:
            self.err.print(Text(t("card.pick_channel", self.lang, channel=event.channel), style="dim"))
        if self.words_hint:
            self.err.print(Text("   " + t("card.pick_words_hint", self.lang, example=event.candidates[0]), style="dim"))
        left = _seconds_until(event.expires_at, event.timeout)
        self.countdown = _Countdown(time.monotonic() + left, math.ceil(left))
        self._tick_countdown()
        self._start_ticker()

    def _on_selection_extended(self, event: SelectionExtended) -> None:
        left = _seconds_until(event.expires_at, event.timeout)
        self.err.print(Text(t("card.pick_extended", self.lang, left=math.ceil(left)), style="dim"))
        if self.countdown is not None:
            self.countdown = _Countdown(time.monotonic() + left, math.ceil(left))

    def _on_selection_received(self, event: SelectionReceived) -> None:
        self.countdown = None
        picks = ", ".join(f"{p.itemCode} ({p.label})" for p in event.selections) or ", ".join(event.codes)
        key = "card.pick_received_words" if event.words else "card.pick_received"
        self.err.print(Text(t(key, self.lang, picks=picks, words=event.words or ""), style="green"))

    def _on_selection_timeout(self, event: SelectionTimeout) -> None:
        self.countdown = None
        self.err.print(Text(t("card.pick_timeout", self.lang, timeout=f"{event.timeout:g}"), style="yellow"))

    def _on_selection_cancelled(self, event: SelectionCancelled) -> None:
        self.countdown = None
        reason = f": {event.reason}" if event.reason else ""
        self.err.print(Text(t(f"card.pick_cancelled_{event.cancelled_by}", self.lang, reason=reason), style="yellow"))

    def _on_question(self, event: Question) -> None:
        # The question dialog draws itself on the terminal; the live region steps aside until it is answered.
        self._paused = True
        self._stop_live()

    def _on_question_answered(self, event: QuestionAnswered) -> None:
        self._paused = False

    def _on_message(self, event: Message) -> None:
        self.err.print(Text(plain_text(event.text)))

    def _on_final(self, event: Final) -> None:
        self.countdown = None
        self._stop_live()
        self._closed = True
        self._stop_ticker.set()
        answer = plain_text(event.answer)
        if self.out.is_terminal:  # a pipe gets whole lines: whoever reads them wraps
            answer = wrap(answer, max(20, self.out.width - 1))
        if event.viewer_url and event.viewer_url not in event.answer:
            answer += "\n" + t("card.final_viewer", self.lang, url=event.viewer_url)  # never wrapped: the link stays clickable
        self.out.print(Text(answer), soft_wrap=True)

    # drawing

    def _title(self, tool_name: str, args: dict[str, Any] | str) -> str:
        shown = format_args(args)
        return f"{tool_name} {shown}" if shown else tool_name

    def _view(self) -> Group:
        now = time.monotonic()
        lines = []
        for card in list(self.cards.values()):
            elapsed = now - card.started
            line = Text(f"🔧 {self._title(card.tool_name, card.args)} …")
            if elapsed >= 1:
                line.append(f" {elapsed:.0f} s", style="dim")
            lines.append(line)
        if self.countdown is not None:
            lines.append(Text(self._countdown_text(), style="cyan"))
        return Group(*lines)

    def _countdown_text(self) -> str:
        assert self.countdown is not None
        left = max(0, math.ceil(self.countdown.deadline - time.monotonic()))
        return t("card.pick_left", self.lang, left=left)

    def _refresh(self) -> None:
        if not self.live_mode or self._paused or self._closed:
            return
        if self._live is None:
            if not self.cards and self.countdown is None:
                return
            self._live = Live(console=self.err, get_renderable=self._view, auto_refresh=False, transient=True,
                              redirect_stdout=False, redirect_stderr=False)
            self._live.start()
            self._start_ticker()
        self._live.refresh()

    def _stop_live(self) -> None:
        if self._live is not None:
            live, self._live = self._live, None
            live.stop()

    def _tick_countdown(self) -> None:
        """Plain mode: a countdown line at the start and every PLAIN_COUNTDOWN_EVERY_S seconds."""
        if self.live_mode or self.countdown is None:
            return
        left = math.ceil(self.countdown.deadline - time.monotonic())
        if left <= self.countdown.next_mark and left > 0:
            self.err.print(Text(self._countdown_text()))
            self.countdown.next_mark = (left - 1) // PLAIN_COUNTDOWN_EVERY_S * PLAIN_COUNTDOWN_EVERY_S

    def _start_ticker(self) -> None:
        if self._ticker is None:
            self._ticker = threading.Thread(target=self._tick_loop, daemon=True, name="cards-ticker")
            self._ticker.start()

    def _tick_loop(self) -> None:
        while not self._stop_ticker.wait(1.0):
            with self._lock:
                if self._closed:
                    return
                self._tick_countdown()
                self._refresh()
