"""Every question and selection asked in a conversation, as records that can be listed."""

from __future__ import annotations

import itertools
import threading
from typing import Any, Literal

from pydantic import Field

from scene_agent.agent.events import iso_now
from scene_agent.model import Model

RecordType = Literal["CHOICE", "FEEDBACK", "SELECTION"]
Priority = Literal["URGENT", "HIGH", "MEDIUM", "LOW"]
RecordStatus = Literal["PENDING", "ANSWERED", "IGNORED", "EXPIRED"]


class AskedRecord(Model):
    """One thing the agent asked the user: a viewer selection or a question, and what came of it."""

    id: str = Field(description="The selection session id or the question id.")
    number: int = Field(description="Order in the conversation, from 1.")
    turn: int = Field(description="The turn (query) it was asked in, from 1.")
    type: RecordType = Field(description="SELECTION (picked in the viewer), CHOICE (options) or FEEDBACK (free text).")
    priority: Priority
    status: RecordStatus = "PENDING"
    title: str = Field(description="A short label: the question's header, or 'Selection'.")
    content: str = Field(description="The question or the viewer's prompt.")
    options: list[str] = Field(default_factory=list, description="The options or the candidate codes.")
    asked_at: str = Field(default_factory=iso_now)
    answered_at: str | None = None
    answer: str | list[str] | None = None
    expires_at: str | None = None

    def line(self) -> str:
        """'Which bedroom do you mean? → 1-2' — the record as the turn summary shows it."""
        if self.status == "ANSWERED":
            answer = ", ".join(self.answer) if isinstance(self.answer, list) else str(self.answer)
            return f"{self.content} → {answer}"
        return f"{self.content} → ({self.status.lower()})"


class ConversationRecords:
    """The records of one conversation, safe to update from the threads a run uses."""

    def __init__(self) -> None:
        self._records: list[AskedRecord] = []
        self._lock = threading.Lock()
        self._numbers = itertools.count(1)

    def add(self, **fields: Any) -> AskedRecord:
        """Record something just asked (status PENDING)."""
        with self._lock:
            record = AskedRecord(number=next(self._numbers), **fields)
            self._records.append(record)
            return record

    def resolve(self, record_id: str, status: RecordStatus, answer: str | list[str] | None = None) -> AskedRecord:
        """Mark a record answered, ignored (cancelled) or expired."""
        with self._lock:
            for i, record in enumerate(self._records):
                if record.id == record_id:
                    updated = record.model_copy(update={"status": status, "answer": answer, "answered_at": iso_now()})
                    self._records[i] = updated
                    return updated
        raise KeyError(record_id)

    def list(self, status: RecordStatus | None = None, turn: int | None = None) -> list[AskedRecord]:
        """The records, oldest first, optionally only those with a status or from one turn."""
        with self._lock:
            return [r for r in self._records if (status is None or r.status == status) and (turn is None or r.turn == turn)]
