"""The `color` tool [CLR]: the dominant colours of a room (its walls and floor) or an object, named."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, ValidationError

from scene_agent.color.clusters import Cluster, ColorAnalysis, dominant_colors
from scene_agent.color.science import hex_of
from scene_agent.errors import usage_error
from scene_agent.language.display_names import inferred_room_said
from scene_agent.language.words import Lang
from scene_agent.language.zh_lexicon import zh_color, zh_label
from scene_agent.model import Model
from scene_agent.scene.codes import ItemCode
from scene_agent.scene.index import IndexedRoom
from scene_agent.scene.loader import Scene
from scene_agent.tools.summary import Summary
from scene_agent.tools.tool import Tool

BasicTerm = Literal["black", "white", "gray", "red", "orange", "yellow", "green", "blue", "purple", "pink", "brown"]
LISTED = 4  # colours named in the summary sentence


class ColorInput(Model):
    """Report the dominant colours of one room or object."""

    code: ItemCode = Field(description="Code of the room ('0-7') or object ('0-7-12') whose colours to report; a room "
                                  "answers with the colours of its walls and floor. Use `find` first to get codes.")


class ColorCluster(Model):
    """One colour of the points: a cluster, named and measured."""

    name: str = Field(description="Nearest CSS3 colour name by CIEDE2000, e.g. 'firebrick'.")
    basic: BasicTerm = Field(description="One of the eleven basic colour terms, agreeing with `name`.")
    hex: str = Field(description="'#rrggbb' of the cluster's colour in full light (shading removed).")
    rgb: list[int] = Field(description="The same colour as [r, g, b], 0-255.")
    share: float = Field(description="Fraction of the kept points in this cluster (shares sum to 1).")
    part: Literal["walls", "floor", "walls and floor"] | None = Field(default=None, description="Rooms: where this colour is.")


class DominantColor(Model):
    """The colour covering the most points."""

    name: str
    basic: BasicTerm
    hex: str
    share: float


class ColorResult(Model):
    """Dominant colours of a room or object; `reason` says why there is no colour (or why it is unsure)."""

    code: str
    kind: Literal["room", "object"]
    label: str = Field(description="What it is: the object's label or the room's type.")
    name: str = Field(description="How the summary names it: the room's name, or the object's label.")
    dominant: DominantColor | None
    clusters: list[ColorCluster]
    points_used: int = Field(description="Points the colours were computed from (a bounded sample of large clouds).")
    points_total: int
    method: str = Field(description="What was done, in words.")
    reason: str | None = None
    summary: str = Field(description="One sentence for people, e.g. 'Chair 0-3-2 is mostly red (76 %), with black (24 %).'")

    def summary_in(self, lang: Lang) -> str:
        """The summary sentence in `lang`."""
        return summarize(what_of(self.kind, self.name, self.code, lang), self.clusters, self.reason, lang)

    def human_summary(self) -> Summary:
        """The card line: the summary sentence in both languages."""
        return Summary(en=self.summary_in("en"), zh=self.summary_in("zh"))


def what_of(kind: Literal["room", "object"], name: str, code: str, lang: Lang) -> str:
    """'Chair 0-3-2' / '椅子 0-3-2' / 'Master bedroom 1-2': how a sentence names the item."""
    if kind == "object" and lang == "zh":
        name = zh_label(name)
    return f"{name[:1].upper()}{name[1:]} {code}"


def _cluster(c: Cluster) -> ColorCluster:
    return ColorCluster(name=c.name.name, basic=c.name.basic, hex=hex_of(c.rgb), rgb=list(c.rgb), share=round(c.share, 4),
                        part=c.part)


def _phrase(c: ColorCluster, with_share: bool = True) -> str:
    """'red (76 %, firebrick; walls)'."""
    details = ", ".join(([f"{round(c.share * 100)} %"] if with_share else []) + ([c.name] if c.name != c.basic else []))
    if c.part:
        details = f"{details}; {c.part}" if details else c.part
    return f"{c.basic} ({details})" if details else c.basic


def summarize(what: str, clusters: list[ColorCluster], reason: str | None, lang: Lang = "en") -> str:
    """'Chair 0-3-2 is mostly red (76 %), with black (24 %).' — or why no colour can be given (or in Chinese)."""
    if lang == "zh":
        return _summarize_zh(what, clusters, reason)
    if not clusters:
        return f"{what}: no colour can be given ({reason})." if reason else f"{what}: no colour can be given."
    first, rest, more = clusters[0], clusters[1:LISTED], max(0, len(clusters) - LISTED)
    if not rest:
        sentence = f"{what} is {_phrase(first, with_share=False)}"
    elif first.share >= 0.5:
        sentence = f"{what} is mostly {_phrase(first)}, with " + _join([_phrase(c) for c in rest], more)
    else:
        sentence = f"{what} has several colours: " + _join([_phrase(c) for c in [first, *rest]], more)
    return sentence + (f" ({reason})." if reason else ".")


_PARTS_ZH = {"walls": "墙面", "floor": "地面", "walls and floor": "墙面和地面"}


def _phrase_zh(c: ColorCluster, with_share: bool = True) -> str:
    """'红色（76%；墙面）' — CSS names stay out: they are English words."""
    details = "；".join(([f"{round(c.share * 100)}%"] if with_share else []) + ([_PARTS_ZH[c.part]] if c.part else []))
    return f"{zh_color(c.basic)}（{details}）" if details else zh_color(c.basic)


def _summarize_zh(what: str, clusters: list[ColorCluster], reason: str | None) -> str:
    if not clusters:
        return f"{what}：无法给出颜色（{reason}）。" if reason else f"{what}：无法给出颜色。"
    first, rest, more = clusters[0], clusters[1:LISTED], max(0, len(clusters) - LISTED)
    extra = [f"另外 {more} 种"] if more else []
    if not rest:
        sentence = f"{what} 是{_phrase_zh(first, with_share=False)}"
    elif first.share >= 0.5:
        sentence = f"{what} 主要是{_phrase_zh(first)}，还有" + "、".join([_phrase_zh(c) for c in rest] + extra)
    else:
        sentence = f"{what} 有几种颜色：" + "、".join([_phrase_zh(c) for c in [first, *rest]] + extra)
    return sentence + (f"（{reason}）。" if reason else "。")


def _join(items: list[str], more: int = 0) -> str:
    items = items + ([f"{more} more"] if more else [])
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def result_of(code: str, kind: Literal["room", "object"], label: str, name: str, analysis: ColorAnalysis,
              lang: Lang = "en", what: str | None = None) -> ColorResult:
    """The tool's result from an analysis of the points; the summary in `lang` (naming the item as `what` says, else
    by its name and code)."""
    what = what or what_of(kind, name, code, lang)
    clusters = [_cluster(c) for c in analysis.clusters]
    top = clusters[0] if clusters else None
    dominant = DominantColor(name=top.name, basic=top.basic, hex=top.hex, share=top.share) if top else None
    return ColorResult(code=code, kind=kind, label=label, name=name, dominant=dominant, clusters=clusters,
                       points_used=analysis.points_used, points_total=analysis.points_total, method=analysis.method,
                       reason=analysis.reason, summary=summarize(what, clusters, analysis.reason, lang))


def color(scene: Scene, code: str, lang: Lang = "en") -> ColorResult:
    """Dominant colours of a room's walls and floor or of an object (summary in `lang`); bad or unknown codes raise
    SceneAgentError."""
    try:
        code = ColorInput(code=code).code
    except ValidationError as exc:
        raise usage_error(exc) from None
    entry = scene.item(code)
    points = scene.points(code)
    if isinstance(entry, IndexedRoom):
        label = entry.type.replace("_", " ")
        guess = entry.room.inferred  # a type inferred from the room's objects is said to be one
        what = inferred_room_said(code, entry.room.type, guess.because, lang) if guess else None
        return result_of(code, "room", label, entry.room.display_name, dominant_colors(points, structure=True), lang,
                         what)
    return result_of(code, "object", entry.label, entry.label, dominant_colors(points), lang)


TOOL = Tool("color", ColorInput, ColorResult, lambda ctx, args: color(ctx.scene, args.code, ctx.lang), aliases=("clr",),
            returns="Returns named colour clusters and the dominant colour.",
            read_only=True)
