"""A real browser for the web page: Debian's Chromium driven by Playwright, against a real server on loopback.

Registered as a pytest plugin by tests/conftest.py. Fixtures:
  browser        one headless Chromium for the whole test session (WebGL2 through SwiftShader)
  page           a fresh browser context and page per test (1280×800, English); console errors collected
  web_server     a factory: a real waitress server for a scene, with state in tmp_path, serving viewer/dist
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from api_server.app import create_app
from api_server.serve import BackgroundServer
from scene_agent.config import Settings, load_chromium_path
from scene_bench.viewer import CHROMIUM_ARGS

REPO_ROOT = Path(__file__).resolve().parent.parent
VIEWER_DIST = REPO_ROOT / "viewer" / "dist"
CHROMIUM = load_chromium_path()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Chromium (the Makefile installs Debian's package; Playwright cannot download browsers here)."""
    from playwright.sync_api import sync_playwright  # only browser tests need it

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs it (apt-get install chromium)")
    if not (VIEWER_DIST / "index.html").is_file():
        pytest.fail("viewer/dist is not built: `make test` builds it (cd viewer && npm ci && npm run build)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@dataclass
class BrowserPage:
    """A page and what went wrong on it (uncaught errors and console errors)."""

    page: Any
    errors: list[str]


@pytest.fixture
def page(browser: Any) -> Iterator[BrowserPage]:
    """A new context and page; the test may check `.errors` (uncaught exceptions, console.error lines)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.on("console", lambda msg: errors.append(f"console.{msg.type}: {msg.text}") if msg.type == "error" else None)
    try:
        yield BrowserPage(page, errors)
    finally:
        context.close()


@dataclass
class WebServer:
    """A running server: its base URL, settings and the Flask app."""

    url: str
    settings: Settings
    app: Any


def start_web_server(base: Path, scene_path: Path, **config: Any) -> tuple[BackgroundServer, WebServer]:
    """A real server for that scene serving the built viewer, its state under `base` (close the first when done)."""
    settings = config.pop("SETTINGS", None) or Settings(state_dir=base / "state", selection_dir=base / "selection",
                                                        viewer_url="http://localhost:8090/")
    app = create_app({"SCENE_PATH": str(scene_path), "SETTINGS": settings, "VIEWER_DIST": str(VIEWER_DIST), **config})
    server = BackgroundServer(app).__enter__()
    return server, WebServer(url=server.url, settings=settings, app=app)


@pytest.fixture
def web_server(tmp_path: Path) -> Iterator[Callable[..., WebServer]]:
    """`web_server(scene_path, **config)` starts a real server for that scene serving the built viewer."""
    running: list[BackgroundServer] = []

    def start(scene_path: Path, **config: Any) -> WebServer:
        server, served = start_web_server(tmp_path / f"server{len(running)}", scene_path, **config)
        running.append(server)
        return served

    try:
        yield start
    finally:
        for server in running:
            server.close()


def local_url(server: WebServer, viewer_url: str) -> str:
    """A viewer URL printed with the configured base, pointed at the test's server instead (same path and query)."""
    from urllib.parse import urlsplit

    parts = urlsplit(viewer_url)
    return f"{server.url}{parts.path or '/'}{'?' + parts.query if parts.query else ''}"



def save_screenshot(page: Any, name: str) -> None:
    """Keep a screenshot for people to look at, in $SCENE_AGENT_SCREENSHOTS when set (nothing is written otherwise)."""
    folder = os.environ.get("SCENE_AGENT_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        # Written here: Playwright would write the file from a thread of its own that outlives the test.
        (Path(folder) / name).write_bytes(page.screenshot())
