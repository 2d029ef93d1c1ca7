"""`vis`: open rooms/objects in the viewer; with --select, wait for the user's pick and print it."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Annotated

import typer
from pydantic import ValidationError
from rich.markup import escape

from scene_agent.cli.common import JsonOption, SceneOption
from scene_agent.cli.output import console, err_console, print_json
from scene_agent.cli.viewer_check import server_warning
from scene_agent.config import load_settings
from scene_agent.demo.place import open_scene_or_demo
from scene_agent.errors import usage_error
from scene_agent.selection.session import DEFAULT_TIMEOUT_S, MAX_TIMEOUT_S
from scene_agent.selection.store import SessionStore
from scene_agent.selection.waiter import SelectionResult, default_waiter
from scene_agent.tools.visualize import VisOutput, VisualizeInput, open_view


def _print_vis(out: VisOutput, warning: str | None, as_json: bool) -> None:
    if as_json:
        print_json(out)
    elif out.requires_selection:
        console.print(f"{escape(out.name or '')}: pick in the viewer, then Confirm\n  {out.viewer_url}\n"
                      f"  [dim]session {out.session_id} · answer file {out.selection_file}[/]")
    else:
        console.print(f"Showing {escape(out.name or '')} in the viewer:\n  {out.viewer_url}")
    if warning:
        err_console.print(f"[yellow]warning:[/] {escape(warning)}")


def _print_result(result: SelectionResult, as_json: bool) -> None:
    if as_json:
        print_json(result)
        return
    if result.status == "confirmed":
        picks = ", ".join(f"{i.itemCode} ({i.label})" for i in result.selections)
        console.print(f"✅ Picked {escape(picks)}")
    elif result.status == "cancelled":
        who = {"viewer": "in the viewer", "words": "in words"}.get(result.cancelled_by or "", "here")
        console.print(f"✖ Cancelled {who}; nothing was picked")
    elif result.status == "timeout":
        console.print(f"⏰ Timed out: {escape(result.reason or '')}")
    else:
        console.print(f"❌ The answer was not valid: {escape(result.reason or '')}")


def vis_command(
    codes: Annotated[list[str], typer.Argument(help="Room, object or floor codes, e.g. 0-7 or 0-2-3 0-2-4.")],
    select: Annotated[bool, typer.Option("--select", help="Ask the user to pick among CODES and wait for the answer.")] = False,
    multiple: Annotated[bool, typer.Option("--multiple", help="With --select: allow several picks.")] = False,
    prompt: Annotated[str | None, typer.Option("--prompt", help="With --select: what the viewer asks.")] = None,
    timeout: Annotated[float, typer.Option("--timeout", min=1, max=MAX_TIMEOUT_S,
                                           help="With --select: seconds to wait for the pick.")] = DEFAULT_TIMEOUT_S,
    scene: SceneOption = None,
    json_output: JsonOption = False,
) -> None:
    """Show CODES in the viewer (view-only, returns at once), or with --select wait for the user's pick."""
    if not select and (multiple or prompt):
        raise typer.BadParameter("--multiple and --prompt need --select")
    try:
        spec = VisualizeInput(codes=codes, selection_mode=select, prompt=prompt, multiple=multiple, timeout=timeout)
    except ValidationError as exc:
        raise usage_error(exc) from None
    settings = load_settings()
    loaded = open_scene_or_demo(scene)
    out = open_view(loaded, spec, settings)
    warning = server_warning(settings, loaded)
    if not out.requires_selection:
        _print_vis(out, warning, json_output)
        return
    # open_view (scene_agent/tools/visualize.py) creates the session whenever it asks for a selection.
    assert out.session_id is not None
    store = SessionStore(settings)
    # Watch before showing the session, and show it inside the try: once the caller has seen the session,
    # Ctrl-C at any moment must close it as cancelled (a session left pending would still take a pick).
    pending = default_waiter(settings.selection_watch).watch(store.get(out.session_id), store)
    try:
        _print_vis(out, warning, json_output)
        live = err_console.status("", spinner="dots") if err_console.is_terminal else nullcontext()
        with live as status:
            def countdown(seconds_left: float) -> None:
                if status is not None:
                    status.update(f"⏳ Waiting for a pick in the viewer … {seconds_left:.0f} s left (Ctrl-C cancels)")
            if status is None and not json_output:
                err_console.print(f"⏳ Waiting up to {timeout:g} s for a pick in the viewer (Ctrl-C cancels)")
            result = pending.wait(countdown)
    except KeyboardInterrupt:
        pending.cancel()
        result = pending.wait()
    _print_result(result, json_output)
    if result.status != "confirmed":
        raise typer.Exit(1)
