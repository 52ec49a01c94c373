"""Places where a crop matches, and the scale grid they are measured on —
shared by the coarse search, the refinement and the matcher
(docs/VISUAL.md §2).

The scale set covers 0.58–1.6× in steps of 1.6^(1/6) ≈ 8 %, with 1.0 in it
(a window drawn at the recorded size is matched at exactly its size). Two
places are one when their click points lie closer than `distinct_px`: the
matcher sets it from the target crop's size, so a rival is another place a
click could go, not the same match a pixel off.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

STEP = 1.6 ** (1 / 6)
SCALES: tuple[float, ...] = tuple(STEP ** k for k in range(-7, 7))   # 0.578 … 1.600
FINE_STEP = 0.5                             # the refinement's first scale step (exponent of STEP)

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


def scaled(length: int, scale: float) -> int:
    """A crop side at a scale, in whole pixels (never under 4)."""
    return max(4, round(length * scale))


def shifted(candidate: Candidate, dx: int, dy: int) -> Candidate:
    """The candidate in another region's pixels."""
    return Candidate(candidate.score, candidate.x + dx, candidate.y + dy, candidate.left + dx,
                     candidate.top + dy, candidate.scale)


def apart(a: Candidate, b: Candidate, distinct_px: float) -> bool:
    """Whether two candidates are two places (their click points `distinct_px` or more apart)."""
    return math.hypot(a.x - b.x, a.y - b.y) >= distinct_px


def distinct(ranked: list[Candidate], distinct_px: float, limit: int) -> list[Candidate]:
    """The strongest candidates, one per place, at most `limit` (`ranked` strongest first)."""
    kept: list[Candidate] = []
    for candidate in ranked:
        if all(apart(candidate, other, distinct_px) for other in kept):
            kept.append(candidate)
            if len(kept) == limit:
                break
    return kept
