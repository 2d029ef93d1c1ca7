"""`vis`: open rooms/objects in the viewer; with --select, wait for the user's pick and print it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from scene_agent.cli.common import JsonOption, SceneOption
from scene_agent.cli.output import console, err_console, print_json
from scene_agent.selection.limits import DEFAULT_TIMEOUT_S, MAX_TIMEOUT_S

if TYPE_CHECKING:
    from rich.status import Status

    from scene_agent.selection.result import SelectionResult
    from scene_agent.selection.session import SelectionSession
    from scene_agent.tools.question import QuestionInput, QuestionResult
    from scene_agent.tools.visualize import VisOutput


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


class _Terminal:
    """The user of `vis --select`, on this terminal: the URL printed, a countdown, Ctrl-C to cancel."""

    def __init__(self, warning: str | None, as_json: bool):
        self._warning = warning
        self._as_json = as_json
        self._status: Status | None = None

    def selection_shown(self, vis: VisOutput, session: SelectionSession, channel: str) -> None:
        _print_vis(vis, self._warning, self._as_json)
        if err_console.is_terminal:
            err_console.print(f"Picks travel through {escape(channel)}", style="dim")
            self._status = err_console.status("", spinner="dots")
            self._status.start()
        else:  # stderr, so that --json output stays one object per line
            err_console.print(f"⏳ Waiting up to {session.timeout:g} s for a pick in the viewer, through "
                              f"{escape(channel)} (Ctrl-C cancels)")

    def selection_progress(self, seconds_left: float) -> None:
        if self._status is not None:
            self._status.update(f"⏳ Waiting for a pick in the viewer … {seconds_left:.0f} s left (Ctrl-C cancels)")

    def on_stop(self, cancel: Callable[[str | None], None]) -> Callable[[], None]:
        return lambda: None  # Ctrl-C, SIGTERM and SIGHUP arrive as KeyboardInterrupt (cli/main.py)

    def selection_ended(self, result: SelectionResult, interrupted: bool) -> None:
        if self._status is not None:
            self._status.stop()

    def ask(self, questions: QuestionInput) -> QuestionResult:
        from scene_agent.tools.question import NoUIError

        raise NoUIError("vis asks no questions")


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
    from pydantic import ValidationError

    from scene_agent.cli.viewer_check import server_warning
    from scene_agent.config import load_settings
    from scene_agent.demo.place import open_scene_or_demo
    from scene_agent.errors import usage_error
    from scene_agent.tools.context import ToolContext
    from scene_agent.tools.visualize import VisualizeInput, visualize

    if not select and (multiple or prompt):
        raise typer.BadParameter("--multiple and --prompt need --select")
    try:
        spec = VisualizeInput(codes=codes, selection_mode=select, prompt=prompt, multiple=multiple, timeout=timeout)
    except ValidationError as exc:
        raise usage_error(exc) from None
    settings = load_settings()
    loaded = open_scene_or_demo(scene)
    warning = server_warning(settings, loaded)
    # The tool shows the session only once its wait is registered, and closes it as cancelled on Ctrl-C
    # (tools/visualize.py: wait_for_selection): a session left pending would still take a pick.
    out = visualize(ToolContext(loaded, settings, user=_Terminal(warning, json_output)), spec)
    if out.selection is None:
        _print_vis(out, warning, json_output)
        return
    _print_result(out.selection, json_output)
    if out.selection.status != "confirmed":
        raise typer.Exit(1)
