"""`ask` (one query) and `chat` (a conversation): their options; cli/turns.py runs them.

Ctrl-C while the agent waits for a pick stops the run through its RunControl: the agent cancels the
selection session and the run ends with a `cancelled` final (exit status 1). Anywhere else Ctrl-C
stops at once: `ask` exits with 130, `chat` drops the turn and prompts again (at the prompt it ends the chat).
"""

from __future__ import annotations

from typing import Annotated

import typer

from scene_agent.cli.common import SceneOption
from scene_agent.selection.limits import MAX_TIMEOUT_S

TimeoutOption = Annotated[float | None, typer.Option(
    "--timeout", min=1, max=MAX_TIMEOUT_S,
    help="Seconds to wait for a pick in the viewer, and for the answer to a question. Default: 60 s for a pick, 300 s for a question.")]
NoQuestionsOption = Annotated[bool, typer.Option(
    "--no-questions", help="Never ask clarifying questions; the agent decides alone (also SCENE_AGENT_NO_QUESTIONS=1).")]


def ask_command(
    query: Annotated[str, typer.Argument(help="The question, e.g. \"what's the color of the sofa?\".")],
    timeout: TimeoutOption = None,
    no_questions: NoQuestionsOption = False,
    scene: SceneOption = None,
    json_output: Annotated[bool, typer.Option(
        "--json", help="Print every event as one line of JSON (NDJSON), the final event last.")] = False,
) -> None:
    """Ask one question about the scene; tool calls show live, the answer is printed (exit 1 when not answered)."""
    from scene_agent.cli.turns import ask

    ask(query, timeout, no_questions, scene, json_output)


def chat_command(
    timeout: TimeoutOption = None,
    no_questions: NoQuestionsOption = False,
    scene: SceneOption = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print each turn's events as NDJSON, and /questions and "
                                                             "/history as JSON lines.")] = False,
    serve: Annotated[bool, typer.Option("--serve", help="Also serve the viewer and API (on 127.0.0.1 at the viewer URL's "
                                                        "port) while the chat runs; reuses a server already there.")] = False,
) -> None:
    """Talk about the scene, turn after turn (history kept); one question per line, /help for the commands."""
    from scene_agent.cli.turns import chat

    chat(timeout, no_questions, scene, json_output, serve)
