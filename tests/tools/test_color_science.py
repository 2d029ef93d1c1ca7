"""The colour tool's sRGB ↔ CIELAB and CIEDE2000, held to colour-science (the reference implementation) and to the
published CIEDE2000 test pairs."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from scene_agent.color.science import brightened, delta_e2000, lab_to_srgb, srgb_to_lab

with warnings.catch_warnings():  # colour-science warns that matplotlib is missing: its plots are not used
    warnings.simplefilter("ignore")
    import colour

# Pairs from Sharma, Wu and Dalal (2005), table 1: Lab₁, Lab₂ and ΔE00 to four decimals. They cover the neutral
# axis (hue undefined), hue differences across 0°/360°, and the blue region where the rotation term R_T matters.
SHARMA_PAIRS = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
    ((50.0, 2.8361, -74.0200), (50.0, 0.0, -82.7485), 3.4412),
    ((50.0, -1.3802, -84.2814), (50.0, 0.0, -82.7485), 1.0000),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, -1.0, 2.0), (50.0, 0.0, 0.0), 2.3669),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0009), 7.1792),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0010), 7.1792),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0011), 7.2195),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0012), 7.2195),
    ((50.0, -0.001, 2.49), (50.0, 0.0009, -2.49), 4.8045),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((50.0, 2.5, 0.0), (61.0, -5.0, 29.0), 22.8977),
    ((50.0, 2.5, 0.0), (56.0, -27.0, -3.0), 31.9030),
    ((50.0, 2.5, 0.0), (58.0, 24.0, 15.0), 19.4535),
    ((50.0, 2.5, 0.0), (50.0, 3.1736, 0.5854), 1.0000),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((63.0109, -31.0961, -5.8663), (62.8187, -29.7946, -4.0864), 1.2630),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
]


def reference(function: str, *args: object, **kwargs: object) -> np.ndarray:
    """A colour-science function's result, its warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(getattr(colour, function)(*args, **kwargs), dtype=np.float64)


def every_srgb_colour_sampled() -> np.ndarray:
    """A grid through the whole sRGB cube (every 15th level of each channel, ends included), 4,913 colours."""
    levels = np.arange(0, 256, 15)
    return np.stack(np.meshgrid(levels, levels, levels, indexing="ij"), axis=-1).reshape(-1, 3)


@pytest.mark.parametrize(("lab1", "lab2", "expected"), SHARMA_PAIRS)
def test_ciede2000_gives_the_published_differences(lab1: tuple[float, ...], lab2: tuple[float, ...], expected: float) -> None:
    assert float(delta_e2000(np.array(lab1), np.array(lab2))) == pytest.approx(expected, abs=5e-5)


def test_ciede2000_agrees_with_colour_science_everywhere_and_broadcasts() -> None:
    rng = np.random.default_rng(7)
    lab1 = np.column_stack([rng.uniform(0, 100, 5000), rng.uniform(-110, 110, 5000), rng.uniform(-110, 110, 5000)])
    lab2 = lab1 + rng.normal(0, 8, lab1.shape)
    lab2[::7, 1:] = 0.0  # neutrals: hue undefined
    lab2[1::11] = lab1[1::11]  # identical pairs: zero
    ours = delta_e2000(lab1, lab2)
    np.testing.assert_allclose(ours, reference("delta_E", lab1, lab2, method="CIE 2000"), rtol=0, atol=1e-9)
    assert np.all(ours[1::11] == 0.0)
    palette = lab1[:50]
    assert delta_e2000(lab1[0][None, :], palette).shape == (50,)  # one colour against a palette


def test_srgb_to_lab_agrees_with_colour_science_across_the_cube() -> None:
    rgb = every_srgb_colour_sampled()
    expected = reference("XYZ_to_Lab", reference("sRGB_to_XYZ", rgb / 255.0))
    np.testing.assert_allclose(srgb_to_lab(rgb), expected, rtol=0, atol=1e-9)
    # White is D65, as near as the standard's four-place matrix puts it.
    np.testing.assert_allclose(srgb_to_lab(np.array([[255, 255, 255]]))[0], [100.0, 0.0, 0.0], atol=0.01)
    np.testing.assert_allclose(srgb_to_lab(np.array([[0, 0, 0]]))[0], [0.0, 0.0, 0.0], atol=1e-12)


def test_lab_to_srgb_round_trips_and_matches_colour_science_out_of_gamut() -> None:
    rgb = every_srgb_colour_sampled()
    assert np.array_equal(lab_to_srgb(srgb_to_lab(rgb)), rgb)
    wild = np.array([[50.0, 120.0, -130.0], [95.0, -80.0, 90.0], [5.0, 40.0, 40.0], [100.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
    expected = np.clip(np.rint(reference("XYZ_to_sRGB", reference("Lab_to_XYZ", wild)) * 255.0), 0, 255)
    assert np.array_equal(lab_to_srgb(wild), expected.astype(np.uint8))


def test_brightened_scales_the_light_but_not_past_the_gamut_and_keeps_the_hue() -> None:
    dark_red = srgb_to_lab(np.array([[90, 20, 20]]))[0]
    lighter = brightened(dark_red, 2.0)
    assert lighter[0] > dark_red[0]
    hue = np.degrees(np.arctan2(dark_red[2], dark_red[1]))
    assert np.degrees(np.arctan2(lighter[2], lighter[1])) == pytest.approx(hue, abs=1.5)
    at_most = brightened(dark_red, 1000.0)  # limited by the gamut: the brightest channel reaches full scale
    assert lab_to_srgb(at_most[None, :])[0].max() == 255
    srgb = colour.RGB_COLOURSPACES["sRGB"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        linear = np.clip(colour.XYZ_to_RGB(colour.Lab_to_XYZ(dark_red), srgb, apply_cctf_encoding=False), 0.0, None) * 2.0
        expected = colour.XYZ_to_Lab(colour.RGB_to_XYZ(linear, srgb, apply_cctf_decoding=False))
    np.testing.assert_allclose(lighter, expected, atol=1e-9)
