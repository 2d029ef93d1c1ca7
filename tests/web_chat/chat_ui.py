"""Driving the chat panel as a user does, through its stable test hooks (data-testid, body[data-chat-state])."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from browser_fixtures import BrowserPage, WebServer
from http_client import call
from playwright.sync_api import Locator, Page, expect


@dataclass(frozen=True)
class CardView:
    """What one tool-call card shows."""

    call_id: str
    tool: str
    status: str


class ChatUI:
    """The page at / of a running server, seen from its chat panel."""

    def __init__(self, browser_page: BrowserPage, server: WebServer):
        self.bp = browser_page
        self.page: Page = browser_page.page
        self.server = server

    def open(self, query: str = "") -> None:
        """Load the page and wait until the chat is ready for a question."""
        self.page.goto(f"{self.server.url}/{query}")
        expect(self.input).to_be_enabled()
        self.wait_state("idle")

    # --- elements -------------------------------------------------------------------------------

    def by_testid(self, testid: str) -> Locator:
        return self.page.get_by_test_id(testid)

    @property
    def input(self) -> Locator:
        return self.by_testid("chat-input")

    @property
    def cards(self) -> Locator:
        return self.by_testid("tool-card")

    @property
    def final(self) -> Locator:
        return self.by_testid("final-answer").last

    @property
    def notice(self) -> Locator:
        return self.by_testid("selection-notice").last

    @property
    def dialog(self) -> Locator:
        return self.by_testid("question-dialog")

    def card(self, call_id: str) -> Locator:
        return self.page.locator(f'[data-testid="tool-card"][data-call-id="{call_id}"]')

    # --- actions --------------------------------------------------------------------------------

    def ask(self, text: str) -> None:
        """Type a question and press Enter."""
        before = self.by_testid("user-message").count()
        self.input.fill(text)
        self.input.press("Enter")
        expect(self.by_testid("user-message")).to_have_count(before + 1)

    def answer_pick(self, words: str) -> Locator:
        """While the agent waits for a pick, type which one in words and send: the line the server's reply left
        (`pick-note` when the words answered the pick, `chat-error` when they were refused)."""
        replies = self.page.locator('[data-testid="pick-note"], [data-testid="chat-error"]')
        before = replies.count()
        self.ask(words)
        expect(replies).to_have_count(before + 1)
        return replies.last

    def wait_viewer_selection(self, session_id: str) -> None:
        """Wait until the viewer beside the chat shows the selection session, ready for a pick."""
        self.page.wait_for_function("id => window.sceneViewer && window.sceneViewer.mode === 'selection' && "
                                    "window.sceneViewer.sessionId === id && document.body.dataset.viewerState === 'ready'",
                                    arg=session_id)

    def chat_requests(self) -> list[dict[str, Any]]:
        """From now on, the bodies of the page's POST /api/chat requests (the list fills as they leave)."""
        bodies: list[dict[str, Any]] = []
        self.page.on("request", lambda r: bodies.append(json.loads(r.post_data or "{}"))
                     if r.method == "POST" and r.url.endswith("/api/chat") else None)
        return bodies

    def wait_state(self, state: str) -> None:
        """Wait until body[data-chat-state] is `state` (idle | running | waiting | error)."""
        self.page.wait_for_function("s => document.body.dataset.chatState === s", arg=state)

    def wait_final(self, status: str = "answered") -> Locator:
        """The run's final answer, once shown with `status`; the panel is idle or in error again."""
        expect(self.final).to_have_attribute("data-status", status)
        self.page.wait_for_function("() => ['idle', 'error'].includes(document.body.dataset.chatState)")
        return self.final

    def card_views(self) -> list[CardView]:
        """Every card in order: its call id, tool and status."""
        return [CardView(c.get_attribute("data-call-id") or "", c.get_attribute("data-tool") or "",
                         c.get_attribute("data-status") or "") for c in self.cards.all()]

    def pending_selection(self) -> dict[str, Any]:
        """Wait for the agent to ask for a pick; the session as the server knows it (id, candidates, …)."""
        expect(self.notice).to_have_attribute("data-status", "pending")
        session_id = self.notice.get_attribute("data-session-id")
        reply = call("GET", f"{self.server.url}/api/sessions/{session_id}")
        assert reply.status == 200, reply.body
        return {"session_id": session_id, **reply.json()}

    def pick(self, session_id: str, code: str) -> None:
        """Confirm a pick as the viewer does (POST /api/submit-selection)."""
        reply = call("POST", f"{self.server.url}/api/submit-selection",
                     {"session_id": session_id, "selections": [{"itemCode": code}]})
        assert reply.status == 200, reply.body

    def hooks(self, expression: str) -> Any:
        """Evaluate `window.sceneChat.<expression>` in the page."""
        return self.page.evaluate(f"() => window.sceneChat.{expression}")

    def run_state(self) -> dict[str, Any]:
        """GET /api/runs/<id> of the page's current (or last) run."""
        run_id = self.hooks("runId")
        reply = call("GET", f"{self.server.url}/api/runs/{run_id}")
        assert reply.status == 200, reply.body
        return reply.json()

    def drag(self, dx: float, dy: float, steps: int = 10) -> None:
        """Orbit as a person does: drag on the canvas from the middle of the framed part."""
        framed = self.page.evaluate("window.sceneViewer.view.framedRect()")
        x, y = (framed["left"] + framed["right"]) / 2, (framed["top"] + framed["bottom"]) / 2
        self.page.mouse.move(x, y)
        self.page.mouse.down()
        self.page.mouse.move(x + dx, y + dy, steps=steps)
        self.page.mouse.up()

    def uncaught_errors(self) -> list[str]:
        """Uncaught exceptions in the page (console lines about refused requests are expected and not counted)."""
        return [e for e in self.bp.errors if e.startswith("pageerror")]


def tool_result(stub_request: dict[str, Any], index: int = 0) -> dict[str, Any]:
    """The content of the `index`-th tool message the model received in one request."""
    tools = [m for m in stub_request["messages"] if m["role"] == "tool"]
    return json.loads(tools[index]["content"])
