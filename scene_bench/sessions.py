"""Selection sessions for benchmarks, opened through the public channel API as the agent opens them.

`open_session` opens one with a view of no items: the benchmarks have no scene to draw, and nothing reads the view.
"""

from __future__ import annotations

from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.session import SelectionSession, selection_view
from scene_agent.selection.views import ViewManifest


def open_session(channel: SelectionChannel, candidates: list[str], labels: dict[str, str], *, scene_id: str,
                 timeout: float) -> SelectionSession:
    """A new pending session and its view (no items), opened through the channel."""
    session = SelectionSession.create(candidates, labels, "bench", scene_id=scene_id, timeout=timeout)
    session = session.model_copy(update={"view": selection_view(session.session_id)})
    view = ViewManifest(view=session.view, scene_id=scene_id, scene_name="bench",
                        scene_url=f"/api/scenes/{scene_id}", mode=session.mode, selection=True,
                        session_id=session.session_id, prompt=session.prompt, focus=session.candidates, items=[],
                        created_at=session.created_at)
    return channel.open(session, view)
