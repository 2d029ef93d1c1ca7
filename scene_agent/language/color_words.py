"""Colour words: the eleven basic terms, the CSS names and other common names, and the dark/light tones.

A colour word becomes a `ColorWord`: the basic term it falls under (what the colour tool reports for
every cluster) and, for words finer than a basic term ("navy", "beige", "sky blue"), the colour it
names, so candidates can be ranked by how close their measured colour is.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from scene_agent.color.science import BASIC_OF, BASIC_TERMS

Tone = Literal["dark", "light"]
RGB = tuple[int, int, int]

# Names people use that are not CSS colours (or mean something else there): basic term and a typical sRGB.
_COMMON: dict[str, tuple[str, RGB]] = {
    "violet": ("purple", (143, 0, 255)), "cream": ("white", (243, 235, 210)), "off white": ("white", (238, 234, 222)),
    "mustard": ("yellow", (210, 160, 40)), "burgundy": ("red", (128, 0, 32)), "wine": ("red", (114, 47, 55)),
    "charcoal": ("gray", (55, 58, 62)), "graphite": ("gray", (65, 66, 70)), "lilac": ("purple", (200, 162, 200)),
    "mauve": ("purple", (190, 150, 190)), "taupe": ("brown", (110, 98, 85)), "ochre": ("orange", (204, 119, 34)),
    "rust": ("orange", (183, 65, 14)), "peach": ("orange", (250, 200, 160)), "sage": ("green", (150, 170, 130)),
    "scarlet": ("red", (255, 36, 0)), "emerald": ("green", (40, 160, 100)), "golden": ("yellow", (212, 175, 55)),
    "navy blue": ("blue", (0, 0, 128)), "sky blue": ("blue", (135, 206, 235)), "royal blue": ("blue", (65, 105, 225)),
    "baby blue": ("blue", (137, 207, 240)), "forest green": ("green", (34, 139, 34)), "lime green": ("green", (50, 205, 50)),
    "olive green": ("green", (100, 110, 40)), "hot pink": ("pink", (255, 105, 180)), "dusty pink": ("pink", (205, 150, 150)),
    "walnut": ("brown", (118, 80, 52)), "oak": ("brown", (196, 150, 98)), "pine": ("brown", (222, 190, 140)),
    "steel": ("gray", (170, 172, 176)), "terracotta": ("orange", (185, 95, 60)),
}
# Basic terms by other names; "grey" is "gray".
_TERM_WORDS = {"grey": "gray", "violet": "purple", "reddish": "red", "greenish": "green", "bluish": "blue",
               "blueish": "blue", "yellowish": "yellow", "greyish": "gray", "grayish": "gray", "brownish": "brown",
               "pinkish": "pink", "purplish": "purple", "orangey": "orange", "whitish": "white", "blackish": "black"}
_TONES: dict[str, Tone] = {"dark": "dark", "darker": "dark", "darkest": "dark", "deep": "dark",
                           "light": "light", "lighter": "light", "lightest": "light", "pale": "light", "paler": "light",
                           "palest": "light", "bright": "light", "brighter": "light", "brightest": "light"}
# "deep" and "bright" are tones only before a colour ("deep red"; "the deep cabinet" is a size); "light" alone is a
# lamp unless a pronoun or "coloured" follows ("the light one").
_TONE_NEEDS_COLOUR = frozenset({"deep", "bright", "brighter", "brightest"})
_TONE_NOUNS = frozenset({"one", "ones", "coloured", "colored", "colour", "color", "toned"})


@dataclass(frozen=True)
class ColorWord:
    """What a colour phrase asks for: a basic term, maybe a finer colour, maybe a tone ('dark', 'light')."""

    word: str
    term: str | None = None
    rgb: RGB | None = None
    tone: Tone | None = None


def named_colors() -> dict[str, tuple[str, RGB]]:
    """Every colour name people use (CSS and common names) → its basic term and a typical sRGB."""
    return _named()


@lru_cache(maxsize=1)
def _named() -> dict[str, tuple[str, RGB]]:
    """Every colour name (singular words, spaces allowed) → (basic term, sRGB)."""
    import webcolors  # the CSS table, needed only to read colour words

    names: dict[str, tuple[str, RGB]] = {}
    for name in webcolors.names("css3"):
        basic = BASIC_OF.get(name)
        if basic is not None:
            red, green, blue = webcolors.name_to_rgb(name)  # an IntegerRGB: three ints
            names[name] = (basic, (red, green, blue))
    names.update(_COMMON)
    names["brown"] = ("brown", (130, 85, 50))  # CSS brown is a brick red; people mean a brown
    return names


def color_word(words: list[str]) -> tuple[ColorWord | None, int]:
    """The colour phrase at the start of `words` and how many words it takes (0 when there is none).

    Tones combine with a colour ("dark blue", "light grey"); a tone alone ("the dark one") is a
    `ColorWord` with a tone and no term.
    """
    if not words:
        return None, 0
    tone = _TONES.get(words[0])
    rest = words[1:] if tone else words
    colour, used = _colour(rest)
    if tone and colour is not None:
        return ColorWord(word=" ".join(words[:used + 1]), term=colour.term, rgb=colour.rgb, tone=tone), used + 1
    if tone and words[0] not in _TONE_NEEDS_COLOUR:
        if words[0] != "light" or (len(words) > 1 and words[1] in _TONE_NOUNS):
            return ColorWord(word=words[0], tone=tone), 1
        return None, 0
    return colour, used


def _colour(words: list[str]) -> tuple[ColorWord | None, int]:
    named = _named()
    for n in (2, 1):
        if len(words) < n:
            continue
        phrase = " ".join(words[:n])
        joined = phrase.replace(" ", "")
        term = _TERM_WORDS.get(phrase, phrase)
        if term in BASIC_TERMS:
            return ColorWord(word=phrase, term=term), n
        if phrase in named or (n == 2 and joined in named):
            basic, rgb = named.get(phrase) or named[joined]
            return ColorWord(word=phrase, term=basic, rgb=rgb), n
    return None, 0


def is_colour_word(word: str) -> bool:
    """True when a single word names a colour or a tone."""
    return word in _TONES or _colour([word])[1] == 1
