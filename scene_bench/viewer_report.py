"""What `bench viewer` reports: rows per view and per picking method, one scene's run, and the comparison with a
baseline scene measured in the same run (ratios and the goals they are held to, docs/cli.md "bench viewer")."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

# A large scene is held to these against the baseline (the demo home) in the same run: opening it and orbiting
# it may cost at most this factor of the baseline's time.
FIRST_FRAME_GOAL = 1.5
ORBIT_FRAME_GOAL = 1.5


@dataclass(frozen=True)
class LoadRow:
    """Median load timings of one view, how it was drawn and the most points one of its frames drew."""

    view: str
    lod: str
    items: int
    points: int
    points_drawn_max: int
    runs: int
    manifest_ms: float
    first_frame_ms: float
    ready_ms: float


@dataclass(frozen=True)
class PickRow:
    """Pick latency of one method over the same clicks; `unanswered` clicks never produced a pick record."""

    method: str
    view: str
    lod: str
    points: int
    clicks: int
    hits: int
    unanswered: int
    pick_p50_ms: float
    pick_p95_ms: float
    click_to_frame_p50_ms: float


@dataclass(frozen=True)
class ManyRow:
    """A pick among many like candidates (every chair of a block of flats): its load (medians) and what its first view
    shows — the candidates framed first and the smallest of them on screen (px), the candidates on screen, the labels
    drawn (docs/cli.md "bench viewer")."""

    view: str
    lod: str
    candidates: int
    runs: int
    manifest_ms: float
    first_frame_ms: float
    ready_ms: float
    framed: int
    framed_min_px: float
    candidates_visible: int
    labels_drawn: int
    baseline: ManyView


@dataclass(frozen=True)
class ManyView:
    """The baseline beside it, in the same page: every candidate framed at once ("Frame all"), as a pick among many
    opened before its first view framed a group: the candidates framed, the smallest on screen (px), those on screen,
    the labels drawn."""

    view: str
    framed: int
    framed_min_px: float
    candidates_visible: int
    labels_drawn: int


@dataclass(frozen=True)
class SceneRun:
    """Everything measured on one scene: frame times (still and orbiting), loads of three views, picks, and on a
    scene with many like candidates the pick among them."""

    scene: str
    renderer: str
    frame_ms: float
    frame_ms_p50: float
    points_drawn_max: int
    agreed: int
    loads: tuple[LoadRow, ...]
    picks: tuple[PickRow, ...]
    many: ManyRow | None = None

    def as_json(self) -> dict[str, Any]:
        """This scene's part of the `--json` document (`many` only when the scene had many like candidates)."""
        document = {"scene": self.scene, "renderer": self.renderer, "frame_ms": self.frame_ms,
                    "frame_ms_p50": self.frame_ms_p50, "points_drawn_max": self.points_drawn_max, "agreed": self.agreed,
                    "loads": [asdict(r) for r in self.loads], "picks": [asdict(r) for r in self.picks]}
        return document | ({"many": asdict(self.many)} if self.many else {})

    @property
    def whole_scene(self) -> LoadRow:
        """The load of the whole scene (always the first view)."""
        return self.loads[0]

    def pick(self, method: str) -> PickRow:
        """The row of one picking method ("gpu" or "raycast")."""
        return next(r for r in self.picks if r.method == method)


def _ratio(value: float, baseline: float) -> float | None:
    """value / baseline, or None when the baseline measured nothing (a ratio would be infinite)."""
    return round(value / baseline, 3) if baseline > 0 and math.isfinite(value) else None


@dataclass(frozen=True)
class Comparison:
    """The scene against the baseline: ratios (scene / baseline) and whether the goals are met."""

    first_frame: float | None
    orbit_frame: float | None
    ready: float | None
    frame: float | None
    gpu_pick: float | None
    gpu_hits_every_click: bool

    @classmethod
    def of(cls, scene: SceneRun, baseline: SceneRun) -> Comparison:
        """Compare two runs: whole-scene loads, orbiting frames, still frames, GPU picks."""
        gpu = scene.pick("gpu")
        return cls(first_frame=_ratio(scene.whole_scene.first_frame_ms, baseline.whole_scene.first_frame_ms),
                   orbit_frame=_ratio(scene.frame_ms_p50, baseline.frame_ms_p50),
                   ready=_ratio(scene.whole_scene.ready_ms, baseline.whole_scene.ready_ms),
                   frame=_ratio(scene.frame_ms, baseline.frame_ms),
                   gpu_pick=_ratio(gpu.pick_p50_ms, baseline.pick("gpu").pick_p50_ms),
                   gpu_hits_every_click=gpu.hits == gpu.clicks)

    def goals(self) -> dict[str, dict[str, Any]]:
        """Each goal: its bound and whether this run met it."""
        def within(ratio: float | None, bound: float) -> bool:
            return ratio is not None and ratio <= bound

        return {"first_frame": {"max_ratio": FIRST_FRAME_GOAL, "met": within(self.first_frame, FIRST_FRAME_GOAL)},
                "orbit_frame": {"max_ratio": ORBIT_FRAME_GOAL, "met": within(self.orbit_frame, ORBIT_FRAME_GOAL)},
                "gpu_picks_hit": {"met": self.gpu_hits_every_click}}

    def ratios(self) -> dict[str, float | None]:
        """The `ratios` object of the `--json` document."""
        return {"first_frame": self.first_frame, "orbit_frame": self.orbit_frame, "ready": self.ready,
                "frame": self.frame, "gpu_pick": self.gpu_pick}


@dataclass(frozen=True)
class ViewerReport:
    """The run: the scene, and the baseline measured before it in the same browser when one was given."""

    run: SceneRun
    baseline: SceneRun | None = None

    @property
    def comparison(self) -> Comparison | None:
        """The scene against the baseline, if there is one."""
        return Comparison.of(self.run, self.baseline) if self.baseline else None

    def as_json(self) -> dict[str, Any]:
        """The `--json` document: the scene's keys at the top; `baseline`, `ratios` and `goals` with a baseline."""
        document = self.run.as_json()
        if self.baseline and (comparison := self.comparison):
            document.update(baseline=self.baseline.as_json(), ratios=comparison.ratios(), goals=comparison.goals())
        return document
