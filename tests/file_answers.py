"""Answering sessions of a SessionStore as the API server does, through the channel's rules (for tests of the file
backend that hold a store: its journal, its waiter, its faults)."""

from __future__ import annotations

from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.files.backend import FileBackend
from scene_agent.selection.files.store import SessionStore
from scene_agent.selection.selection_file import SelectionFile
from scene_agent.selection.session import UserAnswerBy


def file_channel(store: SessionStore) -> SelectionChannel:
    """The channel over this very store (its journal and any fault a test put in it)."""
    return SelectionChannel(FileBackend(store.settings, store=store))


def submit_selection(store: SessionStore, session_id: str, codes: list[str], *, by: UserAnswerBy = "viewer",
                     words: str | None = None) -> SelectionFile:
    """SelectionChannel.submit on the store's files."""
    return file_channel(store).submit(session_id, codes, by=by, words=words)


def cancel_selection(store: SessionStore, session_id: str, *, by: UserAnswerBy = "viewer",
                     words: str | None = None) -> SelectionFile:
    """SelectionChannel.cancel on the store's files."""
    return file_channel(store).cancel(session_id, by=by, words=words)
