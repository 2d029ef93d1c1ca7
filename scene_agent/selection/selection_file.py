"""The selection file: the API server's answer, `viewer_selection_<session_id>.json`, written atomically."""

from __future__ import annotations

import json
import os
import re
from datetime import datetime
from pathlib import Path
from typing import Literal

from pydantic import ConfigDict, Field, ValidationError

from scene_agent.fileio import NotRegularFileError, ensure_private_dir, move_directory_aside, read_regular_file, write_atomic
from scene_agent.model import Model
from scene_agent.selection.session import SESSION_ID_RE, PickedItem, SelectionSession, SessionOutcome, check_session_id

MAX_FILE_BYTES = 256 * 1024
PREFIX = "viewer_selection_"  # a selection file is `viewer_selection_<session id>.json`; its temp file starts `.` + this
_FILE_NAME = re.compile(rf"{PREFIX}({SESSION_ID_RE.pattern.strip('^$')})\.json")


class SelectionFile(Model):
    """What the viewer's user answered, as written for the waiting agent."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    session_id: str = Field(pattern=SESSION_ID_RE.pattern)
    status: Literal["confirmed", "cancelled"]
    selections: list[PickedItem]
    submitted_at: datetime


def answer_file(outcome: SessionOutcome) -> SelectionFile:
    """The selection file that tells the waiting agent a user's outcome (confirmed or cancelled)."""
    if outcome.status not in ("confirmed", "cancelled"):
        raise ValueError(f"only a user's answer has a selection file, not {outcome.status}")
    return SelectionFile(session_id=outcome.session_id, status=outcome.status, selections=outcome.selections,
                         submitted_at=outcome.at)


def selection_file_name(session_id: str) -> str:
    """`viewer_selection_<session_id>.json` for a well-formed id."""
    return f"{PREFIX}{check_session_id(session_id)}.json"


def selection_path(selection_dir: Path, session_id: str) -> Path:
    """Where the answer to a session is written."""
    return selection_dir / selection_file_name(session_id)


def write_selection_file(selection_dir: Path, answer: SelectionFile) -> Path:
    """Write the answer atomically (complete temp file in the same directory, then linked into place), mode 0600.

    A link rather than a rename: inotify reports a rename as a pair of events that watchdog holds
    for up to 0.5 s while it pairs them; a link is one "created" event, delivered at once. Whatever
    already sits at the name (a planted symlink, a stale file) is removed first, never followed; a directory there
    is moved aside.
    """
    path = selection_path(selection_dir, answer.session_id)
    data = answer.model_dump_json(indent=2).encode() + b"\n"
    try:
        write_atomic(path, data, exclusive=True)
    except FileNotFoundError:  # the directory is missing (a cleaned /tmp): made, owner-only
        ensure_private_dir(selection_dir)
        write_atomic(path, data, exclusive=True)
    except FileExistsError:
        if not move_directory_aside(path):  # a directory at the name is kept aside, whatever it holds
            path.unlink()  # removes a symlink itself, not its target
        write_atomic(path, data, exclusive=True)
    return path


def list_selection_files(selection_dir: Path) -> list[str]:
    """The sessions that have a selection file in `selection_dir` (a shared directory: other names are skipped)."""
    try:
        names = os.listdir(selection_dir)
    except (FileNotFoundError, NotADirectoryError):
        return []
    found = (_FILE_NAME.fullmatch(name) for name in names)
    return sorted(m.group(1) for m in found if m is not None)


class Unreadable(Exception):  # noqa: N818 - names the state the caller acts on (`except Unreadable`); tests import it
    """The file is there but is not (yet) an answer: partial, not JSON, or not a regular file."""


class Mismatch(Exception):  # noqa: N818 - names the state the caller acts on (`except Mismatch`); tests import it
    """The file is complete but does not answer this session (other id, wrong shape, picks not allowed)."""


def read_selection_file(path: Path, session: SelectionSession) -> SelectionFile | None:
    """The answer in `path` checked against the session; None when there is no file yet.

    Raises Unreadable for a file that is not complete JSON (a writer may still be at work, so it is
    not an answer) and Mismatch for a complete file that does not fit the session.
    """
    try:
        data = read_regular_file(path, MAX_FILE_BYTES)
    except NotRegularFileError as exc:
        raise Unreadable(f"{path}: {exc.strerror}") from None
    if data is None:
        return None
    if len(data) > MAX_FILE_BYTES:
        raise Mismatch(f"{path}: larger than {MAX_FILE_BYTES} bytes")
    try:
        raw = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        raise Unreadable(f"{path}: not complete JSON") from None
    try:
        answer = SelectionFile.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top level)"
        raise Mismatch(f"{path}: {where}: {first['msg']}") from None
    if answer.session_id != session.session_id:
        raise Mismatch(f"{path}: answers session {answer.session_id}, not {session.session_id}")
    if answer.status == "confirmed":
        problems = session.check_picks([item.itemCode for item in answer.selections])
        if problems:
            raise Mismatch(f"{path}: {'; '.join(problems)}")
    return answer
