"""What an import of a labelled cloud tells while it runs (progress lines) and when it is done (its report)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from scene_agent.scene.attributes import PROGRESS_EVERY_S


class Progress:
    """Lines for a long import: each step once, and within a step one every PROGRESS_EVERY_S seconds at most (as
    measuring a scene's attributes says how far it got)."""

    def __init__(self, say: Callable[[str], None] | None = None):
        self._say = say or (lambda line: None)
        self._start = self._last = time.monotonic()

    def step(self, line: str) -> None:
        """Say that a step starts."""
        self._say(line)
        self._start = self._last = time.monotonic()

    def tick(self, done: int, total: int, what: str) -> None:
        """Say how far the step got, when the last line is old enough and it is not done."""
        now = time.monotonic()
        if now - self._last >= PROGRESS_EVERY_S and done < total:
            self._say(f"  … {done:,} of {total:,} {what} ({now - self._start:.0f} s)")
            self._last = now


@dataclass
class ImportReport:
    """What an import did that the scene does not show: the fields it read, what it recentred, tolerated or left out."""

    source: str
    points: int
    fields: dict[str, str]  # what each field used is for → its name in the file
    colour: str  # "8-bit", "16-bit (scaled to 8-bit)", "none (gray)", …
    objects_from: str = "nothing"  # "instances", "label parts" or "nothing"
    split_voxel_m: float | None = None
    turned: str | None = None  # how a cloud with another up axis was turned z-up
    recentred_by: list[float] | None = None  # subtracted from every point
    unknown_labels: dict[int, int] = field(default_factory=dict)  # label id the map does not name → its points
    noise_points: int = 0  # left out
    outside_rooms: int = 0  # left out: a room field that puts them in no room
    specks_to_room: int = 0  # label parts too small to be objects, given to the room

    def notes(self) -> list[str]:
        """The report in sentences, for people."""
        used = "; ".join(f"{role}: {name}" for role, name in self.fields.items())
        notes = [f"Read {self.points:,} points of {self.source} ({used}). Colours: {self.colour}."]
        if self.objects_from == "label parts":
            notes.append(f"Objects: each label's points cut into the parts that touch ({self.split_voxel_m} m voxels); "
                         f"{self.specks_to_room:,} points in parts too small to be objects went to the room.")
        elif self.objects_from == "nothing":
            notes.append("No objects: no point is labelled as a thing.")
        if self.turned is not None:
            notes.append(f"Turned: {self.turned}.")
        if self.recentred_by is not None:
            x, y, z = self.recentred_by
            notes.append(f"Recentred: ({x:,.3f}, {y:,.3f}, {z:,.3f}) was subtracted from every point (the cloud's lowest "
                         "corner is now the origin; z stays up).")
        if self.unknown_labels:
            total = sum(self.unknown_labels.values())
            ids = ", ".join(str(i) for i in sorted(self.unknown_labels)[:10]) + (", …" if len(self.unknown_labels) > 10 else "")
            notes.append(f"{total:,} points carry label ids the label map does not name ({ids}): labelled \"object\".")
        if self.noise_points:
            notes.append(f"{self.noise_points:,} points labelled noise were left out.")
        if self.outside_rooms:
            notes.append(f"{self.outside_rooms:,} points in no room (a negative room id) were left out.")
        return notes

    def as_json(self) -> dict[str, Any]:
        """The report for `--json` (label ids as strings, as JSON object keys are)."""
        return asdict(self) | {"unknown_labels": {str(k): v for k, v in sorted(self.unknown_labels.items())}}
