"""Colour science for the colour tool: sRGB ↔ CIELAB (colour-science) and naming by CIEDE2000.

Names come from the CSS3 named colours (the `webcolors` package): 138 distinct colours that most
people have met, dense enough in the light and mid tones for a close match. Each name belongs to
one of the eleven basic colour terms of Berlin & Kay (black, white, gray, red, orange, yellow,
green, blue, purple, pink, brown), so `basic` always agrees with `name`. The grouping follows the
usual published families of the CSS named colours (the "color groups" tables of the web
references), with the changes listed in `_OVERRIDES`: where a family name and the colour disagree
(CSS `chocolate` is an orange, `maroon` a dark red, `rosybrown` a dusty pink), the colour wins;
CSS `brown`, a brick red, is never used as a name.
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass
from types import ModuleType

import numpy as np

BASIC_TERMS = ("black", "white", "gray", "red", "orange", "yellow", "green", "blue", "purple", "pink", "brown")

# Families of the CSS named colours, as the web references group them ("Cyan" colours are blues
# to an English speaker, "Gray" ones without black).
_FAMILIES: dict[str, tuple[str, ...]] = {
    "pink": ("pink", "lightpink", "hotpink", "deeppink", "palevioletred", "mediumvioletred"),
    "purple": ("lavender", "thistle", "plum", "orchid", "violet", "fuchsia", "magenta", "mediumorchid", "darkorchid",
               "darkviolet", "blueviolet", "darkmagenta", "purple", "mediumpurple", "mediumslateblue", "slateblue",
               "darkslateblue", "indigo"),
    "red": ("lightsalmon", "salmon", "darksalmon", "lightcoral", "indianred", "crimson", "red", "firebrick", "darkred"),
    "orange": ("orange", "darkorange", "coral", "tomato", "orangered"),
    "yellow": ("gold", "yellow", "lightyellow", "lemonchiffon", "lightgoldenrodyellow", "papayawhip", "moccasin",
               "peachpuff", "palegoldenrod", "khaki", "darkkhaki"),
    "green": ("greenyellow", "chartreuse", "lawngreen", "lime", "limegreen", "palegreen", "lightgreen",
              "mediumspringgreen", "springgreen", "mediumseagreen", "seagreen", "forestgreen", "green", "darkgreen",
              "yellowgreen", "olivedrab", "darkolivegreen", "mediumaquamarine", "darkseagreen", "lightseagreen",
              "darkcyan", "teal"),
    "blue": ("aqua", "cyan", "lightcyan", "paleturquoise", "aquamarine", "turquoise", "mediumturquoise",
             "darkturquoise", "cadetblue", "steelblue", "lightsteelblue", "lightblue", "powderblue", "lightskyblue",
             "skyblue", "cornflowerblue", "deepskyblue", "dodgerblue", "royalblue", "blue", "mediumblue", "darkblue",
             "navy", "midnightblue"),
    "brown": ("cornsilk", "blanchedalmond", "bisque", "navajowhite", "wheat", "burlywood", "tan", "rosybrown",
              "sandybrown", "goldenrod", "darkgoldenrod", "peru", "chocolate", "olive", "saddlebrown", "sienna",
              "brown", "maroon"),
    "white": ("white", "snow", "honeydew", "mintcream", "azure", "aliceblue", "ghostwhite", "whitesmoke", "seashell",
              "beige", "oldlace", "floralwhite", "ivory", "antiquewhite", "linen", "lavenderblush", "mistyrose"),
    "gray": ("gainsboro", "lightgray", "silver", "darkgray", "gray", "dimgray", "lightslategray", "slategray",
             "darkslategray"),
    "black": ("black",),
}

# Where the family and what people call the colour part ways. Each changes which basic term a
# nearby measured colour gets, so each is covered by the naming tests.
_OVERRIDES: dict[str, str] = {
    "maroon": "red",           # (128,0,0) is a dark red; dark red surfaces land here
    "chocolate": "orange",     # (210,105,30) is a saturated mid orange, the nearest name to most oranges
    "goldenrod": "yellow",     # mustard / ochre; ties with darkgoldenrod, so both go the same way
    "darkgoldenrod": "yellow",
    "olive": "green",          # "olive green"
    "rosybrown": "pink",       # a dusty pink
    "cornsilk": "white",       # near-whites of the brown family read as off-white (cream)
    "blanchedalmond": "white",
    "papayawhip": "white",     # cream; ties with antiquewhite and cornsilk
    "peachpuff": "orange",     # peach, a pale orange
    "aquamarine": "green",     # (127,255,212) is a mint green
    "mediumslateblue": "blue",  # the slate blues are saturated blues leaning to violet: nearest to royal blues
    "slateblue": "blue",
    "darkslateblue": "blue",   # navy-like dark blues land here
}

# CSS `brown` (#a52a2a) is a brick red: naming red surfaces "brown" is the very mistake this tool
# must not make, so it is no candidate name (real browns are nearer saddlebrown or sienna anyway).
NOT_NAMES = frozenset({"brown"})

BASIC_OF: dict[str, str] = {name: basic for basic, names in _FAMILIES.items() for name in names} | _OVERRIDES
BASIC_OF |= {name.replace("gray", "grey"): basic for name, basic in BASIC_OF.items() if "gray" in name}


@dataclass(frozen=True)
class ColorName:
    """A palette colour: CSS3 name, its basic term and sRGB value."""

    name: str
    basic: str
    rgb: tuple[int, int, int]

    @property
    def hex(self) -> str:
        """'#rrggbb' of the palette colour."""
        red, green, blue = self.rgb
        return f"#{red:02x}{green:02x}{blue:02x}"


@functools.cache
def _colour() -> ModuleType:
    """colour-science, imported on first use (about a second) without its optional-plotting warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import colour
    return colour


def srgb_to_lab(rgb: np.ndarray) -> np.ndarray:
    """CIELAB (D65) of sRGB colours given as N×3 uint8 (or 0-255 numbers)."""
    colour = _colour()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(colour.XYZ_to_Lab(colour.sRGB_to_XYZ(np.asarray(rgb, dtype=np.float64) / 255.0)), dtype=np.float64)


def lab_to_srgb(lab: np.ndarray) -> np.ndarray:
    """sRGB uint8 of CIELAB colours (out-of-gamut values are clipped)."""
    colour = _colour()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rgb = colour.XYZ_to_sRGB(colour.Lab_to_XYZ(np.asarray(lab, dtype=np.float64)))
    return np.clip(np.rint(np.asarray(rgb) * 255.0), 0, 255).astype(np.uint8)


def brightened(lab: np.ndarray, gain: float) -> np.ndarray:
    """A Lab colour under up to `gain` times the light: linear RGB scaled, no further than the gamut allows (hue kept)."""
    colour = _colour()
    srgb = colour.RGB_COLOURSPACES["sRGB"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        linear = np.clip(colour.XYZ_to_RGB(colour.Lab_to_XYZ(np.asarray(lab, dtype=np.float64)), srgb,
                                           apply_cctf_encoding=False), 0.0, None)
        linear = linear * min(gain, 1.0 / max(float(linear.max()), 1e-9))
        return np.asarray(colour.XYZ_to_Lab(colour.RGB_to_XYZ(linear, srgb, apply_cctf_decoding=False)), dtype=np.float64)


def delta_e2000(lab1: np.ndarray, lab2: np.ndarray) -> np.ndarray:
    """CIEDE2000 colour difference, broadcasting over leading axes."""
    colour = _colour()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(colour.delta_E(lab1, lab2, method="CIE 2000"), dtype=np.float64)


@functools.cache
def palette() -> tuple[tuple[ColorName, ...], np.ndarray]:
    """The CSS3 named colours (one per colour: 'gray' over 'grey'; not NOT_NAMES) and their CIELAB values."""
    import webcolors  # only the colour tool needs it

    seen: dict[tuple[int, int, int], ColorName] = {}
    for name in sorted(webcolors.names("css3"), key=lambda n: ("grey" in n, n)):
        red, green, blue = webcolors.name_to_rgb(name)  # an IntegerRGB: three ints
        rgb = (red, green, blue)
        if rgb not in seen and name not in NOT_NAMES:
            seen[rgb] = ColorName(name=name, basic=BASIC_OF[name], rgb=rgb)
    entries = tuple(seen.values())
    return entries, srgb_to_lab(np.array([e.rgb for e in entries]))


def name_lab(lab: np.ndarray) -> ColorName:
    """The CSS3 colour nearest to one CIELAB colour by CIEDE2000."""
    entries, labs = palette()
    return entries[int(np.argmin(delta_e2000(np.asarray(lab, dtype=np.float64)[None, :], labs)))]


def name_rgb(rgb: tuple[int, int, int] | np.ndarray) -> ColorName:
    """The CSS3 colour nearest to one sRGB colour, compared in CIELAB by CIEDE2000 (never in RGB)."""
    return name_lab(srgb_to_lab(np.asarray(rgb).reshape(1, 3))[0])


def hex_of(rgb: tuple[int, int, int] | np.ndarray) -> str:
    """'#rrggbb' of an sRGB triple."""
    r, g, b = (int(v) for v in rgb)
    return f"#{r:02x}{g:02x}{b:02x}"
