"""The scoring primitives under the search: OpenCV's `matchTemplate` on
colour and on grey, crops resized to a scale, pictures shrunk for the coarse
pass, and the local maxima of a score map (docs/VISUAL.md §2).

Crops with contrast are scored by zero-mean normalised correlation
(`TM_CCOEFF_NORMED`), flat ones by normalised squared difference
(`TM_SQDIFF_NORMED`, as 1 − d so that larger is better). Masked pixels are
left out through OpenCV's template mask. Every resized crop and shrunk
picture is kept in the re-aim's `cache` (one picture, one set of crops), so
the many matches of one re-aim resize each only once.
"""

from __future__ import annotations

from typing import cast

import numpy as np

from .places import Region
from .templates import Template

COARSE_BLUR = 0.8        # Gaussian sigma (coarse pixels) on both sides of the coarse match

# What one re-aim has resized or shrunk, so each is made once: a crop at a size
# (key ("crop", …)) is kept as its (pixels, mask), a shrunk picture (keys
# (region, factor) and ("coarse", region, factor)) as its pixels.
Cache = dict[tuple[object, ...], "np.ndarray | tuple[np.ndarray, np.ndarray | None]"]


def match(area: np.ndarray, pixels: np.ndarray, mask: np.ndarray | None, method: str) -> np.ndarray:
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
    scores: np.ndarray
    if method == "sqdiff":
        distance = cv2.matchTemplate(flat_area, flat_pixels, cv2.TM_SQDIFF_NORMED, mask=flat_mask)
        scores = 1.0 - np.nan_to_num(distance[:, ::3], nan=1.0, posinf=1.0, neginf=1.0)
    else:
        scores = cv2.matchTemplate(flat_area, flat_pixels, cv2.TM_CCOEFF_NORMED, mask=flat_mask)
        scores = np.nan_to_num(scores[:, ::3], nan=0.0, posinf=0.0, neginf=0.0)
    return np.ascontiguousarray(np.clip(scores, -1.0, 1.0))


def match_grey(area: np.ndarray, pixels: np.ndarray, mask: np.ndarray | None, method: str) -> np.ndarray:
    """The coarse pass's score map, on one grey channel, larger is better."""
    import cv2

    if method == "sqdiff":
        distance = cv2.matchTemplate(area, pixels, cv2.TM_SQDIFF_NORMED, mask=mask)
        return 1.0 - np.nan_to_num(distance, nan=1.0, posinf=1.0, neginf=1.0)
    scores = cv2.matchTemplate(area, pixels, cv2.TM_CCOEFF_NORMED, mask=mask)
    return np.clip(np.nan_to_num(scores, nan=0.0, posinf=0.0, neginf=0.0), -1.0, 1.0)


def resized(template: Template, width: int, height: int,
             cache: Cache | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """The crop (and its mask) at `width`×`height`: area-averaged when it
    shrinks, linear when it grows, the mask by nearest neighbour."""
    import cv2

    source_w, source_h = template.size
    if (width, height) == (source_w, source_h):
        return template.pixels, template.mask
    key = ("crop", id(template), width, height)
    if cache is not None and key in cache:
        return cast("tuple[np.ndarray, np.ndarray | None]", cache[key])   # a "crop" key's entry
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


def shrunk(area: np.ndarray, factor: int, region: Region, cache: Cache | None) -> np.ndarray:
    """The area shrunk by `factor` (area-averaged), kept per region."""
    import cv2

    if factor == 1:
        return area
    key = (region, factor)
    if cache is not None and key in cache:
        return cast(np.ndarray, cache[key])   # a shrunk picture's entry
    small = cv2.resize(area, (max(1, area.shape[1] // factor), max(1, area.shape[0] // factor)),
                       interpolation=cv2.INTER_AREA)
    if cache is not None:
        cache[key] = small
    return small


def coarse_area(area: np.ndarray, factor: int, region: Region, cache: Cache | None) -> np.ndarray:
    """The area shrunk by `factor`, grey and blurred as the coarse pass matches it."""
    import cv2

    key = ("coarse", region, factor)
    if cache is not None and key in cache:
        return cast(np.ndarray, cache[key])   # a "coarse" key's entry
    grey = cv2.cvtColor(shrunk(area, factor, region, cache), cv2.COLOR_BGR2GRAY)
    small = cv2.GaussianBlur(grey, (0, 0), COARSE_BLUR)
    if cache is not None:
        cache[key] = small
    return small


def peaks(scores: np.ndarray, radius: int, limit: int) -> list[tuple[float, int, int]]:
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
