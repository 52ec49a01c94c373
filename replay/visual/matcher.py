"""Re-aiming one click from its recorded crops (EchoPath's IBTR, §B.3;
docs/VISUAL.md §3): find the crops on the window as it is now, accept only
a confident and unambiguous match, and say where the click goes.

Pure: numpy arrays in, a frozen `Reaim` out; no screen, no clock.

Where to look — the region of interest first, the whole window only when
needed. The region of interest is around where the recorded click falls in
the window now (its place in the recorded window, scaled by how much the
window grew or shrank), wide enough for the crop at the largest scale plus a
slack for a drawing that moved inside the window. Each variant (target,
context, wide context) is tried there in turn; only when none decides is
the whole window searched, variant by variant again. A match found in the
region of interest is still compared with rivals anywhere in the window, at
the scale it was found at (cheap), so its margin is the window's.

What to accept (EchoPath's rule, made stricter where it is weak — see
`lookalikes.py` for the look-alike rules):
- the best score γ* ≥ 0.78, and a margin ≥ 0.02 over the strongest rival
  place (one whose click point lies `distinct_px` or more away);
- the core of the target crop (its middle, around the click) scores
  ≥ 0.78 at the chosen place too: a larger crop may find the surroundings
  of a control that is gone or was replaced; the core says it is there;
- look-alikes — places that score like the best, every rival scored again
  at the best's scale — are told apart only by a larger crop that finds its
  recorded surroundings at exactly one of them, and never when the recorded
  picture shows that a look-alike appeared beside the target since (two
  identical icons side by side);
- a larger crop decides only between the places the target crop found in
  the same region (its best and the places in the look-alike band below
  it), and only by the margin, whether or not the target crop was
  confident: its surroundings may match best at a copy of the control;
- `thorough` (a consequential step: Delete, Send, Pay …) searches every
  variant over the whole window and accepts only when no place but one
  reaches 0.78 in any variant, and every confident variant points there.
The click point is the matched crop's top-left plus the recorded ratio of
its (scaled) size; a point outside the window or the screen is refused.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from .corecheck import CoreCheck
from .lookalikes import Twins, candidates, lookalikes_of, rescored, settles
from .places import SCALES, STEP, Candidate, Found
from .scoring import Cache
from .search import search
from .templates import Template

ACCEPT = 0.78          # γ* threshold (EchoPath §B.3, η)
MARGIN = 0.02          # best − rival threshold (EchoPath §B.3, η_margin)
CORE_ACCEPT = ACCEPT   # the target crop's core must reach it too where a match is accepted
SLACK = 0.15           # of the window's larger side: how far a drawing may move inside it …
SLACK_PX = (64, 160)   # … within these bounds (pixels)
DISTINCT_SHARE = 0.2   # two click points this share of the target crop apart are two places
MIN_DISTINCT_PX = 6

Rect = tuple[int, int, int, int]       # x, y, width, height (desktop coordinates)

ACCEPTED, AMBIGUOUS, NOT_FOUND, OUTSIDE = "accepted", "ambiguous", "not_found", "outside"


@dataclass(frozen=True, slots=True)
class Attempt:
    """One variant searched in one region: its best score, its rival's,
    the scale, the click point (desktop) it would give, and the target
    crop's core score there (computed when the score reaches 0.78)."""

    variant: str
    region: str                          # roi | window
    score: float
    rival: float
    scale: float
    point: tuple[int, int] | None
    method: str
    core: float = 0.0

    @property
    def margin(self) -> float:
        return self.score - self.rival


@dataclass(frozen=True, slots=True)
class Reaim:
    """The verdict on one click: `accepted` with a point, or `ambiguous`,
    `not_found` or `outside` with a one-line reason. The numbers are those
    of the deciding attempt (the best one seen when nothing decided)."""

    verdict: str
    reason: str
    score: float
    rival: float
    scale: float
    point: tuple[int, int] | None
    shift: tuple[int, int] | None        # point − recorded click, in desktop pixels
    variant: str
    region: str
    attempts: tuple[Attempt, ...]

    @property
    def accepted(self) -> bool:
        return self.verdict == ACCEPTED

    @property
    def margin(self) -> float:
        return self.score - self.rival


def reaim(picture: np.ndarray, at: Rect, templates: Sequence[Template], click: tuple[int, int],
          recorded_window: Rect | None = None, *, window: Rect | None = None,
          screen: Rect | None = None, thorough: bool = False) -> Reaim:
    """Re-aim a click recorded at desktop point `click` (in a window whose
    rectangle was `recorded_window`) on `picture`: the BGR pixels of the
    window's visible part now, lying at `at` on the desktop. `window` is the
    whole window's rectangle now (default `at`), `screen` the screen's.
    `templates` are the click's crops, smallest (the target crop) first."""
    if not templates:
        raise ValueError("no crops to match")
    height, width = picture.shape[:2]
    if (width, height) != (at[2], at[3]):
        raise ValueError(f"picture {width}×{height} does not fit its rectangle {at}")
    window = window or at
    likely = _likely_scale(window, recorded_window)
    distinct = max(MIN_DISTINCT_PX, DISTINCT_SHARE * min(templates[0].size) * likely)
    expected = _expected(click, window, recorded_window)
    expected = (expected[0] - at[0], expected[1] - at[1])
    whole = (0, 0, width, height)
    check = CoreCheck(templates[0], picture)
    cache: Cache = {}
    regions = {t.kind: _roi(t, expected, window, (width, height)) for t in templates}
    passes = [] if thorough else [("roi", t, regions[t.kind]) for t in templates]
    passes += [("window", t, whole) for t in templates if thorough or regions[t.kind] != whole]
    attempts: list[Attempt] = []
    confident: list[Attempt] = []
    twins: Twins | None = None
    finer: Twins | None = None           # the target crop's candidates in the current region
    scales = SCALES
    for region_name, template, region in passes:
        prior = (*expected, likely) if region_name == "roi" else None
        found = search(picture, template, region, distinct_px=distinct, cache=cache, expected=prior,
                       scales=scales)
        if region != whole and found.score >= ACCEPT:
            assert found.best is not None, "a found crop scores 0 without a best place"
            # Found near where it was: rivals anywhere in the window, at the
            # scale found (one window shows everything at one scale).
            found = _merged(found, search(picture, template, whole, distinct_px=distinct,
                                          scales=(found.best.scale,), cache=cache,
                                          known=found.best, coarser=True), distinct)
        found = rescored(found, template, picture, distinct)
        attempt = _attempt(found, template, region_name, at, picture, check)
        attempts.append(attempt)
        if template is templates[0]:
            finer = None if template.flat else candidates(found, MARGIN)
        if attempt.score < ACCEPT:
            continue
        place = found.best
        assert place is not None, "an attempt scores 0 without a best place"
        if scales is SCALES and not template.flat:
            # A crop with contrast found confidently has settled the scale the
            # window is drawn at: larger crops are looked for at it (a step
            # either side), not over the whole set again.
            scales = tuple(place.scale * STEP ** k for k in (-1, 0, 1))
        alike = lookalikes_of(found, ACCEPT, MARGIN)
        plain = template.flat or (template is templates[0] and check.plain)
        if plain and (alike or (template is templates[0] and len(templates) > 1)):
            # A plain crop looks like any plain patch, found or not among the
            # few places refined, and a target crop whose core is plain (a
            # click on the blank part of a table cell) shows the place, not
            # what is in it: a larger crop decides.
            continue
        if thorough:
            if template.flat:
                continue    # a plain crop tells nothing about look-alikes, for or against
            if found.rival is not None and found.rival.score >= ACCEPT:
                return _verdict(AMBIGUOUS, f"ambiguous for a consequential step: a second place "
                                f"scores {found.rival.score:.3f} ≥ {ACCEPT} ({template.kind} crop)",
                                attempt, attempts, click)
            if attempt.core >= CORE_ACCEPT and attempt.margin >= MARGIN:
                confident.append(attempt)
            continue
        if twins is not None and not alike:
            problem, place = settles(twins, found, template, templates, picture, distinct, ACCEPT, MARGIN)
            if problem:
                return _verdict(AMBIGUOUS, f"ambiguous: {problem}", attempt, attempts, click)
            found, attempt = _chosen(found, place, attempt, template, region_name, at, picture, check)
        elif alike:
            if twins is None:
                twins = Twins(template.kind, (place, *alike))
            continue        # a larger crop may tell the look-alikes apart
        if attempt.core < CORE_ACCEPT:
            continue        # the surroundings are there, the control itself is not
        if finer is not None and template is not templates[0]:
            problem, place = settles(finer, found, template, templates, picture, distinct, ACCEPT, MARGIN)
            if problem:
                return _verdict(AMBIGUOUS, f"ambiguous: {problem}", attempt, attempts, click)
            found, attempt = _chosen(found, place, attempt, template, region_name, at, picture, check)
            if attempt.core < CORE_ACCEPT:
                continue
        return _accept(attempt, at, screen, attempts, click)
    if thorough and confident:
        return _thorough(confident, at, screen, attempts, click, distinct)
    if twins is not None:
        best = next(a for a in attempts if a.variant == twins.variant)
        return _verdict(AMBIGUOUS, f"ambiguous: the {twins.variant} crop matches "
                        f"{len(twins.places)} places ({twins.places[0].score:.3f} and "
                        f"{twins.places[1].score:.3f}) and no larger crop tells them apart",
                        best, attempts, click)
    return _not_found(attempts, click)


def _chosen(found: Found, place: Candidate | None, attempt: Attempt, template: Template, region: str,
            at: Rect, picture: np.ndarray, check: CoreCheck) -> tuple[Found, Attempt]:
    """The larger crop's verdict moved to the twin it chose (`place`, with
    the larger crop's score there), when that is not its own best place:
    its best was disturbed by the twins around it."""
    best = found.best
    if place is None or best is None or math.hypot(place.x - best.x, place.y - best.y) < 1e-6:
        return found, attempt
    dx, dy = place.x - best.x, place.y - best.y
    moved = Found(replace(best, score=place.score, x=place.x, y=place.y, left=round(best.left + dx),
                          top=round(best.top + dy)), best, found.method, found.places)
    return moved, _attempt(moved, template, region, at, picture, check)


def _not_found(attempts: list[Attempt], click: tuple[int, int]) -> Reaim:
    telling = [a for a in attempts if not (a.method == "sqdiff" and a.score >= ACCEPT)]
    if not attempts:
        return Reaim(NOT_FOUND, "the crops are larger than the window: nothing to search",
                     0.0, 0.0, 1.0, None, None, "", "", ())
    if not telling:
        return _verdict(AMBIGUOUS, "ambiguous: every crop is plain and matches many places",
                        attempts[0], attempts, click)
    best = max(telling, key=lambda a: a.score)
    if best.score >= ACCEPT and best.core < CORE_ACCEPT:
        return _verdict(NOT_FOUND, f"not found: the {best.variant} crop's surroundings match "
                        f"({best.score:.3f}) but the control itself does not (core {best.core:.3f} "
                        f"< {CORE_ACCEPT})", best, attempts, click)
    return _verdict(NOT_FOUND, f"not found: the best match scores {best.score:.3f} "
                    f"({best.variant} crop) < {ACCEPT}", best, attempts, click)


def _merged(near: Found, wide: Found, distinct: float) -> Found:
    """Both searches' places, strongest first, one per place."""
    ranked: list[Candidate] = []
    for candidate in sorted((*near.places, *wide.places), key=lambda c: -c.score):
        if all(math.hypot(candidate.x - c.x, candidate.y - c.y) >= distinct for c in ranked):
            ranked.append(candidate)
    return Found(ranked[0], ranked[1] if len(ranked) > 1 else None, near.method, tuple(ranked))


def _thorough(confident: list[Attempt], at: Rect, screen: Rect | None, attempts: list[Attempt],
              click: tuple[int, int], distinct: float) -> Reaim:
    """A consequential step: every confident variant agreeing on one place."""
    best = max(confident, key=lambda a: a.score)
    here = _point(best)
    if any(math.hypot(_point(a)[0] - here[0], _point(a)[1] - here[1]) >= distinct
           for a in confident):
        return _verdict(AMBIGUOUS, "ambiguous for a consequential step: the crops point at "
                        "different places", best, attempts, click)
    return _accept(best, at, screen, attempts, click)


def _accept(attempt: Attempt, at: Rect, screen: Rect | None, attempts: list[Attempt],
            click: tuple[int, int]) -> Reaim:
    x, y = _point(attempt)
    if not _inside(at, x, y) or (screen is not None and not _inside(screen, x, y)):
        return _verdict(OUTSIDE, f"the re-aimed point ({x},{y}) lies outside the window or the "
                        "screen", attempt, attempts, click)
    return _verdict(ACCEPTED, f"visual re-aim: γ*={attempt.score:.3f}, margin {attempt.margin:.3f}, "
                    f"scale {attempt.scale:.2f}, shift ({x - click[0]:+d},{y - click[1]:+d}) px "
                    f"({attempt.variant} crop, {attempt.region})", attempt, attempts, click)


def _point(attempt: Attempt) -> tuple[int, int]:
    """The click point of an attempt that scored: only one without a best place has none."""
    assert attempt.point is not None, "an attempt that scored has a point"
    return attempt.point


def _verdict(verdict: str, reason: str, attempt: Attempt, attempts: list[Attempt],
             click: tuple[int, int]) -> Reaim:
    point = attempt.point if verdict == ACCEPTED else None
    shift = (point[0] - click[0], point[1] - click[1]) if point is not None else None
    return Reaim(verdict, reason, attempt.score, attempt.rival, attempt.scale, point, shift,
                 attempt.variant, attempt.region, tuple(attempts))


def _attempt(found: Found, template: Template, region: str, at: Rect, picture: np.ndarray,
             check: CoreCheck) -> Attempt:
    best = found.best
    if best is None:
        return Attempt(template.kind, region, 0.0, 0.0, 1.0, None, found.method)
    point = (at[0] + int(math.floor(best.x + 0.5)), at[1] + int(math.floor(best.y + 0.5)))
    score = round(best.score, 4)
    centre = round(check.score((best.x, best.y), best.scale), 4) if score >= ACCEPT else 0.0
    return Attempt(template.kind, region, score, round(found.rival_score, 4), round(best.scale, 3),
                   point, found.method, centre)


def _likely_scale(window: Rect, recorded: Rect | None) -> float:
    """How much larger things are drawn now, as far as the window tells (1 when it cannot)."""
    if recorded is None:
        return 1.0
    return max(min(window[2] / recorded[2], window[3] / recorded[3], SCALES[-1]), SCALES[0])


def _expected(click: tuple[int, int], window: Rect, recorded: Rect | None) -> tuple[float, float]:
    """Where the recorded click falls in the window now (desktop coordinates)."""
    if recorded is None:
        return float(click[0]), float(click[1])
    return (window[0] + (click[0] - recorded[0]) * window[2] / recorded[2],
            window[1] + (click[1] - recorded[1]) * window[3] / recorded[3])


def _roi(template: Template, expected: tuple[float, float], window: Rect,
         size: tuple[int, int]) -> tuple[int, int, int, int]:
    """Around the expected click (picture pixels): the crop at the largest
    scale, and the slack on every side, cut to the picture."""
    width, height = template.size
    slack = min(max(SLACK_PX[0], SLACK * max(window[2], window[3])), SLACK_PX[1])
    top_scale = SCALES[-1]
    x0 = expected[0] - template.ratio[0] * width * top_scale - slack
    x1 = expected[0] + (1 - template.ratio[0]) * width * top_scale + slack
    y0 = expected[1] - template.ratio[1] * height * top_scale - slack
    y1 = expected[1] + (1 - template.ratio[1]) * height * top_scale + slack
    return (max(0, int(x0)), max(0, int(y0)), min(size[0], int(math.ceil(x1))),
            min(size[1], int(math.ceil(y1))))


def _inside(rect: Rect, x: int, y: int) -> bool:
    return rect[0] <= x < rect[0] + rect[2] and rect[1] <= y < rect[1] + rect[3]
