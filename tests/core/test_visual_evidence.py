"""The capture hook for visual evidence: three crops around a click, where
the click lies in each, pushed inside the window, with excluded windows and
editable fields' interiors blacked out and left out of matching (alpha 0)."""

from __future__ import annotations

import hashlib
import io

import numpy as np
import pytest
from PIL import Image

from core.visual_evidence import EvidenceError, Masks, crop_variants


def screen(width=800, height=600):
    """A deterministic, textured screen: every pixel differs from its neighbours."""
    ys, xs = np.mgrid[0:height, 0:width]
    return np.stack([(xs * 7 + ys * 3) % 256, (xs * 5 + ys * 11) % 256, (xs ^ ys) % 256],
                    axis=2).astype(np.uint8)


def decoded(variant):
    return np.asarray(Image.open(io.BytesIO(variant.data)))


def test_three_crops_centred_on_the_click_with_its_ratio_inside_each():
    shot = screen()
    variants = crop_variants(shot, 400, 300, (100, 100, 600, 450))
    assert [(v.kind, v.width, v.height) for v in variants] == [
        ("target", 64, 64), ("context", 128, 128), ("wide", 256, 256)]
    target = variants[0]
    assert (target.x, target.y) == (368, 268)
    # The click's pixel centre: (400 - 368 + 0.5) / 64.
    assert (target.ratio_x, target.ratio_y) == (0.5078, 0.5078)
    assert np.array_equal(decoded(target), shot[268:332, 368:432])
    assert target.sha256 == hashlib.sha256(target.data).hexdigest() and target.masked == 0


def test_a_click_near_the_window_edge_keeps_its_true_place_in_the_crop():
    variants = crop_variants(screen(), 105, 300, (100, 100, 600, 450))
    target, wide = variants[0], variants[2]
    assert (target.x, wide.x) == (100, 100)      # pushed right, inside the window
    assert target.ratio_x == round(5.5 / 64, 4) and wide.ratio_x == round(5.5 / 256, 4)


def test_a_small_window_cuts_the_crops_and_drops_the_repeats():
    variants = crop_variants(screen(), 150, 130, (100, 100, 120, 80))
    assert [(v.kind, v.width, v.height) for v in variants] == [("target", 64, 64), ("context", 120, 80)]


def test_a_click_outside_the_windows_visible_part_has_no_evidence():
    assert crop_variants(screen(), 50, 50, (100, 100, 300, 300)) == ()
    assert crop_variants(screen(400, 300), 450, 150, (300, 100, 400, 100)) == ()  # off the screenshot


def test_excluded_windows_are_black_and_transparent_in_every_crop():
    shot = screen()
    masks = Masks(excluded=((400, 250, 200, 200),))
    variants = crop_variants(shot, 380, 300, (0, 0, 800, 600), masks)
    for variant in variants:
        pixels = decoded(variant)
        assert pixels.shape[2] == 4
        inside = pixels[250 - variant.y:, 400 - variant.x:]
        assert not inside.any()                     # black and alpha 0
        outside = pixels[:, :400 - variant.x]
        assert (outside[:, :, 3] == 255).all()
        assert np.array_equal(outside[:, :, :3], shot[variant.y:variant.y + variant.height,
                                                      variant.x:400])


def test_an_editable_field_keeps_its_frame_and_loses_its_interior():
    shot = screen()
    field = (300, 280, 200, 30)
    target = crop_variants(shot, 400, 295, (0, 0, 800, 600), Masks(editable=(field,)))[0]
    pixels = decoded(target)
    row = 295 - target.y
    frame_col = 300 - target.x if target.x <= 300 else None
    assert frame_col is None or pixels[row, frame_col, 3] == 255
    assert (pixels[283 - target.y:307 - target.y, :, 3] == 0).all()       # 3 px of frame kept
    assert (pixels[282 - target.y, :, 3] == 255).all()
    assert target.masked == 24 * 64


def test_a_crop_that_would_be_mostly_masked_is_left_out():
    variants = crop_variants(screen(), 400, 300, (0, 0, 800, 600),
                             Masks(editable=((350, 250, 100, 100),)))
    assert [v.kind for v in variants] == ["context", "wide"]


def test_a_screenshot_that_starts_elsewhere_on_the_desktop():
    shot = screen(400, 300)
    variants = crop_variants(shot, 1300, 250, (1100, 100, 400, 300), origin=(1100, 100))
    target = variants[0]
    assert (target.x, target.y) == (1268, 218)
    assert np.array_equal(decoded(target), shot[118:182, 168:232])


def test_the_same_screen_gives_the_same_bytes():
    first = crop_variants(screen(), 400, 300, (0, 0, 800, 600))
    second = crop_variants(screen().copy(), 400, 300, (0, 0, 800, 600))
    assert [v.sha256 for v in first] == [v.sha256 for v in second]


@pytest.mark.parametrize("bad", [np.zeros((10, 10), np.uint8), np.zeros((10, 10, 3), np.float32),
                                 [[1, 2, 3]]])
def test_a_screenshot_that_is_not_an_image_is_a_clear_error(bad):
    with pytest.raises(EvidenceError, match="uint8 array"):
        crop_variants(bad, 1, 1, (0, 0, 10, 10))
