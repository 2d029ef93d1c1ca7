"""Colour naming: the CSS3 palette, its basic colour terms, and CIEDE2000 (never RGB) nearest names."""

from __future__ import annotations

import typing

import numpy as np
import pytest
import webcolors

from scene_agent.color.science import BASIC_OF, BASIC_TERMS, NOT_NAMES, delta_e2000, lab_to_srgb, name_rgb, palette, srgb_to_lab
from scene_agent.tools.color import BasicTerm


def test_every_css3_name_has_one_basic_term() -> None:
    assert set(BASIC_OF) == set(webcolors.names("css3"))
    assert set(BASIC_OF.values()) == set(BASIC_TERMS)
    entries, labs = palette()
    assert {e.basic for e in entries} == set(BASIC_TERMS)  # every term can be the answer
    assert len(entries) == len(labs) == len({e.rgb for e in entries})  # gray/grey twins appear once
    assert not NOT_NAMES & {e.name for e in entries}


def test_result_model_allows_exactly_the_basic_terms() -> None:
    assert set(typing.get_args(BasicTerm)) == set(BASIC_TERMS)


def test_a_palette_colour_is_named_as_itself() -> None:
    for entry in palette()[0]:
        assert name_rgb(entry.rgb) == entry


def test_lab_round_trip() -> None:
    rgb = np.array([[200, 35, 35], [0, 0, 0], [255, 255, 255], [40, 52, 100]], dtype=np.uint8)
    np.testing.assert_array_equal(lab_to_srgb(srgb_to_lab(rgb)), rgb)
    assert srgb_to_lab(np.array([[255, 255, 255]]))[0] == pytest.approx([100.0, 0.0, 0.0], abs=0.01)


def test_names_come_from_ciede2000_not_rgb_distance() -> None:
    # A saturated blue: the nearest CSS colour in RGB is royalblue, by CIEDE2000 it is darkslateblue.
    rgb = (35, 75, 190)
    entries, labs = palette()
    by_rgb = entries[int(np.argmin([np.sum((np.array(e.rgb) - rgb) ** 2) for e in entries]))]
    by_de = entries[int(np.argmin(delta_e2000(srgb_to_lab(np.array([rgb]))[0][None, :], labs)))]
    assert by_rgb.name == "royalblue" and by_de.name == "darkslateblue"
    assert name_rgb(rgb).name == by_de.name


# Colours as they are (unshaded), with the basic term a person would use. Dark, muted and in-between
# colours are where naming goes wrong; where two terms are both fair, both are accepted.
TRICKY = [
    ((120, 20, 20), {"red"}),            # dark red
    ((110, 20, 40), {"red"}),            # burgundy
    ((150, 50, 45), {"red"}),            # brick / wool red (CSS "brown" is no candidate)
    ((40, 52, 100), {"blue"}),           # navy
    ((30, 40, 90), {"blue"}),            # dark navy
    ((20, 30, 70), {"blue"}),            # midnight
    ((110, 110, 30), {"green"}),         # olive
    ((70, 75, 30), {"green"}),           # dark olive
    ((215, 200, 175), {"brown", "white"}),  # beige
    ((40, 120, 125), {"green", "blue"}),  # teal
    ((82, 56, 38), {"brown"}),           # dark wood
    ((118, 80, 52), {"brown"}),          # walnut
    ((196, 150, 98), {"brown"}),         # oak
    ((120, 75, 40), {"brown"}),          # brown
    ((200, 150, 40), {"yellow"}),        # mustard
    ((30, 30, 32), {"black"}),
    ((55, 55, 60), {"black", "gray"}),   # charcoal
    ((62, 64, 68), {"gray"}),            # graphite
    ((120, 124, 130), {"gray"}),
    ((236, 234, 228), {"white"}),
    ((240, 232, 210), {"white"}),        # cream
    ((205, 150, 150), {"pink"}),         # dusty pink
    ((240, 140, 180), {"pink"}),
    ((120, 170, 215), {"blue"}),         # sky blue
    ((150, 170, 130), {"green"}),        # sage
    ((230, 120, 30), {"orange"}),
    ((185, 95, 60), {"brown", "orange"}),  # terracotta
    ((120, 50, 150), {"purple"}),
    ((200, 160, 220), {"purple"}),       # lilac
    ((35, 75, 190), {"blue"}),
]


@pytest.mark.parametrize(("rgb", "basics"), TRICKY, ids=[str(rgb) for rgb, _ in TRICKY])
def test_tricky_colours_get_sensible_basic_terms(rgb: tuple[int, int, int], basics: set[str]) -> None:
    named = name_rgb(rgb)
    assert named.basic in basics, f"{rgb} named {named.name} ({named.basic})"
    assert named.basic == BASIC_OF[named.name]
