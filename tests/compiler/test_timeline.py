"""`phantom timeline`: the recorded day drawn as the committed golden (pixel
by pixel), the same bytes for the same rows, and clear errors."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
from PIL import Image

from compiler.api import timeline
from support.goldens import FIXTURES, TIMELINE, render_timeline_golden

PHANTOM = os.path.join(os.path.dirname(sys.executable), "phantom")
STORE = FIXTURES / TIMELINE[0]
# The lane colours of the three fixture apps and the routines' fill.
COLOURS = {"phantom-browser": (0x00, 0x72, 0xB2), "phantom-form": (0xE6, 0x9F, 0x00),
           "phantom-notes": (0x00, 0x9E, 0x73), "routines": (0x33, 0x33, 0x33)}


def pixels(path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB"), dtype=np.int16)


def test_the_recorded_day_matches_the_golden_picture(tmp_path):
    out = tmp_path / "day.png"
    render_timeline_golden(out)
    drawn, golden = pixels(out), pixels(FIXTURES / TIMELINE[2])
    assert drawn.shape == golden.shape
    differing = np.any(drawn != golden, axis=2).mean()
    assert differing < 0.002, f"{differing:.2%} of the pixels differ from the golden"
    for lane, rgb in COLOURS.items():  # every lane drawn, and bars of a sensible size
        share = np.all(drawn == rgb, axis=2).mean()
        assert 0.002 < share < 0.2, (lane, share)
    white = np.all(drawn == (255, 255, 255), axis=2).mean()
    assert white > 0.6  # a picture, not a blot


def test_the_same_rows_give_the_same_bytes_png_and_svg():
    for fmt in ("png", "svg"):
        first = timeline(STORE, fmt, day="2026-11-29")
        assert first == timeline(STORE, fmt, day="2026-11-29")
    svg = timeline(STORE, "svg", day="2026-11-29").decode()
    assert "<dc:date>" not in svg and "Matplotlib" not in svg.split("<svg", 1)[0]
    assert timeline(STORE, "png", day="2026-11-29").startswith(b"\x89PNG")


def test_an_empty_day_is_still_a_picture():
    assert timeline(STORE, "png", day="2026-01-01").startswith(b"\x89PNG")


def test_the_picture_format_comes_from_the_file_name(tmp_path):
    result = subprocess.run([PHANTOM, "timeline", "--db", str(STORE), "--day", "2026-11-29", "--out",
                             str(tmp_path / "day.jpg")], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "--out must end in .png or .svg" in result.stderr
    assert not (tmp_path / "day.jpg").exists()
