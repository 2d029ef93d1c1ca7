"""What a description resolved to, and how: the result `resolve` gives `find`, the planners and the messages."""

from __future__ import annotations

from dataclasses import dataclass

from scene_agent.language.reading import Unused
from scene_agent.resolution.matching import Missing
from scene_agent.resolution.narrowing import Narrowing
from scene_agent.resolution.query import Description
from scene_agent.resolution.viewpoint import Viewpoint


@dataclass(frozen=True)
class Resolution:
    """What a description resolved to, and how: the head's matches, each step's narrowing, or why nothing fits."""

    description: Description
    considered: tuple[str, ...]
    codes: tuple[str, ...]
    floor: str | None = None
    narrowings: tuple[Narrowing, ...] = ()
    missing: Missing | None = None
    reference: Resolution | None = None  # a reference that matched nothing, when that ended the search
    fallback_rooms: tuple[str, ...] = ()
    unused: tuple[Unused, ...] = ()      # words the scene could not use here, and why
    frame: Viewpoint | None = None       # the viewpoint left and right were read from

    @property
    def failed(self) -> Narrowing | None:
        """The step that left nothing, if one did."""
        last = self.narrowings[-1] if self.narrowings else None
        return last if last is not None and not last.kept else None
