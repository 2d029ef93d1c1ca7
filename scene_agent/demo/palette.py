"""Named base colours (sRGB 0-255) of the demo home's materials, lit fully by the light."""

from __future__ import annotations

RGB = tuple[int, int, int]

# Woods and finishes.
OAK: RGB = (196, 150, 98)
WALNUT: RGB = (118, 80, 52)
PINE: RGB = (222, 190, 140)
DARK_WOOD: RGB = (82, 56, 38)
WHITE_PAINT: RGB = (236, 234, 228)
OFF_WHITE: RGB = (226, 220, 205)
BLACK: RGB = (30, 30, 32)
GRAPHITE: RGB = (62, 64, 68)
STEEL: RGB = (170, 172, 176)
BRASS: RGB = (190, 150, 70)
CERAMIC: RGB = (240, 240, 236)
GLASS_DARK: RGB = (40, 48, 56)
GLASS: RGB = (170, 190, 200)  # window panes: a light blue-grey, the sky and the room reflected
SCREEN: RGB = (22, 24, 28)

# Fabrics.
SOFA_GREY: RGB = (120, 124, 130)
TEAL: RGB = (40, 120, 125)
MUSTARD: RGB = (200, 150, 40)
NAVY: RGB = (40, 52, 100)
BEIGE_LINEN: RGB = (215, 200, 175)
DUSTY_PINK: RGB = (205, 150, 150)
SKY_BLUE: RGB = (120, 170, 215)
SAGE: RGB = (150, 170, 130)
CHARCOAL: RGB = (55, 55, 60)
WOOL_RED: RGB = (150, 50, 45)
CREAM: RGB = (240, 232, 210)

# Painted kitchen chairs: four basic colour terms far apart in RGB, so "compare the chairs" has
# an obvious answer.
CHAIR_RED: RGB = (200, 35, 35)
CHAIR_BLUE: RGB = (35, 75, 190)
CHAIR_GREEN: RGB = (40, 150, 60)
CHAIR_YELLOW: RGB = (235, 200, 40)

# Plants.
LEAF_GREEN: RGB = (60, 125, 50)
LEAF_DARK: RGB = (35, 90, 40)
TERRACOTTA: RGB = (185, 95, 60)
SOIL: RGB = (70, 50, 35)

# Book spines, cycled along a shelf.
BOOKS: tuple[RGB, ...] = (
    (150, 40, 40), (40, 70, 130), (220, 210, 190), (50, 110, 70), (30, 30, 35),
    (200, 150, 60), (120, 60, 110), (180, 180, 175), (90, 60, 40), (60, 140, 160),
)

# Room shells.
CEILING_WHITE: RGB = (245, 245, 242)
SKIRTING_WHITE: RGB = (232, 230, 224)
FLOOR_OAK: RGB = (176, 128, 80)
FLOOR_TILE: RGB = (205, 205, 200)
FLOOR_SLATE: RGB = (110, 112, 115)
CARPET_GREY: RGB = (150, 145, 140)
WALL_WARM_WHITE: RGB = (238, 232, 218)
WALL_SAGE: RGB = (190, 205, 180)
WALL_GREY: RGB = (205, 207, 210)
WALL_BLUE: RGB = (180, 200, 222)
WALL_PEACH: RGB = (240, 210, 185)
WALL_TILE: RGB = (225, 232, 235)
