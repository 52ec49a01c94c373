"""The visual matcher on real screenshots (fixtures/visual/, grabbed by
bench/visual_fixtures.py): the canvas app as recorded, then zoomed 1.25×
and shifted, with controls swapped, an icon duplicated or hidden; and Debian
GTK windows rescaled. No desktop: numpy arrays in, verdicts out."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from core.visual_evidence import Masks, crop_variants
from replay.visual.matcher import ACCEPT, AMBIGUOUS, NOT_FOUND, OUTSIDE, reaim
from replay.visual.templates import BadCrop, decode, from_pixels

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "visual"
CASES = json.loads((FIXTURES / "cases.json").read_text())
DRIFT = json.loads((FIXTURES / "drift.json").read_text())


def rgb(name: str) -> np.ndarray:
    return np.asarray(Image.open(FIXTURES / f"{name}.png").convert("RGB"))


def bgr(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_RGB2BGR)


def centre(rect) -> tuple[int, int]:
    x, y, w, h = rect
    return int(x + w // 2), int(y + h // 2)


def controls(table: dict, screen: str) -> dict[str, list]:
    return {c["name"]: [int(round(v)) for v in c["rect"]] for c in table[screen]["controls"]}


def templates(image: np.ndarray, x: int, y: int, masks: Masks = Masks()):
    """The crops the capture hook makes, through the PNG round trip a program stores."""
    height, width = image.shape[:2]
    return [decode(v.data, v.sha256, v.kind, (v.ratio_x, v.ratio_y), (v.x, v.y))
            for v in crop_variants(image, x, y, (0, 0, width, height), masks)]


RECORDED = rgb("canvas")
RECORDED_WINDOW = (0, 0, *CASES["canvas"]["size"])
RECORDED_AT = controls(CASES, "canvas")


def replay_on(screen: str, name: str, *, moved_to=(300, 200), **options):
    """Re-aim the recorded click on `name` on a drifted canvas screen, the
    window now at `moved_to` on the desktop."""
    picture = bgr(rgb(screen))
    at = (*moved_to, picture.shape[1], picture.shape[0])
    click = centre(RECORDED_AT[name])
    return reaim(picture, at, templates(RECORDED, *click), click, RECORDED_WINDOW, **options)


@pytest.mark.parametrize("name", sorted(RECORDED_AT))
def test_every_canvas_control_is_found_again_on_the_screen_it_was_recorded_on(name):
    click = centre(RECORDED_AT[name])
    result = reaim(bgr(RECORDED), RECORDED_WINDOW, templates(RECORDED, *click), click, RECORDED_WINDOW)
    assert result.accepted, result.reason
    assert result.point == click and result.shift == (0, 0) and result.score == pytest.approx(1.0)


@pytest.mark.parametrize("name", sorted(RECORDED_AT))
def test_zoomed_and_moved_controls_are_found_where_they_are_drawn_now(name):
    result = replay_on("canvas-zoomed", name)
    drawn = controls(DRIFT, "canvas-zoomed")[name]
    expected = (300 + drawn[0] + drawn[2] / 2, 200 + drawn[1] + drawn[3] / 2)
    assert result.accepted, result.reason
    assert math.dist(result.point, expected) <= 2, (result.point, expected)
    assert result.scale == pytest.approx(1.25, abs=0.03) and result.score >= ACCEPT
    assert result.reason.startswith("visual re-aim: γ*=")


def test_a_control_drawn_where_another_used_to_be_is_never_taken_for_it():
    swapped = controls(DRIFT, "canvas-swapped")
    for name in ("red", "blue"):
        result = replay_on("canvas-swapped", name, moved_to=(0, 0))
        assert result.accepted, result.reason
        assert math.dist(result.point, centre(swapped[name])) <= 1
        assert math.dist(result.point, centre(RECORDED_AT[name])) > 100      # not the old place


def test_two_identical_icons_side_by_side_are_refused_as_ambiguous():
    result = replay_on("canvas-duplicate", "star")
    assert result.verdict == AMBIGUOUS and result.point is None
    assert "2 places" in result.reason and "appeared since" in result.reason


def test_a_control_replaced_by_another_is_not_found_by_its_surroundings():
    # Where the heart was, the duplicated star is drawn: the context matches, the heart does not.
    result = replay_on("canvas-duplicate", "heart")
    assert result.verdict == NOT_FOUND and result.point is None
    assert "the control itself does not" in result.reason


def test_a_control_that_is_gone_is_not_found_and_says_its_best_score():
    result = replay_on("canvas-hidden", "star")
    assert result.verdict == NOT_FOUND and result.point is None
    assert f"{result.score:.3f}" in result.reason and result.score > 0


def test_colour_tells_buttons_with_the_same_shape_apart():
    # Blue gone: where it was, and beside it, only the grey Save button is left.
    painted = RECORDED.copy()
    bx, by, bw, bh = RECORDED_AT["blue"]
    sx, sy, _, _ = RECORDED_AT["save"]
    painted[by - 8:by + bh + 8, bx - 8:bx + bw + 8] = painted[by - 8, bx - 8]
    painted[by:by + bh, bx:bx + bw] = RECORDED[sy:sy + bh, sx:sx + bw]
    click = centre(RECORDED_AT["blue"])
    result = reaim(bgr(painted), RECORDED_WINDOW, templates(RECORDED, *click), click, RECORDED_WINDOW)
    assert not result.accepted, result.reason


def test_a_consequential_step_needs_no_rival_anywhere_in_the_window():
    # The buttons share their shape: a rival above 0.78 exists for Save.
    click = centre(RECORDED_AT["save"])
    crops = templates(RECORDED, *click)
    picture = bgr(RECORDED)
    assert reaim(picture, RECORDED_WINDOW, crops, click, RECORDED_WINDOW).accepted
    strict = reaim(picture, RECORDED_WINDOW, crops, click, RECORDED_WINDOW, thorough=True)
    assert strict.verdict == AMBIGUOUS and "consequential" in strict.reason
    star = centre(RECORDED_AT["star"])
    assert reaim(picture, RECORDED_WINDOW, templates(RECORDED, *star), star, RECORDED_WINDOW,
                 thorough=True).accepted


def test_a_point_outside_the_screen_is_refused():
    # The window reaches past the screen's right edge; the control lies beyond it.
    click = centre(RECORDED_AT["blue"])
    result = reaim(bgr(RECORDED), RECORDED_WINDOW, templates(RECORDED, *click), click,
                   RECORDED_WINDOW, screen=(0, 0, 300, 800))
    assert result.verdict == OUTSIDE and "outside" in result.reason and result.point is None


def test_masked_pixels_are_left_out_of_the_match():
    screen = rgb("form")
    fields = [c["rect"] for c in CASES["form"]["controls"] if c["role"] == "text"]
    name_field = min(fields, key=lambda r: r[1])
    x, y = name_field[0] + 20, name_field[1] + name_field[3] // 2
    crops = templates(screen, x, y, Masks(editable=tuple(tuple(f) for f in fields)))
    assert crops[0].mask is not None
    typed = screen.copy()                  # the field now holds text it did not hold then
    fx, fy, fw, fh = name_field
    typed[fy + 6:fy + fh - 6, fx + 6:fx + 90] = 20
    result = reaim(bgr(typed), (0, 0, typed.shape[1], typed.shape[0]), crops, (x, y),
                   (0, 0, typed.shape[1], typed.shape[0]))
    assert result.accepted and result.point == (x, y), result.reason


def test_look_alikes_are_told_apart_by_their_recorded_surroundings():
    """gtk3-widget-factory shows four notebooks, each with a 'page 3' tab:
    the target crop finds them alike, the context crop only the clicked one."""
    screen = rgb("widget-factory-1")
    tabs = [c["rect"] for c in CASES["widget-factory-1"]["controls"] if c["name"] == "page 3"]
    click = centre(tabs[0])
    factor = 0.8
    size = (round(screen.shape[1] * factor), round(screen.shape[0] * factor))
    picture = cv2.resize(bgr(screen), size, interpolation=cv2.INTER_AREA)
    result = reaim(picture, (0, 0, *size), templates(screen, *click), click,
                   (0, 0, screen.shape[1], screen.shape[0]))
    assert result.accepted and result.variant != "target", result.reason
    target_attempt = next(a for a in result.attempts if a.variant == "target")
    assert target_attempt.rival >= ACCEPT                 # the look-alikes were seen
    expected = ((click[0] + 0.5) * factor, (click[1] + 0.5) * factor)
    assert math.dist(result.point, expected) <= 2


def test_flat_crops_are_scored_by_squared_difference():
    plain = np.full((64, 64, 3), 235, np.uint8)
    assert from_pixels("target", plain, (0.5, 0.5)).flat
    picture = np.full((300, 300, 3), 235, np.uint8)
    result = reaim(picture, (0, 0, 300, 300), [from_pixels("target", plain, (0.5, 0.5))],
                   (150, 150))
    assert result.verdict == AMBIGUOUS and result.attempts[0].method == "sqdiff"
    assert "plain" in result.reason


def test_a_corrupt_or_misaddressed_crop_blob_is_refused():
    variant = crop_variants(RECORDED, *centre(RECORDED_AT["red"]), RECORDED_WINDOW)[0]
    with pytest.raises(BadCrop, match="does not hash to its address"):
        decode(variant.data, "0" * 64, "target", (0.5, 0.5), (0, 0))
    broken = b"not a png"
    import hashlib

    with pytest.raises(BadCrop, match="not a readable image"):
        decode(broken, hashlib.sha256(broken).hexdigest(), "target", (0.5, 0.5), (0, 0))


def test_the_region_of_interest_follows_the_window_and_decides_first():
    result = replay_on("canvas-zoomed", "green", moved_to=(900, 600))
    assert result.accepted and result.region == "roi"
    assert [a.region for a in result.attempts] == ["roi"]


def test_a_consequential_click_on_a_plain_spot_is_decided_by_its_surroundings():
    click = (160, 215)                       # plain background between the icons and the status line
    crops = templates(RECORDED, *click)
    assert crops[0].flat and not crops[1].flat
    result = reaim(bgr(RECORDED), RECORDED_WINDOW, crops, click, RECORDED_WINDOW, thorough=True)
    assert result.accepted and result.variant != "target" and result.point == click, result.reason
