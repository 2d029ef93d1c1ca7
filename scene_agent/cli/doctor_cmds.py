"""`doctor`: is everything in place — the scene, the selection channel (directories or Redis), the web page, a
server at the viewer URL, the planner? One line per check, with what to do about a problem."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import typer
from rich.markup import escape
from rich.table import Table

from scene_agent.cli.common import JsonOption, SceneOption
from scene_agent.cli.output import console, print_json
from scene_agent.cli.viewer_check import server_warning
from scene_agent.config import Settings, load_model_settings, load_settings, redact_url
from scene_agent.errors import SceneAgentError

if TYPE_CHECKING:
    from scene_agent.scene.loader import Scene

Verdict = Literal["ok", "note", "problem"]


@dataclass(frozen=True)
class Check:
    """One thing looked at: how it is, in a sentence."""

    name: str
    verdict: Verdict
    detail: str


def _scene(path: Path | None) -> tuple[Check, Scene | None]:
    from scene_agent.demo.place import open_scene_or_demo

    try:
        scene = open_scene_or_demo(path)
    except SceneAgentError as exc:
        return Check("scene", "problem", exc.message), None
    floors, rooms, objects = scene.index.counts
    return Check("scene", "ok", f"'{scene.scene_id}' ({scene.path}): {floors} floors, {rooms} rooms, {objects} objects"), scene


def _channel(settings: Settings) -> Check:
    from scene_agent.selection.channel import open_channel

    try:
        channel = open_channel(settings)
    except SceneAgentError as exc:
        return Check("selection channel", "problem", exc.message)
    health = channel.health()
    if not health.reachable:
        return Check("selection channel", "problem", health.message)
    return Check("selection channel", "note" if health.warning else "ok", f"{channel.describe()}: {health.message}")


def _viewer_page() -> Check:
    from api_server.app import REPO_ROOT  # imports Flask: only here
    from api_server.viewer_files import viewer_built

    dist = REPO_ROOT / "viewer" / "dist"
    if viewer_built(dist):
        return Check("web page", "ok", f"built in {dist}")
    return Check("web page", "note", f"not built ({dist} is missing): `make run` builds it, or `cd viewer && npm ci && "
                                     "npm run build`; the API works without it")


def _server(settings: Settings, scene: Scene | None) -> Check:
    if scene is None:
        return Check("server", "note", "not checked: the scene did not load")
    warning = server_warning(settings, scene)
    if warning is None:
        return Check("server", "ok", f"a scene-agent server answers at {settings.viewer_origin} for this scene")
    return Check("server", "note", warning)


def _planner() -> Check:
    try:
        model = load_model_settings()
    except SceneAgentError as exc:
        return Check("planner", "problem", exc.message)
    if model is None:
        return Check("planner", "ok", "the offline planner (set OPENAI_API_KEY to plan with a model)")
    where = redact_url(model.base_url) if model.base_url else "api.openai.com"
    return Check("planner", "ok", f"model {model.model} at {where}")


def doctor_command(scene: SceneOption = None, json_output: JsonOption = False) -> None:
    """Check the scene, the selection channel (directories or the Redis broker), the web page, the server and the planner."""
    checks: list[Check] = []
    try:
        settings = load_settings()
    except SceneAgentError as exc:
        checks.append(Check("settings", "problem", exc.message))
    else:
        checks.append(Check("settings", "ok", f"state in {settings.state_dir}, picks in {settings.selection_dir}, "
                                              f"viewer links to {settings.viewer_url}"))
        found, loaded = _scene(scene)
        checks += [found, _channel(settings), _viewer_page(), _server(settings, loaded)]
    checks.append(_planner())
    healthy = all(c.verdict != "problem" for c in checks)
    if json_output:
        print_json({"ok": healthy, "checks": [asdict(c) for c in checks]})
    else:
        table = Table(title="scene-agent doctor", title_justify="left", show_header=False)
        for check in checks:
            mark = {"ok": "[green]✔[/]", "note": "[yellow]•[/]", "problem": "[bold red]✘[/]"}[check.verdict]
            table.add_row(mark, check.name, escape(check.detail))
        console.print(table)
    if not healthy:
        raise typer.Exit(1)
