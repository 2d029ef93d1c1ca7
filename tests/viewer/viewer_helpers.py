"""Reading and driving the viewer page in tests: its state, hooks, candidate list, canvas pixels; a second client."""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

from browser_fixtures import WebServer

STATE_TIMEOUT_MS = 30_000


@dataclass
class Viewer:
    """A page showing the viewer, the server behind it, and the console errors seen so far."""

    page: Any
    server: WebServer
    errors: list[str]

    def state(self) -> str:
        return self.page.evaluate("document.body.dataset.viewerState")

    def wait_state(self, *states: str, timeout: int = STATE_TIMEOUT_MS) -> str:
        """Wait until viewerState is one of states (or "error", which fails at once with what the page says)."""
        final = {"error", *states}
        self.page.wait_for_function("s => s.includes(document.body.dataset.viewerState)", arg=sorted(final),
                                    timeout=timeout)
        state = self.state()
        assert state in states, f"viewer is {state!r}, expected {states}: {self.page.inner_text('#viewer')[:500]}"
        return state

    def hook(self, field: str) -> Any:
        return self.page.evaluate(f"window.sceneViewer.{field}")

    def screen_position(self, code: str) -> dict[str, float]:
        at = self.page.evaluate("code => window.sceneViewer.screenPosition(code)", code)
        assert at is not None, f"{code} is not on screen"
        return at

    def click_item(self, code: str) -> None:
        """Click the canvas where the item is drawn, as a user would."""
        at = self.screen_position(code)
        self.page.mouse.click(at["x"], at["y"])

    def session(self, session_id: str) -> dict[str, Any]:
        with urllib.request.urlopen(f"{self.server.url}/api/sessions/{session_id}") as response:
            return json.loads(response.read())

    def rows(self) -> list[tuple[str, str]]:
        """The candidate list: (data-code, aria-selected) per row."""
        rows = self.page.eval_on_selector_all("#viewer [data-code]",
                                              "els => els.map(e => [e.dataset.code, e.getAttribute('aria-selected')])")
        return [tuple(row) for row in rows]


def open_in_place(v: Viewer, viewer_url: str) -> None:
    """What the chat does with a viewer URL the agent reports: the viewer opens it in place (a new history entry)."""
    query = parse_qs(urlsplit(viewer_url).query)
    target = {"manifest": query["manifest"][0], "selectionMode": query.get("selectionMode") == ["true"],
              "sessionId": query.get("sessionId", [None])[0], "prompt": query.get("prompt", [None])[0]}
    v.page.evaluate("target => { window.sceneViewer.handle.open(target); }", target)


def post(server: WebServer, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """A JSON POST to the server, as another client would send it."""
    request = urllib.request.Request(f"{server.url}{path}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def canvas_stats(viewer: Viewer) -> dict[str, float]:
    """What a screenshot of the canvas (right of the side panel) shows: the share of pixels that are not the
    background, and how many distinct colours (32 levels per channel). Decoded by the browser's own PNG decoder."""
    box = viewer.page.locator("#viewer canvas").bounding_box()
    panel = viewer.page.locator("#viewer .sv-panel").bounding_box() or {"x": box["x"], "width": 0}
    left = max(box["x"], panel["x"] + panel["width"])
    clip = {"x": left, "y": box["y"], "width": box["x"] + box["width"] - left, "height": box["height"]}
    return screen_pixels(viewer, clip, """
        let other = 0; const colours = new Set();
        for (let i = 0; i < d.length; i += 4) {
          if (Math.abs(d[i] - 0x14) + Math.abs(d[i + 1] - 0x16) + Math.abs(d[i + 2] - 0x1a) > 12) other++;
          colours.add((d[i] >> 3) << 10 | (d[i + 1] >> 3) << 5 | (d[i + 2] >> 3));
        }
        return { covered: other / (d.length / 4), colours: colours.size };""")


def screen_pixels(viewer: Viewer, clip: dict[str, float], reduce_js: str) -> Any:
    """Screenshot `clip` (client pixels) and run `reduce_js` over its pixels (see png_pixels)."""
    return png_pixels(viewer.page, viewer.page.screenshot(clip=clip), reduce_js)


def png_pixels(page: Any, png: bytes, reduce_js: str) -> Any:
    """Run `reduce_js`, a JS function body over `d` (RGBA bytes), `w` and `h`, on a PNG's pixels in the page: what it
    returns comes back (pixels stay in the browser). Decoded by the browser's own PNG decoder."""
    return page.evaluate("""async ([b64, body]) => {
        const img = new Image();
        img.src = "data:image/png;base64," + b64;
        await img.decode();
        const c = document.createElement("canvas");
        c.width = img.width; c.height = img.height;
        const g = c.getContext("2d");
        g.drawImage(img, 0, 0);
        const d = g.getImageData(0, 0, c.width, c.height).data;
        return new Function("d", "w", "h", body)(d, c.width, c.height);
    }""", [base64.b64encode(png).decode(), reduce_js])


# The labels drawn over the canvas: [key, left, top, right, bottom] each (client pixels).
LABEL_RECTS = """() => [...document.querySelectorAll('#viewer .sv-label')].filter(e => getComputedStyle(e).display !== 'none').map(e => {
    const r = e.getBoundingClientRect();
    return [e.dataset.label, r.left, r.top, r.right, r.bottom];
})"""

Rect = tuple[float, float, float, float]


def draw_now(v: Viewer) -> None:
    """Draw a frame now (labels are placed after each frame), as the next animation frame would."""
    v.page.evaluate("window.sceneViewer.bench.frameMs()")


def label_rects(v: Viewer) -> dict[str, Rect]:
    """The labels drawn: key → (left, top, right, bottom), client pixels."""
    return {key: (x0, y0, x1, y1) for key, x0, y0, x1, y1 in v.page.evaluate(LABEL_RECTS)}


def screen_box(v: Viewer, code: str) -> Rect | None:
    """Where an item's box is drawn (client pixels), or None."""
    b = v.page.evaluate("code => window.sceneViewer.view.screenBox(code)", code)
    return (b["left"], b["top"], b["right"], b["bottom"]) if b else None


def overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def rgb_of_hex(hex_colour: str) -> str:
    """'#ea2d2b' as the browser computes a background colour: 'rgb(234, 45, 43)'."""
    r, g, b = (int(hex_colour[k:k + 2], 16) for k in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"
