"""Where things live and how processes find each other: the one place environment variables are read."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal, TypeAlias
from urllib.parse import urlsplit

from scene_agent.errors import UsageError
from scene_agent.language.words import Lang

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8090
DEFAULT_VIEWER_URL = f"http://localhost:{DEFAULT_PORT}/"
DEFAULT_MODEL = "gpt-4o-mini"

SelectionWatch: TypeAlias = Literal["watchdog", "polling"]
# The accepted values of SCENE_AGENT_SELECTION_WATCH, each mapped to itself typed as a SelectionWatch.
_SELECTION_WATCHES: dict[str, SelectionWatch] = {"watchdog": "watchdog", "polling": "polling"}


def _default_state_dir() -> Path:
    state_home = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state_home) / "scene-agent"


@dataclass(frozen=True)
class Settings:
    """Directories and URLs shared by the agent process and the API server process."""

    state_dir: Path
    selection_dir: Path
    viewer_url: str
    selection_watch: SelectionWatch = "watchdog"
    ask_questions: bool = True
    # SCENE_AGENT_BROKER: where selection sessions, outcomes and picks meet when agents and API servers run on
    # several machines (a redis:// URL); None: the state and selection directories on this machine.
    broker: str | None = None
    # Whether viewer_url was chosen (SCENE_AGENT_VIEWER_URL, or by whoever made these settings) rather than left to
    # the default: a server that serves the page itself links to its own address only when it was not (`served_at`).
    viewer_url_given: bool = True

    def served_at(self, url: str) -> Settings:
        """These settings in a server that serves the viewer itself at `url`: links point there, unless a viewer URL
        was given (a page served behind a proxy, or by a dev server, keeps the address it was given)."""
        return self if self.viewer_url_given else replace(self, viewer_url=_viewer_url(url))

    @property
    def sessions_dir(self) -> Path:
        """Selection sessions and their outcomes."""
        return self.state_dir / "sessions"

    @property
    def views_dir(self) -> Path:
        """View manifests, served at /manifests/<view>.json."""
        return self.state_dir / "views"

    @property
    def viewer_origin(self) -> str:
        """scheme://host[:port] of the viewer: the one origin the API allows cross-origin requests from."""
        parts = urlsplit(self.viewer_url)
        return f"{parts.scheme}://{parts.netloc}"


def _viewer_url(value: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise UsageError(f"SCENE_AGENT_VIEWER_URL must be an http(s) URL such as {DEFAULT_VIEWER_URL}; got {value!r}")
    return value if value.endswith("/") or parts.query else value + "/"


def _flag(name: str) -> bool:
    value = (os.environ.get(name) or "").strip().lower()
    if value in ("", "0", "false", "no", "off"):
        return False
    if value in ("1", "true", "yes", "on"):
        return True
    raise UsageError(f"{name} must be 1/true/yes or 0/false/no; got {value!r}")


@dataclass(frozen=True)
class ModelSettings:
    """An OpenAI-compatible chat model: OPENAI_API_KEY, OPENAI_BASE_URL (optional), SCENE_AGENT_MODEL."""

    api_key: str
    base_url: str | None
    model: str
    timeout_s: float = 60.0


def load_model_settings() -> ModelSettings | None:
    """The model to plan with, or None when OPENAI_API_KEY is not set (the offline planner is used)."""
    key = (os.environ.get("OPENAI_API_KEY") or "").strip()
    if not key:
        return None
    base_url = (os.environ.get("OPENAI_BASE_URL") or "").strip() or None
    if base_url is not None and urlsplit(base_url).scheme not in ("http", "https"):
        raise UsageError(f"OPENAI_BASE_URL must be an http(s) URL such as http://127.0.0.1:8000/v1; got {base_url!r}")
    return ModelSettings(api_key=key, base_url=base_url, model=(os.environ.get("SCENE_AGENT_MODEL") or "").strip() or DEFAULT_MODEL)


def load_language() -> Lang:
    """'zh' when SCENE_AGENT_LANG, else the locale (LC_ALL, LC_MESSAGES, LANG), says `zh*`; else 'en'."""
    for name in ("SCENE_AGENT_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = (os.environ.get(name) or "").strip().lower()
        if value:  # the first one set decides, even when it is not Chinese (POSIX locale precedence)
            return "zh" if value.startswith("zh") else "en"
    return "en"


def _source_checkout() -> Path | None:
    """The project checkout this package runs from (an editable install), if it is one."""
    root = Path(__file__).resolve().parent.parent
    return root if (root / "pyproject.toml").is_file() and (root / "manifests").is_dir() else None


def load_demo_dir() -> Path:
    """Where the demo scene lives: $SCENE_AGENT_DEMO_DIR, the checkout's manifests/demo, or the user data dir."""
    if env := os.environ.get("SCENE_AGENT_DEMO_DIR"):
        return Path(env)
    if root := _source_checkout():
        return root / "manifests" / "demo"
    data_home = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return data_home / "scene-agent" / "demo"


def load_cache_dir() -> Path | None:
    """Where this user's caches that no scene carries live ($XDG_CACHE_HOME/scene-agent); None without a home."""
    if cache_home := os.environ.get("XDG_CACHE_HOME"):
        return Path(cache_home) / "scene-agent"
    try:
        return Path.home() / ".cache" / "scene-agent"
    except RuntimeError:  # no HOME and no passwd entry (some containers): nothing is kept between processes
        return None


def load_chromium_path() -> str:
    """The Chromium the viewer benchmark drives: $SCENE_AGENT_CHROMIUM, else Debian's /usr/bin/chromium."""
    return os.environ.get("SCENE_AGENT_CHROMIUM") or "/usr/bin/chromium"


def load_allowed_hosts() -> tuple[str, ...] | None:
    """SCENE_AGENT_ALLOWED_HOSTS: the Host headers the API server answers besides its own address (`host` or
    `host:port`, comma-separated; `*` for any); None when unset."""
    raw = os.environ.get("SCENE_AGENT_ALLOWED_HOSTS")
    if raw is None or not raw.strip():
        return None
    hosts = tuple(part.strip().lower() for part in raw.split(",") if part.strip())
    bad = [h for h in hosts if h != "*" and not re.fullmatch(r"(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:[0-9]{1,5})?", h)]
    if bad:
        raise UsageError(f"SCENE_AGENT_ALLOWED_HOSTS: {bad[0]!r} is not a host or host:port")
    return hosts


def load_app_origins() -> tuple[str, ...]:
    """SCENE_AGENT_APP_ORIGINS: the origins of pages that may read and answer through the API server from elsewhere:
    an MCP host's sandboxed frames showing the viewer inside a conversation (`https://host:port`, comma-separated;
    `null` for a frame without an origin of its own, as a sandboxed srcdoc frame is). None by default."""
    raw = os.environ.get("SCENE_AGENT_APP_ORIGINS") or ""
    origins = tuple(part.strip().rstrip("/") for part in raw.split(",") if part.strip())
    bad = [o for o in origins if o != "null" and not re.fullmatch(r"https?://[A-Za-z0-9.\-\[\]:]+", o)]
    if bad:
        raise UsageError(f"SCENE_AGENT_APP_ORIGINS: {bad[0]!r} is not an origin such as https://example.com or null")
    return origins


BROKER_SCHEMES = ("redis", "rediss", "unix", "redis+sentinel")


def _broker(value: str | None) -> str | None:
    value = (value or "").strip()
    if not value:
        return None
    parts = urlsplit(value)
    if parts.scheme not in BROKER_SCHEMES or not (parts.netloc or parts.path):
        raise UsageError(f"SCENE_AGENT_BROKER must be a Redis URL such as redis://127.0.0.1:6379/0 "
                         f"(redis://, rediss://, unix://, or redis+sentinel://host:26379,host:26380/service/db); "
                         f"got {redact_url(value)!r}")
    from scene_agent.selection.redis.address import parse_broker  # checks the rest (no Redis client loaded)

    parse_broker(value, redact_url(value))
    return value


def redact_url(url: str) -> str:
    """The URL with any password replaced by ***, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    hosts = parts.netloc.rpartition("@")[2]  # host:port, or several of them (Sentinel)
    return parts._replace(netloc=f"{user}:***@{hosts}").geturl()


def load_settings() -> Settings:
    """Settings from SCENE_AGENT_STATE_DIR, _SELECTION_DIR, _VIEWER_URL, _SELECTION_WATCH, _NO_QUESTIONS and _BROKER."""
    raw_watch = os.environ.get("SCENE_AGENT_SELECTION_WATCH") or "watchdog"
    watch = _SELECTION_WATCHES.get(raw_watch)
    if watch is None:
        raise UsageError(f"SCENE_AGENT_SELECTION_WATCH must be 'watchdog' or 'polling'; got {raw_watch!r}")
    viewer_url = (os.environ.get("SCENE_AGENT_VIEWER_URL") or "").strip()
    return Settings(
        selection_watch=watch,
        state_dir=Path(os.environ.get("SCENE_AGENT_STATE_DIR") or _default_state_dir()),
        selection_dir=Path(os.environ.get("SCENE_AGENT_SELECTION_DIR") or "/tmp"),
        viewer_url=_viewer_url(viewer_url or DEFAULT_VIEWER_URL),
        viewer_url_given=bool(viewer_url),
        ask_questions=not _flag("SCENE_AGENT_NO_QUESTIONS"),
        broker=_broker(os.environ.get("SCENE_AGENT_BROKER")),
    )
