"""Finding one crop in one region of a picture, at every scale replay
allows, with OpenCV's `matchTemplate` (docs/VISUAL.md §2).

Coarse to fine, and honest about the margin:
1. coarse — the region and the crop, scaled to every size of the scale set
   (0.58–1.6×, steps of 1.6^(1/6) ≈ 8 %, 1.0 included), are shrunk by one
   power of two chosen so the crop keeps about 24 pixels a side; every
   local maximum of every score map is a candidate place;
2. the candidates are merged across scales (non-maximum suppression: two
   candidates whose click points lie closer than `distinct_px` are one
   place) and the strongest places are kept;
3. fine — each kept place is matched again at full resolution, in a small
   window around it, its scale climbed to about 1 % (`_refine`). The best score
   and the strongest rival's score — the numbers the acceptance rule reads
   — both come from this full-resolution pass; the coarse pass only chooses
   where to look.

Crops with contrast are scored by zero-mean normalised correlation
(`TM_CCOEFF_NORMED`), flat ones by normalised squared difference
(`TM_SQDIFF_NORMED`, as 1 − d so that larger is better), both in colour.
Masked pixels are left out through OpenCV's template mask.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .templates import Template

STEP = 1.6 ** (1 / 6)
SCALES: tuple[float, ...] = tuple(STEP ** k for k in range(-7, 7))   # 0.578 … 1.600
FINE_STEP = 0.5                             # the refinement's first scale step (exponent of STEP)
COARSE_SIDE = 24                            # pixels a side a crop keeps in the coarse pass …
MAX_FACTOR = 4                              # … shrunk by at most this (a 256-pixel crop keeps 64)
MAX_PLACES = 6                              # places refined at full resolution
COARSE_FLOOR = 0.5                          # weaker coarse places are not refined (the best always is)
COARSE_BLUR = 0.8                           # Gaussian sigma (coarse pixels) on both sides of the coarse match

Region = tuple[int, int, int, int]          # x0, y0, x1, y1 in the picture's pixels


@dataclass(frozen=True, slots=True)
class Candidate:
    """A place where the crop matches: its score, the click point it gives
    (picture pixels, not rounded), the crop's top-left there and its scale."""

    score: float
    x: float
    y: float
    left: int
    top: int
    scale: float


@dataclass(frozen=True, slots=True)
class Found:
    """The best place and the strongest place apart from it (None when the
    crop is found nowhere else, or at all), with the scoring used."""

    best: Candidate | None
    rival: Candidate | None
    method: str                             # ccoeff | sqdiff
    places: tuple[Candidate, ...] = ()      # every refined place, strongest first, one per place

    @property
    def score(self) -> float:
        return self.best.score if self.best is not None else 0.0

    @property
    def rival_score(self) -> float:
        return max(self.rival.score, 0.0) if self.rival is not None else 0.0


def search(picture: np.ndarray, template: Template, region: Region, *, distinct_px: float,
           scales: tuple[float, ...] = SCALES, cache: dict | None = None,
           known: Candidate | None = None, coarser: bool = False,
           expected: tuple[float, float, float] | None = None) -> Found:
    """Where `template` appears in `region` of `picture` (BGR). `cache`
    keeps shrunk copies of the picture and resized crops between the calls
    of one re-aim (it belongs to one picture and one set of templates).
    `known` is a place already refined (found in a smaller region): it is
    not searched again, and the places found here are ranked against it.
    `coarser` halves the coarse resolution once more: a scan for rivals of
    a place already found, at its one scale, needs to find only places that
    look like it, and those stand out even at a quarter of the resolution.
    `expected` (x, y, scale: where the recording puts the click, in picture
    pixels, and the likely scale) is always refined as a place of its own:
    a mostly plain crop can score high at many coarse places and push the
    right one out of the few that are refined."""
    method = "sqdiff" if template.flat else "ccoeff"
    x0, y0, x1, y1 = region
    area = picture[y0:y1, x0:x1]
    if area.shape[0] < 4 or area.shape[1] < 4:
        return Found(None, None, method)
    factor = _coarse_factor(min(template.size)) * (2 if coarser else 1)
    places = _coarse_places(area, template, factor, scales, distinct_px,
                            _coarse_area(area, factor, region, cache), cache)
    if known is not None:
        inside = _shifted(known, -x0, -y0)
        places = [p for p in places if _apart(p, inside, distinct_px)]
    if expected is not None:
        prior = _at(template, expected[0] - x0, expected[1] - y0, expected[2])
        if 0 <= prior.left and 0 <= prior.top and all(_apart(prior, p, distinct_px) for p in places):
            places.insert(0, prior)
    refined: list[Candidate] = [] if known is None else [_shifted(known, -x0, -y0)]
    swept = 1 if known is not None else 2
    for index, place in enumerate(places):
        # Every distinct place above the floor is refined (and the strongest
        # always): a coarse score can sit far below the full-resolution one
        # (the benchmark reports the lowest coarse score of a place that
        # reached 0.78 at full resolution, docs/BENCHMARKS.md), so a rival
        # is never judged by its coarse score alone.
        if index and place.score < COARSE_FLOOR:
            continue
        # The first two places (the expected one, when given, and the
        # strongest) search the scale; the others are scored at the scale
        # the better of them settled on (a window draws everything at one scale).
        settled = None if len(refined) < swept else max(refined, key=lambda c: c.score).scale
        candidate = _refine(area, template, place, factor, method, region, cache, settled, scales)
        if candidate is not None:
            refined.append(candidate)
    ranked = _distinct(sorted(refined, key=lambda c: -c.score), distinct_px, len(refined))
    if not ranked:
        return Found(None, None, method)
    places = tuple(_shifted(c, x0, y0) for c in ranked)
    return Found(places[0], places[1] if len(places) > 1 else None, method, places)


def _coarse_places(area: np.ndarray, template: Template, factor: int, scales: tuple[float, ...],
                   distinct_px: float, small: np.ndarray, cache: dict | None) -> list[Candidate]:
    """Every scale's local maxima on the shrunk, grey, slightly blurred
    area, merged into distinct places, strongest first (positions in the
    area's full-resolution pixels). The blur (on both sides) keeps a place
    whose crop falls between two coarse pixels from losing its thin strokes:
    measured on a text field, the right place at the right scale scored
    0.79 unblurred, below a look-alike, and 0.96 blurred."""
    import cv2

    method = "sqdiff" if template.flat else "ccoeff"
    width, height = template.size
    radius = max(1, int(distinct_px / factor / 2))
    coarse: list[Candidate] = []
    for scale in scales:
        tw, th = _scaled(width, scale), _scaled(height, scale)
        cw, ch = max(4, round(tw / factor)), max(4, round(th / factor))
        if tw > area.shape[1] or th > area.shape[0] or cw > small.shape[1] or ch > small.shape[0]:
            continue
        pixels, mask = _resized(template, cw, ch, cache)
        grey = cv2.GaussianBlur(cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY), (0, 0), COARSE_BLUR)
        scores = _match_grey(small, grey, mask, method)
        for score, px, py in _peaks(scores, radius, MAX_PLACES):
            left, top = px * factor, py * factor
            coarse.append(Candidate(score, left + template.ratio[0] * tw - 0.5,
                                    top + template.ratio[1] * th - 0.5, left, top, scale))
    return _distinct(sorted(coarse, key=lambda c: -c.score), distinct_px, MAX_PLACES)


def _coarse_area(area: np.ndarray, factor: int, region: Region, cache: dict | None) -> np.ndarray:
    """The area shrunk by `factor`, grey and blurred as the coarse pass matches it."""
    import cv2

    key = ("coarse", region, factor)
    if cache is not None and key in cache:
        return cache[key]
    grey = cv2.cvtColor(_shrunk(area, factor, region, cache), cv2.COLOR_BGR2GRAY)
    small = cv2.GaussianBlur(grey, (0, 0), COARSE_BLUR)
    if cache is not None:
        cache[key] = small
    return small


def _shrunk(area: np.ndarray, factor: int, region: Region, cache: dict | None) -> np.ndarray:
    import cv2

    if factor == 1:
        return area
    key = (region, factor)
    if cache is not None and key in cache:
        return cache[key]
    small = cv2.resize(area, (max(1, area.shape[1] // factor), max(1, area.shape[0] // factor)),
                       interpolation=cv2.INTER_AREA)
    if cache is not None:
        cache[key] = small
    return small


def _at(template: Template, x: float, y: float, scale: float) -> Candidate:
    """A place to refine whose click point is (x, y): it is always refined."""
    tw, th = _scaled(template.size[0], scale), _scaled(template.size[1], scale)
    left = int(round(x - template.ratio[0] * tw + 0.5))
    top = int(round(y - template.ratio[1] * th + 0.5))
    return Candidate(1.0, x, y, left, top, scale)


def _coarse_factor(side: int) -> int:
    factor = 1
    while side / (factor * 2) >= COARSE_SIDE and factor < MAX_FACTOR:
        factor *= 2
    return factor


def _scaled(length: int, scale: float) -> int:
    return max(4, round(length * scale))


def _resized(template: Template, width: int, height: int,
             cache: dict | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    import cv2

    source_w, source_h = template.size
    if (width, height) == (source_w, source_h):
        return template.pixels, template.mask
    key = ("crop", id(template), width, height)
    if cache is not None and key in cache:
        return cache[key]
    shrinking = width < source_w
    pixels = cv2.resize(template.pixels, (width, height),
                        interpolation=cv2.INTER_AREA if shrinking else cv2.INTER_LINEAR)
    mask = None
    if template.mask is not None:
        mask = cv2.resize(template.mask, (width, height), interpolation=cv2.INTER_NEAREST)
        if not mask.any():
            mask = None
    if cache is not None:
        cache[key] = (pixels, mask)
    return pixels, mask


def _match(area: np.ndarray, pixels: np.ndarray, mask: np.ndarray | None, method: str) -> np.ndarray:
    """The score map, larger is better, NaNs (masked flat windows) as no match.

    The colour channels are matched as one interleaved grey image (B, G, R
    side by side, every third column of the result kept): the mean taken
    away is then one mean over all channels, not one per channel. OpenCV's
    colour matching takes a mean per channel, which makes a blue button and
    a grey one with the same text look alike (measured: 0.86, an accept);
    one shared mean keeps what colour tells."""
    import cv2

    flat_area = np.ascontiguousarray(area).reshape(area.shape[0], -1)
    flat_pixels = np.ascontiguousarray(pixels).reshape(pixels.shape[0], -1)
    flat_mask = None if mask is None else np.repeat(mask, 3, axis=1)
    if method == "sqdiff":
        distance = cv2.matchTemplate(flat_area, flat_pixels, cv2.TM_SQDIFF_NORMED, mask=flat_mask)
        scores = 1.0 - np.nan_to_num(distance[:, ::3], nan=1.0, posinf=1.0, neginf=1.0)
    else:
        scores = cv2.matchTemplate(flat_area, flat_pixels, cv2.TM_CCOEFF_NORMED, mask=flat_mask)
        scores = np.nan_to_num(scores[:, ::3], nan=0.0, posinf=0.0, neginf=0.0)
    return np.ascontiguousarray(np.clip(scores, -1.0, 1.0))


def _match_grey(area: np.ndarray, pixels: np.ndarray, mask: np.ndarray | None, method: str) -> np.ndarray:
    import cv2

    if method == "sqdiff":
        distance = cv2.matchTemplate(area, pixels, cv2.TM_SQDIFF_NORMED, mask=mask)
        return 1.0 - np.nan_to_num(distance, nan=1.0, posinf=1.0, neginf=1.0)
    scores = cv2.matchTemplate(area, pixels, cv2.TM_CCOEFF_NORMED, mask=mask)
    return np.clip(np.nan_to_num(scores, nan=0.0, posinf=0.0, neginf=0.0), -1.0, 1.0)


def _peaks(scores: np.ndarray, radius: int, limit: int) -> list[tuple[float, int, int]]:
    """The strongest local maxima of a score map: (score, x, y)."""
    import cv2

    kernel = np.ones((2 * radius + 1, 2 * radius + 1), dtype=np.uint8)
    local = scores >= cv2.dilate(scores, kernel)
    ys, xs = np.nonzero(local)
    if not len(xs):
        return []
    values = scores[ys, xs]
    order = np.argsort(-values, kind="stable")[:limit * 4]
    return [(float(values[i]), int(xs[i]), int(ys[i])) for i in order]


def _distinct(ranked: list[Candidate], distinct_px: float, limit: int) -> list[Candidate]:
    kept: list[Candidate] = []
    for candidate in ranked:
        if all(_apart(candidate, other, distinct_px) for other in kept):
            kept.append(candidate)
            if len(kept) == limit:
                break
    return kept


def _apart(a: Candidate, b: Candidate, distinct_px: float) -> bool:
    return math.hypot(a.x - b.x, a.y - b.y) >= distinct_px


def _refine(area: np.ndarray, template: Template, place: Candidate, factor: int, method: str,
            region: Region, cache: dict | None, settled: float | None = None,
            scales: tuple[float, ...] = SCALES) -> Candidate | None:
    """The place matched again, down a pyramid to full resolution.

    On the first level (the area shrunk by half the coarse factor) the
    scale is searched: every scale of the set at that spot (the coarse pass
    can be two steps off, and a crop of repeated strokes can score well at a
    wrong scale), then half, quarter and eighth steps beside the best (about
    1 %: a pixel at 100 pixels a side). Each finer level looks again around the
    place found at the scale found; full resolution climbs once more in
    eighth steps (a shrunk copy can mislead the scale on a crop whose few
    sharp strokes decide). The score and the click point are those of full
    resolution; the shrunk levels only keep the large crops cheap. With
    `settled`, the scale is not searched but looked at an eighth of a step
    either side of it."""
    level = max(1, factor // 2)
    width, height = template.size
    base_w, base_h = _scaled(width, place.scale), _scaled(height, place.scale)
    centre = (place.left + base_w / 2, place.top + base_h / 2)
    best, scale = None, settled or place.scale
    while True:
        small = _shrunk(area, level, region, cache)
        # The coarse spot is a coarse pixel (factor pixels) off at most, plus
        # what a wrong coarse scale moves the crop's centre; later levels
        # start from the previous one (two pixels of theirs at most).
        pad = 2 * factor // level + 1 if best is None else 3
        at = (centre[0] / level, centre[1] / level)

        def match(trial: float) -> Candidate | None:
            return _match_near(small, template, trial / level, at, pad, method, cache)

        if best is None and settled is None:
            found, scale = _sweep(match, scales)
            found, scale = _climb(match, scale, FINE_STEP, 1, found)
            found, scale = _climb(match, scale, FINE_STEP / 2, 1, found)
            found, scale = _climb(match, scale, FINE_STEP / 4, 1, found)
        elif best is None or (level == 1 and settled is None):
            found, scale = _climb(match, scale, FINE_STEP / 4, 1 if settled else 3)
        else:
            found = match(scale)
        if found is None:
            return best if level == 1 else None
        tw, th = _scaled(width, scale), _scaled(height, scale)
        centre = (found.left * level + tw / 2, found.top * level + th / 2)
        best = found
        if level == 1:
            return Candidate(best.score, best.x, best.y, best.left, best.top, scale)
        level //= 2


def _sweep(match, scales: tuple[float, ...]) -> tuple[Candidate | None, float]:
    best, chosen = None, scales[0]
    for scale in scales:
        candidate = match(scale)
        if candidate is not None and (best is None or candidate.score > best.score):
            best, chosen = candidate, scale
    return best, chosen


def _climb(match, scale: float, step: float, limit: int,
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
    method = "sqdiff" if template.flat else "ccoeff"
    width, height = template.size
    best = 0.0
    for exponent in (-FINE_STEP / 4, 0.0, FINE_STEP / 4):
        size = _scaled(width, scale * STEP ** exponent), _scaled(height, scale * STEP ** exponent)
        centre = (point[0] - template.ratio[0] * size[0] + 0.5 + size[0] / 2,
                  point[1] - template.ratio[1] * size[1] + 0.5 + size[1] / 2)
        found = _match_near(picture, template, scale * STEP ** exponent, centre, pad, method)
        if found is not None:
            best = max(best, found.score)
    return best


def _match_near(area: np.ndarray, template: Template, scale: float, centre: tuple[float, float],
                pad: int, method: str, cache: dict | None = None) -> Candidate | None:
    """The best match of the template at `scale` whose centre lies within
    `pad` pixels of `centre`."""
    width, height = template.size
    tw, th = _scaled(width, scale), _scaled(height, scale)
    left, top = int(round(centre[0] - tw / 2)), int(round(centre[1] - th / 2))
    wx0, wy0 = max(0, left - pad), max(0, top - pad)
    wx1, wy1 = min(area.shape[1], left + tw + pad), min(area.shape[0], top + th + pad)
    if wx1 - wx0 < tw or wy1 - wy0 < th:
        return None
    pixels, mask = _resized(template, tw, th, cache)
    scores = _match(area[wy0:wy1, wx0:wx1], pixels, mask, method)
    _, value, _, (px, py) = _min_max(scores)
    cx, cy = wx0 + px, wy0 + py
    return Candidate(float(value), cx + template.ratio[0] * tw - 0.5, cy + template.ratio[1] * th - 0.5,
                     cx, cy, scale)


def _min_max(scores: np.ndarray):
    import cv2

    return cv2.minMaxLoc(scores)


def _shifted(candidate: Candidate, dx: int, dy: int) -> Candidate:
    return Candidate(candidate.score, candidate.x + dx, candidate.y + dy, candidate.left + dx,
                     candidate.top + dy, candidate.scale)
