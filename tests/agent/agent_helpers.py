"""Helpers for agent tests: settings in tmp_path and a user who answers selections from another thread."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from file_answers import cancel_selection, submit_selection
from pydantic import BaseModel

from scene_agent.agent.events import SelectionRequired
from scene_agent.config import Settings
from scene_agent.selection.files.store import SessionStore


def agent_settings(tmp_path: Path) -> Settings:
    """State and selection directories of the test's own."""
    return Settings(state_dir=tmp_path / "state", selection_dir=tmp_path / "selection", viewer_url="http://127.0.0.1:8090/")


class Picker:
    """Plays the user in the viewer: when a selection is required, picks (or cancels, or does nothing) from a thread."""

    def __init__(self, settings: Settings, choose: Callable[[SelectionRequired], list[str] | None]):
        self.store = SessionStore(settings)
        self.choose = choose
        self.required: list[SelectionRequired] = []
        self.events: list[BaseModel] = []
        self.threads: list[threading.Thread] = []

    def __call__(self, event: BaseModel) -> None:
        self.events.append(event)
        if isinstance(event, SelectionRequired):
            self.required.append(event)
            codes = self.choose(event)
            if codes is None:
                return
            target = (lambda: cancel_selection(self.store, event.session_id)) if codes == [] else (
                lambda: submit_selection(self.store, event.session_id, codes))
            thread = threading.Thread(target=target)
            thread.start()
            self.threads.append(thread)

    def join(self) -> None:
        """Wait for the answering threads (they finish as soon as the file is written)."""
        for thread in self.threads:
            thread.join(timeout=10)
            assert not thread.is_alive()

    def types(self) -> list[str]:
        """The event types seen, in order."""
        return [e.type for e in self.events]
