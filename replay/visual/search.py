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
   window around it, its scale climbed to about 1 % (`refine.py`). The best score
   and the strongest rival's score — the numbers the acceptance rule reads
   — both come from this full-resolution pass; the coarse pass only chooses
   where to look.

The scoring itself (OpenCV's `matchTemplate`, colour and grey, masks) is
`scoring.py`; the places and the scale grid are `places.py`.
"""

from __future__ import annotations

import numpy as np

from .places import SCALES, Candidate, Found, Region, apart, distinct, scaled, shifted
from .refine import refine
from .scoring import COARSE_BLUR, Cache, coarse_area, match_grey, peaks, resized
from .templates import Template

COARSE_SIDE = 24                            # pixels a side a crop keeps in the coarse pass …
MAX_FACTOR = 4                              # … shrunk by at most this (a 256-pixel crop keeps 64)
MAX_PLACES = 4                              # places refined at full resolution (per search)
COARSE_FLOOR = 0.5                          # weaker coarse places are not refined (the best always is)


def search(picture: np.ndarray, template: Template, region: Region, *, distinct_px: float,
           scales: tuple[float, ...] = SCALES, cache: Cache | None = None,
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
                            coarse_area(area, factor, region, cache), cache)
    if known is not None:
        inside = shifted(known, -x0, -y0)
        places = [p for p in places if apart(p, inside, distinct_px)]
    if expected is not None:
        prior = _at(template, expected[0] - x0, expected[1] - y0, expected[2])
        if 0 <= prior.left and 0 <= prior.top and all(apart(prior, p, distinct_px) for p in places):
            places.insert(0, prior)
    refined: list[Candidate] = [] if known is None else [shifted(known, -x0, -y0)]
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
        candidate = refine(area, template, place, factor, method, region, cache, settled, scales)
        if candidate is not None:
            refined.append(candidate)
    ranked = distinct(sorted(refined, key=lambda c: -c.score), distinct_px, len(refined))
    if not ranked:
        return Found(None, None, method)
    located = tuple(shifted(c, x0, y0) for c in ranked)
    return Found(located[0], located[1] if len(located) > 1 else None, method, located)


def _coarse_places(area: np.ndarray, template: Template, factor: int, scales: tuple[float, ...],
                   distinct_px: float, small: np.ndarray, cache: Cache | None) -> list[Candidate]:
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
        tw, th = scaled(width, scale), scaled(height, scale)
        cw, ch = max(4, round(tw / factor)), max(4, round(th / factor))
        if tw > area.shape[1] or th > area.shape[0] or cw > small.shape[1] or ch > small.shape[0]:
            continue
        pixels, mask = resized(template, cw, ch, cache)
        grey = cv2.GaussianBlur(cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY), (0, 0), COARSE_BLUR)
        scores = match_grey(small, grey, mask, method)
        for score, px, py in peaks(scores, radius, MAX_PLACES):
            left, top = px * factor, py * factor
            coarse.append(Candidate(score, left + template.ratio[0] * tw - 0.5,
                                    top + template.ratio[1] * th - 0.5, left, top, scale))
    return distinct(sorted(coarse, key=lambda c: -c.score), distinct_px, MAX_PLACES)


def _at(template: Template, x: float, y: float, scale: float) -> Candidate:
    """A place to refine whose click point is (x, y): it is always refined."""
    tw, th = scaled(template.size[0], scale), scaled(template.size[1], scale)
    left = int(round(x - template.ratio[0] * tw + 0.5))
    top = int(round(y - template.ratio[1] * th + 0.5))
    return Candidate(1.0, x, y, left, top, scale)


def _coarse_factor(side: int) -> int:
    factor = 1
    while side / (factor * 2) >= COARSE_SIDE and factor < MAX_FACTOR:
        factor *= 2
    return factor
