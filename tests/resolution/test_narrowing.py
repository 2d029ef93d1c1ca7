"""Colour, size, place and order words narrowing candidates, with the margins that keep near ties for the user to settle."""

from __future__ import annotations

from scene_agent.language.color_words import color_word
from scene_agent.language.order_words import order_word
from scene_agent.language.size_words import size_word
from scene_agent.resolution.narrowing import by_color, by_order, by_size
from scene_agent.scene.attributes import ColorPart, ItemAttributes, PointSource

PARTS = {  # basic, lab: measured colours as the colour tool gives them
    "red": ("red", (44.0, 60.0, 40.0)), "blue": ("blue", (35.0, 20.0, -60.0)), "navy": ("blue", (20.0, 15.0, -35.0)),
    "sky": ("blue", (79.0, -8.0, -28.0)), "charcoal": ("gray", (29.0, 1.0, -3.0)), "grey": ("gray", (55.0, 0.0, -2.0)),
    "white": ("white", (98.0, -2.0, 8.0)), "brown": ("brown", (42.0, 12.0, 24.0)),
}


def item(code: str, colors: list[tuple[str, float]] = (), volume: float = 1.0, extent: tuple = (1.0, 0.5, 1.0),
         box: tuple = (0, 0, 1, 1, 0, 1)) -> ItemAttributes:
    x0, y0, x1, y1, z0, z1 = box
    parts = [ColorPart(basic=PARTS[name][0], name=name, hex="#000000", lab=PARTS[name][1], share=share)
             for name, share in colors]
    return ItemAttributes(code=code, kind="object", points=100, colors=parts, volume_m3=volume, extent_m=extent, upright=True,
                          z_min=z0, z_max=z1, center=((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2),
                          footprint=[(x0, y0), (x1, y0), (x1, y1), (x0, y1)],
                          source=PointSource(file=f"points/{code}.ply", size=1, digest="0" * 32))


def word(text: str):
    return color_word(text.split())[0]


CHAIRS = {"a": item("0-1-1", [("red", 1.0)]), "b": item("0-1-2", [("blue", 1.0)]), "c": item("0-1-3", [("charcoal", 1.0)]),
          "d": item("0-1-4", [("white", 0.75), ("red", 0.25)])}
CODES = {c.code: c for c in CHAIRS.values()}


def test_a_colour_keeps_what_has_it_mostly() -> None:
    assert by_color(list(CODES), word("red"), CODES.__getitem__).kept == ("0-1-1",)  # the red-trimmed white one is white
    assert by_color(list(CODES), word("black"), CODES.__getitem__).kept == ("0-1-3",)  # charcoal is black to people
    assert by_color(list(CODES), word("grey"), CODES.__getitem__).kept == ("0-1-3",)   # … and dark grey
    missing = by_color(list(CODES), word("purple"), CODES.__getitem__)
    # what each has is said as the colour tool says it (its charcoal is filed under gray): one vocabulary
    assert missing.kept == () and missing.values == {"0-1-1": "red", "0-1-2": "blue", "0-1-3": "gray", "0-1-4": "white"}


def test_a_finer_colour_name_keeps_the_nearest() -> None:
    rugs = {c.code: c for c in (item("0-2-1", [("navy", 1.0)]), item("0-2-2", [("sky", 1.0)]), item("0-2-3", [("blue", 1.0)]))}
    assert by_color(list(rugs), word("blue"), rugs.__getitem__).kept == ("0-2-1", "0-2-2", "0-2-3")
    assert by_color(list(rugs), word("navy"), rugs.__getitem__).kept == ("0-2-1",)
    assert by_color(list(rugs), word("sky blue"), rugs.__getitem__).kept == ("0-2-2",)
    dark = by_color(list(rugs), word("dark blue"), rugs.__getitem__)
    assert dark.kept == ("0-2-1",) and not dark.tied


def test_a_tone_alone_picks_the_darkest_unless_two_are_as_dark() -> None:
    assert by_color(list(CODES), word("dark"), CODES.__getitem__).kept == ("0-1-3",)
    pair = {c.code: c for c in (item("0-3-1", [("navy", 1.0)]), item("0-3-2", [("charcoal", 1.0)]), item("0-3-3", [("white", 1.0)]))}
    tie = by_color(list(pair), word("dark"), pair.__getitem__)
    assert tie.kept == ("0-3-1", "0-3-2") and tie.tied


def test_superlatives_pick_one_or_keep_a_tie() -> None:
    sizes = {c.code: c for c in (item("0-4-1", volume=1.44, extent=(1.2, 0.6, 2.0)), item("0-4-2", volume=1.2, extent=(1.0, 0.6, 2.0)),
                                  item("0-4-3", volume=1.05, extent=(1.0, 0.55, 1.9)))}
    biggest = by_size(list(sizes), size_word(["biggest"])[0], sizes.__getitem__)
    assert (biggest.kept, biggest.tied, biggest.measure) == (("0-4-1",), False, "size")
    tallest = by_size(list(sizes), size_word(["tallest"])[0], sizes.__getitem__)
    assert tallest.kept == ("0-4-1", "0-4-2") and tallest.tied  # 2.00 m each: too close to tell apart
    assert by_size(list(sizes), size_word(["widest"])[0], sizes.__getitem__).kept == ("0-4-1",)
    assert by_size(list(sizes), size_word(["smaller"])[0], sizes.__getitem__).kept == ("0-4-3",)


def test_plain_size_words_keep_the_clearly_big_ones() -> None:
    volumes = [0.81, 0.62, 0.57, 0.39, 0.25, 0.04]
    cabinets = {f"0-5-{i}": item(f"0-5-{i}", volume=v) for i, v in enumerate(volumes, start=1)}
    large = by_size(list(cabinets), size_word(["large"])[0], cabinets.__getitem__)
    assert large.kept == ("0-5-1", "0-5-2", "0-5-3", "0-5-4") and large.tied
    assert by_size(list(cabinets), size_word(["small"])[0], cabinets.__getitem__).kept == ("0-5-6",)


def test_a_rug_is_sized_by_its_area_among_rugs_and_by_its_bulk_among_furniture() -> None:
    big_rug = item("0-6-1", volume=None, extent=(3.0, 2.0, 0.01), box=(0, 0, 3, 2, 0, 0.01))   # 6 m², 0.06 m³ of bulk
    small_rug = item("0-6-2", volume=None, extent=(1.0, 1.0, 0.01), box=(3, 0, 4, 1, 0, 0.01))
    sofa = item("0-6-3", volume=1.6, extent=(2.2, 0.95, 0.86), box=(0, 3, 2.2, 3.95, 0, 0.86))  # 2.1 m² of floor
    things = {c.code: c for c in (big_rug, small_rug, sofa)}
    biggest = size_word(["biggest"])[0]
    assert by_size(["0-6-1", "0-6-2"], biggest, things.__getitem__).kept == ("0-6-1",)
    assert by_size(list(things), biggest, things.__getitem__).kept == ("0-6-3",)  # not 6 m² against 1.6 m³


def test_order_words_among_listed_candidates() -> None:
    listed = ["0-1-1", "0-1-2", "0-1-3"]
    assert by_order(listed, order_word("the third one")[0]).kept == ("0-1-3",)
    assert by_order(listed, order_word("the fifth")[0]).kept == ()
    assert by_order(listed, order_word("the other ones")[0], taken=["0-1-2"]).kept == ("0-1-1", "0-1-3")
