"""Colour science for the colour tool: sRGB ↔ CIELAB and naming by CIEDE2000, in numpy.

Names come from the CSS3 named colours (the `webcolors` package): 138 distinct colours that most
people have met, dense enough in the light and mid tones for a close match. Each name belongs to
one of the eleven basic colour terms of Berlin & Kay (black, white, gray, red, orange, yellow,
green, blue, purple, pink, brown), so `basic` always agrees with `name`. The grouping follows the
usual published families of the CSS named colours (the "color groups" tables of the web
references), with the changes listed in `_OVERRIDES`: where a family name and the colour disagree
(CSS `chocolate` is an orange, `maroon` a dark red, `rosybrown` a dusty pink), the colour wins;
CSS `brown`, a brick red, is never used as a name.

The conversions are the standards' formulas written out in numpy (IEC 61966-2-1 for sRGB, CIE 15 for
CIELAB, CIEDE2000 as Sharma et al. give it), about a hundred lines. colour-science, the reference
implementation, costs most of a second to import (it loads scipy.interpolate and its plotting datasets),
several times what a whole `scene-agent clr` should take; it stays a test dependency, and
tests/tools/test_color_science.py holds these functions to it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

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


# sRGB as IEC 61966-2-1 publishes it: its matrices rounded to four places (the inverse rounded on its own, so
# the two are inverses only to about 1e-4), and CIELAB taken relative to the same D65 white (x 0.3127,
# y 0.3290; the CIE 1931 2° observer), so no chromatic adaptation is involved anywhere here.
_RGB_TO_XYZ = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
_XYZ_TO_RGB = np.array([[3.2406, -1.5372, -0.4986], [-0.9689, 1.8758, 0.0415], [0.0557, -0.2040, 1.0570]])
_WHITE = np.array([0.3127 / 0.3290, 1.0, (1.0 - 0.3127 - 0.3290) / 0.3290])
_DELTA = 6.0 / 29.0  # CIE 1976: where the cube root of L*a*b* meets its linear toe


def _decode(encoded: np.ndarray) -> np.ndarray:
    """sRGB's electro-optical transfer function: encoded values in [0, 1] → linear light."""
    return np.where(encoded <= 12.92 * 0.0031308, encoded / 12.92, ((encoded + 0.055) / 1.055) ** 2.4)


def _encode(linear: np.ndarray) -> np.ndarray:
    """Its inverse: linear light → encoded values (negative light is clipped to black first)."""
    linear = np.clip(linear, 0.0, None)
    return np.where(linear <= 0.0031308, linear * 12.92, 1.055 * linear ** (1.0 / 2.4) - 0.055)


def _xyz_to_lab(xyz: np.ndarray) -> np.ndarray:
    """CIE 1976 L*a*b* relative to D65."""
    t = xyz / _WHITE
    f = np.where(t > _DELTA**3, np.cbrt(t), t / (3.0 * _DELTA**2) + 4.0 / 29.0)
    return np.stack([116.0 * f[..., 1] - 16.0, 500.0 * (f[..., 0] - f[..., 1]), 200.0 * (f[..., 1] - f[..., 2])], axis=-1)


def _lab_to_xyz(lab: np.ndarray) -> np.ndarray:
    """XYZ (D65 white, Y = 1) of CIE 1976 L*a*b* colours."""
    fy = (lab[..., 0] + 16.0) / 116.0
    f = np.stack([fy + lab[..., 1] / 500.0, fy, fy - lab[..., 2] / 200.0], axis=-1)
    xyz: np.ndarray = np.where(f > _DELTA, f**3, 3.0 * _DELTA**2 * (f - 4.0 / 29.0)) * _WHITE
    return xyz


def srgb_to_lab(rgb: np.ndarray) -> np.ndarray:
    """CIELAB (D65) of sRGB colours given as N×3 uint8 (or 0-255 numbers)."""
    linear = _decode(np.asarray(rgb, dtype=np.float64) / 255.0)
    return _xyz_to_lab(linear @ _RGB_TO_XYZ.T)


def lab_to_srgb(lab: np.ndarray) -> np.ndarray:
    """sRGB uint8 of CIELAB colours (out-of-gamut values are clipped)."""
    linear = _lab_to_xyz(np.asarray(lab, dtype=np.float64)) @ _XYZ_TO_RGB.T
    return np.clip(np.rint(_encode(linear) * 255.0), 0, 255).astype(np.uint8)


def brightened(lab: np.ndarray, gain: float) -> np.ndarray:
    """A Lab colour under up to `gain` times the light: linear RGB scaled, no further than the gamut allows (hue kept)."""
    linear = np.clip(_lab_to_xyz(np.asarray(lab, dtype=np.float64)) @ _XYZ_TO_RGB.T, 0.0, None)
    linear = linear * min(gain, 1.0 / max(float(linear.max()), 1e-9))
    return _xyz_to_lab(linear @ _RGB_TO_XYZ.T)


def delta_e2000(lab1: np.ndarray, lab2: np.ndarray) -> np.ndarray:
    """CIEDE2000 colour difference (k_L = k_C = k_H = 1), broadcasting over leading axes.

    Written out as Sharma, Wu and Dalal state it ("The CIEDE2000 color-difference formula: implementation notes,
    supplementary test data, and mathematical observations", 2005), including their notes on the hue angle
    of neutral colours and the mean hue across 0°/360°; tests/tools/test_color_science.py checks it against
    colour-science and the paper's test pairs.
    """
    lab1, lab2 = np.broadcast_arrays(np.asarray(lab1, dtype=np.float64), np.asarray(lab2, dtype=np.float64))
    l1, a1, b1 = lab1[..., 0], lab1[..., 1], lab1[..., 2]
    l2, a2, b2 = lab2[..., 0], lab2[..., 1], lab2[..., 2]
    c_mean7 = ((np.hypot(a1, b1) + np.hypot(a2, b2)) / 2.0) ** 7
    g = 0.5 * (1.0 - np.sqrt(c_mean7 / (c_mean7 + 25.0**7)))
    a1p, a2p = (1.0 + g) * a1, (1.0 + g) * a2
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.where(c1p == 0, 0.0, np.degrees(np.arctan2(b1, a1p)) % 360.0)
    h2p = np.where(c2p == 0, 0.0, np.degrees(np.arctan2(b2, a2p)) % 360.0)
    neutral = c1p * c2p == 0

    dh = h2p - h1p
    dh = np.where(dh > 180.0, dh - 360.0, np.where(dh < -180.0, dh + 360.0, dh))
    dh = np.where(neutral, 0.0, dh)
    d_l, d_c = l2 - l1, c2p - c1p
    d_h = 2.0 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh / 2.0))

    l_mean, c_mean = (l1 + l2) / 2.0, (c1p + c2p) / 2.0
    h_sum = h1p + h2p
    h_mean = np.where(np.abs(h1p - h2p) <= 180.0, h_sum / 2.0,
                      np.where(h_sum < 360.0, (h_sum + 360.0) / 2.0, (h_sum - 360.0) / 2.0))
    h_mean = np.where(neutral, h_sum, h_mean)
    t = (1.0 - 0.17 * np.cos(np.radians(h_mean - 30.0)) + 0.24 * np.cos(np.radians(2.0 * h_mean))
         + 0.32 * np.cos(np.radians(3.0 * h_mean + 6.0)) - 0.20 * np.cos(np.radians(4.0 * h_mean - 63.0)))
    c_mean7p = c_mean**7
    r_t = (-2.0 * np.sqrt(c_mean7p / (c_mean7p + 25.0**7))
           * np.sin(np.radians(60.0 * np.exp(-(((h_mean - 275.0) / 25.0) ** 2)))))
    s_l = 1.0 + 0.015 * (l_mean - 50.0) ** 2 / np.sqrt(20.0 + (l_mean - 50.0) ** 2)
    s_c = 1.0 + 0.045 * c_mean
    s_h = 1.0 + 0.015 * c_mean * t
    return np.asarray(np.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h)))


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
