"""How well an item's measured colours fit a colour word ('red', 'navy', 'dark', 'light blue').

A basic term fits the clusters the colour tool gave that term; black, gray and white also take
their achromatic neighbours (a charcoal chair is black to most people, a pale grey one white). A
finer name ('navy', 'beige') fits clusters of its basic term near it, or any cluster very near it
(CIEDE2000 in CIELAB). The score is the share of the item's points that fit.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from scene_agent.language.color_words import ColorWord
from scene_agent.scene.attributes import ColorPart, ItemAttributes

FINE_SAME_TERM_DE = 25.0  # a finer word fits a cluster of its own basic term within this ΔE2000
FINE_ANY_TERM_DE = 12.0   # ... and a cluster of any term within this
ACHROMATIC_CHROMA = 12.0  # C*ab below this is a neutral (black / gray / white)
BLACK_BELOW_L = 36.0      # a neutral darker than this is black to most people (charcoal, graphite)
# (a neutral between 18 and 36 is also grey, one between 78 and 85 also white: people call those either)


def _chroma(part: ColorPart) -> float:
    return float(np.hypot(part.lab[1], part.lab[2]))


NEUTRAL_L = {"black": (0.0, BLACK_BELOW_L), "gray": (18.0, 85.0), "white": (78.0, 101.0)}


def _term_fits(term: str, part: ColorPart) -> bool:
    """A neutral colour (black, gray, white) goes by its lightness, as people see it; the others by their term."""
    if _chroma(part) < ACHROMATIC_CHROMA and part.basic in NEUTRAL_L:
        low, high = NEUTRAL_L.get(term, (1.0, 0.0))
        return low <= part.lab[0] < high
    return part.basic == term


@lru_cache(maxsize=256)
def _lab_of(rgb: tuple[int, int, int]) -> tuple[float, float, float]:
    from scene_agent.color.science import srgb_to_lab

    lab = srgb_to_lab(np.array([rgb]))[0]
    return float(lab[0]), float(lab[1]), float(lab[2])


def delta_e(part: ColorPart, rgb: tuple[int, int, int]) -> float:
    """CIEDE2000 between a measured colour and a named one."""
    from scene_agent.color.science import delta_e2000

    return float(delta_e2000(np.array(part.lab), np.array(_lab_of(rgb))))


def _part_fits(word: ColorWord, part: ColorPart) -> bool:
    if word.term is None:
        return True
    if word.rgb is None:
        return _term_fits(word.term, part)
    distance = delta_e(part, word.rgb)
    return distance <= FINE_ANY_TERM_DE or (_term_fits(word.term, part) and distance <= FINE_SAME_TERM_DE)


def color_score(word: ColorWord, item: ItemAttributes) -> float:
    """Share of the item's points whose colour fits the word (0 when none, or when the item has no colour)."""
    return round(sum(part.share for part in item.colors if _part_fits(word, part)), 4)


def fitting_lab(word: ColorWord, item: ItemAttributes) -> tuple[float, float, float] | None:
    """CIELAB of the item's biggest colour that fits the word (its main colour when none does; None without colours)."""
    fitting = [p for p in item.colors if _part_fits(word, p)] or item.colors[:1]
    if not fitting:
        return None
    lab = max(fitting, key=lambda p: p.share).lab
    return float(lab[0]), float(lab[1]), float(lab[2])


CHROMA_WEIGHT = 0.25  # a vivid colour reads lighter than its L* alone says: a royal blue is "blue", not "dark"


def lightness(word: ColorWord, item: ItemAttributes) -> float | None:
    """How light the item's colour the word is about looks (its fitting clusters', else its main one's): L*, with
    vivid colours counted lighter."""
    fitting = [p for p in item.colors if _part_fits(word, p)] if word.term else item.colors[:1]
    if not fitting:
        return None
    weights = np.array([p.share for p in fitting])
    looks = [p.lab[0] + CHROMA_WEIGHT * _chroma(p) for p in fitting]
    return float(np.average(looks, weights=weights if weights.sum() > 0 else None))


def closeness(word: ColorWord, item: ItemAttributes) -> float:
    """The smallest ΔE2000 between a finer colour word and the item's colours (inf without a finer colour)."""
    if word.rgb is None:
        return float("inf")
    return min((delta_e(part, word.rgb) for part in item.colors if part.share >= 0.1), default=float("inf"))


def dominant_term(item: ItemAttributes) -> str | None:
    """The basic term of the item's main colour: the colour tool's own (so that a prompt's "the gray office chair"
    and the answer's "gray (dimgray)" agree; a question's "black" still fits a charcoal, `_term_fits`)."""
    return item.colors[0].basic if item.colors else None


@lru_cache(maxsize=16)
def _term_labs(term: str) -> np.ndarray:
    """CIELAB of every named colour people file under a basic term (the palette's, and the common names')."""
    from scene_agent.color.science import palette
    from scene_agent.language.color_words import named_colors

    entries, labs = palette()
    rows = [labs[i] for i, e in enumerate(entries) if e.basic == term]
    rows += [_lab_of(rgb) for basic, rgb in named_colors().values() if basic == term]
    return np.array(rows, dtype=np.float64)


def color_distance(word: ColorWord, item: ItemAttributes) -> float:
    """How far the item's colours are from what the word names (ΔE2000, in full light; 0 for an exact fit): the
    nearest of its colours that make up at least a fifth of it, to the nearest colour of the word's kind."""
    from scene_agent.color.science import delta_e2000

    if word.term is None:
        return 0.0
    parts = [p for p in item.colors if p.share >= 0.2] or item.colors[:1]
    if not parts:
        return float("inf")
    targets = np.array([_lab_of(word.rgb)]) if word.rgb is not None else _term_labs(word.term)
    if len(targets) == 0:
        return float("inf")
    return min(float(np.min(delta_e2000(np.array(part.lab)[None, :], targets))) for part in parts)


# Where a dull colour of each hue lies (CIELAB hue angle, degrees) and how far around it still counts: a scan's mean
# colours are dull, and a blue chair scanned in poor light measures a bluish grey.
HUES: dict[str, tuple[float, float]] = {"red": (30.0, 22.0), "orange": (60.0, 18.0), "yellow": (90.0, 22.0),
                                        "green": (145.0, 45.0), "blue": (265.0, 50.0), "purple": (320.0, 25.0),
                                        "pink": (355.0, 25.0)}
DULL_CHROMA = (4.0, 20.0)  # a colour this dull (C*ab) may carry the name of its hue
_LOOSE_NEUTRAL = {"white": (55.0, 101.0, 25.0), "gray": (15.0, 92.0, 20.0), "black": (0.0, 40.0, 20.0)}


def loosely_fits(term: str, part: ColorPart) -> bool:
    """Whether a dull measured colour may still be what a colour word names: a greyish white, a bluish grey, a dark
    dull orange for brown. Vivid colours have a name of their own and never fit another's loosely."""
    lightness, chroma = part.lab[0], _chroma(part)
    hue = float(np.degrees(np.arctan2(part.lab[2], part.lab[1])) % 360.0)
    if term in _LOOSE_NEUTRAL:
        low, high, most = _LOOSE_NEUTRAL[term]
        return low <= lightness < high and chroma < most
    if term == "brown":
        return (20.0 <= hue <= 100.0 and chroma < 40.0 and lightness < 65.0) or (chroma < 15.0 and lightness < 35.0)
    if term in HUES and DULL_CHROMA[0] <= chroma < DULL_CHROMA[1]:
        centre, reach = HUES[term]
        return abs((hue - centre + 180.0) % 360.0 - 180.0) <= reach
    return False


def loose_score(word: ColorWord, item: ItemAttributes) -> float:
    """Share of the item's points whose colour loosely fits the word (see `loosely_fits`)."""
    if word.term is None:
        return 0.0
    return round(sum(part.share for part in item.colors if loosely_fits(word.term, part)), 4)
