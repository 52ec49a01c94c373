"""Refining a coarse place at full resolution (docs/VISUAL.md §2): the
scale searched, then the place looked at down a pyramid of shrunk copies to
full resolution, where the score and the click point are read. Also
`score_at`, the score of a crop at a given point and scale (the core check,
telling look-alikes apart).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .places import FINE_STEP, SCALES, STEP, Candidate, Region, scaled
from .scoring import Cache, match, resized, shrunk
from .templates import Template

SWEEP_STEPS = 2          # scales of the set searched either side of a place's coarse one


def refine(area: np.ndarray, template: Template, place: Candidate, factor: int, method: str,
            region: Region, cache: Cache | None, settled: float | None = None,
            scales: tuple[float, ...] = SCALES) -> Candidate | None:
    """The place matched again, down a pyramid to full resolution.

    On the first level (the area shrunk by half the coarse factor) the
    scale is searched: the scales of the set up to two steps either side of
    the coarse one (the coarse pass can be two steps off, and a crop of
    repeated strokes can score well at a wrong scale: measured, 0.93 one
    and a half steps from the right one), then half, quarter and eighth
    steps beside the best (about 1 %: a pixel at 100 pixels a side). Each finer level looks again around the
    place found at the scale found; full resolution climbs once more in
    eighth steps (a shrunk copy can mislead the scale on a crop whose few
    sharp strokes decide). The score and the click point are those of full
    resolution; the shrunk levels only keep the large crops cheap. With
    `settled`, the scale is not searched but looked at an eighth of a step
    either side of it."""
    level = max(1, factor // 2)
    width, height = template.size
    base_w, base_h = scaled(width, place.scale), scaled(height, place.scale)
    centre = (place.left + base_w / 2, place.top + base_h / 2)
    best, scale = None, settled or place.scale
    while True:
        small = shrunk(area, level, region, cache)
        # The coarse spot is a coarse pixel (factor pixels) off at most, plus
        # what a wrong coarse scale moves the crop's centre; later levels
        # start from the previous one (two pixels of theirs at most).
        pad = 2 * factor // level + 1 if best is None else 3
        at = (centre[0] / level, centre[1] / level)

        def match(trial: float, small: Any = small, at: tuple[float, float] = at, pad: int = pad,
                  level: int = level) -> Candidate | None:
            # Bound now: the level's picture, centre and padding (called only within this pass).
            return match_near(small, template, trial / level, at, pad, method, cache)

        if best is None and settled is None:
            near = tuple(s for s in scales if abs(math.log(s / scale, STEP)) <= SWEEP_STEPS + 1e-9)
            found, scale = _sweep(match, near or scales)
            found, scale = _climb(match, scale, FINE_STEP, 1, found)
            found, scale = _climb(match, scale, FINE_STEP / 2, 1, found)
            found, scale = _climb(match, scale, FINE_STEP / 4, 1, found)
        elif best is None or (level == 1 and settled is None):
            found, scale = _climb(match, scale, FINE_STEP / 4, 1 if settled else 3)
        else:
            found = match(scale)
        if found is None:
            return best if level == 1 else None
        tw, th = scaled(width, scale), scaled(height, scale)
        centre = (found.left * level + tw / 2, found.top * level + th / 2)
        best = found
        if level == 1:
            return Candidate(best.score, best.x, best.y, best.left, best.top, scale)
        level //= 2


# A crop scored near one place at a trial scale (bound to one pyramid level).
Trial = Callable[[float], Candidate | None]


def _sweep(match: Trial, scales: tuple[float, ...]) -> tuple[Candidate | None, float]:
    """The best of every scale of the set."""
    best, chosen = None, scales[0]
    for scale in scales:
        candidate = match(scale)
        if candidate is not None and (best is None or candidate.score > best.score):
            best, chosen = candidate, scale
    return best, chosen


def _climb(match: Trial, scale: float, step: float, limit: int,
           found: Candidate | None = None) -> tuple[Candidate | None, float]:
    """Hill-climb the score over the scale in `step`s (exponents of STEP),
    at most `limit` steps either way, within the scale set's range."""
    low, high = SCALES[0] / STEP, SCALES[-1] * STEP
    best = found if found is not None else match(scale)
    for direction in (1, -1):
        moved = False
        for _ in range(limit):
            trial = scale * STEP ** (direction * step)
            if not low <= trial <= high:
                break
            candidate = match(trial)
            if candidate is None or (best is not None and candidate.score <= best.score):
                break
            best, scale, moved = candidate, trial, True
        if moved:
            break            # it rose this way: the other way can only fall
    return best, scale


def score_at(picture: np.ndarray, template: Template, point: tuple[float, float], scale: float,
             *, pad: int = 2) -> float:
    """The best score of `template` near `scale` whose click point lies
    within `pad` pixels of `point` (picture pixels); 0 when it cannot fit."""
    found = place_at(picture, template, point, scale, pad=pad)
    return found.score if found is not None else 0.0


def place_at(picture: np.ndarray, template: Template, point: tuple[float, float], scale: float,
             *, pad: int = 2) -> Candidate | None:
    """The best place of `template` near `scale` whose click point lies
    within `pad` pixels of `point` (picture pixels); None when it cannot fit."""
    method = "sqdiff" if template.flat else "ccoeff"
    width, height = template.size
    best: Candidate | None = None
    for exponent in (-FINE_STEP / 4, 0.0, FINE_STEP / 4):
        size = scaled(width, scale * STEP ** exponent), scaled(height, scale * STEP ** exponent)
        centre = (point[0] - template.ratio[0] * size[0] + 0.5 + size[0] / 2,
                  point[1] - template.ratio[1] * size[1] + 0.5 + size[1] / 2)
        found = match_near(picture, template, scale * STEP ** exponent, centre, pad, method)
        if found is not None and (best is None or found.score > best.score):
            best = found
    return best


def match_near(area: np.ndarray, template: Template, scale: float, centre: tuple[float, float],
                pad: int, method: str, cache: Cache | None = None) -> Candidate | None:
    """The best match of the template at `scale` whose centre lies within
    `pad` pixels of `centre`."""
    width, height = template.size
    tw, th = scaled(width, scale), scaled(height, scale)
    left, top = int(round(centre[0] - tw / 2)), int(round(centre[1] - th / 2))
    wx0, wy0 = max(0, left - pad), max(0, top - pad)
    wx1, wy1 = min(area.shape[1], left + tw + pad), min(area.shape[0], top + th + pad)
    if wx1 - wx0 < tw or wy1 - wy0 < th:
        return None
    pixels, mask = resized(template, tw, th, cache)
    scores = match(area[wy0:wy1, wx0:wx1], pixels, mask, method)
    _, value, _, (px, py) = _min_max(scores)
    cx, cy = wx0 + px, wy0 + py
    return Candidate(float(value), cx + template.ratio[0] * tw - 0.5, cy + template.ratio[1] * th - 0.5,
                     cx, cy, scale)


def _min_max(scores: np.ndarray) -> tuple[float, float, Sequence[int], Sequence[int]]:
    import cv2

    return cv2.minMaxLoc(scores)
