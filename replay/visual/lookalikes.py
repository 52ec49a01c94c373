"""Look-alikes: places that score like the best one (docs/VISUAL.md §3).

EchoPath accepts a match when its margin over the strongest rival is at
least 0.02. That is too thin for identical controls once the screen is
rescaled: two copies of one check box are resampled differently and their
scores drift apart by more than 0.02 (measured: 0.898 against 0.875 for the
wrong one of two twins, an accept 57 pixels off). So a rival is a
look-alike when it is within the margin, or when it reaches 0.78 and lies
within 1 − γ* of the best: the shortfall of the best from a perfect match
is what the screen's change did to it, and a look-alike may have suffered
the same amount the other way.

Look-alikes are not refused outright: a larger crop may see which of them
has the recorded surroundings (one radio button in a column of identical
ones). It settles the question only when its own best place is one of the
look-alikes and every other look-alike, scored with it, falls clearly
behind (`settles`). And never when the recorded picture itself shows that
the look-alike was not there: a second, identical icon that appeared right
beside the target since the recording leaves the person's intent unknown
(`appeared_since`).

A larger crop decides only between the places the target crop found
(`candidates`), and only by the margin: it sees the surroundings, not the
control, and on its own it would happily pick an identical copy whose
surroundings happen to resemble the recorded ones. Two candidates within the
margin of each other stay ambiguous whichever lies nearer the recorded
point: nearness is what a moved or copied control makes worthless.

Every rival is scored again at the best place's scale (`rescored`) before
any of this is decided: each place's scale is climbed on its own, and a
climb that stalled leaves an identical copy looking different (measured on
the canvas fixture in a window grown by a third: the original Blue at 0.957,
its copy 80 px below at 0.996 — a margin of 0.039 and an accept of the copy).
A window draws every copy at one scale; at that scale twins score as twins.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from .places import Candidate, Found
from .refine import place_at, score_at
from .templates import BadCrop, Template, core, from_pixels


@dataclass(frozen=True, slots=True)
class Twins:
    """The places one variant could not tell apart (picture pixels), best first."""

    variant: str
    places: tuple[Candidate, ...]


def lookalikes_of(found: Found, accept: float, margin: float) -> tuple[Candidate, ...]:
    """The places of `found` (after its best) that look like its best."""
    best = found.best
    if best is None:
        return ()
    return tuple(place for place in found.places[1:]
                 if _alike(place.score, best.score, accept, margin))


RESCORE_BAND = 0.25   # rivals this far below the best are scored again at its scale
HOLE_GROWTH = 0.5     # a twin's hole in a larger crop: its target crop, grown by this share


def rescored(found: Found, template: Template, picture: np.ndarray, distinct: float) -> Found:
    """`found` with each rival near the best's score looked for again at the
    best's scale, within half the distance that makes two places (a stalled
    climb also drifts: measured, 5 px), keeping the better of its two
    matches; ranked again, one per place."""
    best = found.best
    if best is None or len(found.places) < 2:
        return found
    places = [best]
    pad = max(3, int(distinct / 2))
    for place in found.places[1:]:
        again = (place_at(picture, template, (place.x, place.y), best.scale, pad=pad)
                 if place.score >= best.score - RESCORE_BAND else None)
        places.append(again if again is not None and again.score > place.score else place)
    ranked: list[Candidate] = []
    for candidate in sorted(places, key=lambda c: -c.score):
        if all(math.hypot(candidate.x - c.x, candidate.y - c.y) >= distinct for c in ranked):
            ranked.append(candidate)
    return Found(ranked[0], ranked[1] if len(ranked) > 1 else None, found.method, tuple(ranked))


def candidates(found: Found, margin: float) -> Twins | None:
    """The target crop's places a larger crop may choose between: its best
    and every place in the look-alike band below it. No acceptance floor: a
    target crop too weak to decide still says where the control can be."""
    best = found.best
    if best is None:
        return None
    return Twins("target", (best, *(p for p in found.places[1:] if p.score >= _band(best.score, margin))))


def settles(twins: Twins, found: Found, template: Template, templates: Sequence[Template],
            picture: np.ndarray, distinct: float, accept: float,
            margin: float) -> tuple[str | None, Candidate | None]:
    """Which twin `found` (a larger crop with no look-alike of its own)
    picks, or why none: (None, the place) or (the reason, None).

    Its own best place must be one of the twins — for the target crop's
    candidates, the larger crop's place counts as one of them too when the
    target crop scores it inside their band (the search refines only the
    strongest few places). Then the larger crop is scored at every twin
    with the other twins' places left out of it (`_masked`): a copy that
    appeared beside the control changes the control's surroundings as much
    as the copy's own, and must not win by that. The best of them must
    reach the acceptance and stand clear of every other by the margin
    (`_alike`), and the recorded picture must not show that a twin appeared
    since."""
    best = found.best
    assert best is not None, "asked only of a crop found (scoring at least the acceptance)"
    chosen = [t for t in twins.places if math.hypot(t.x - best.x, t.y - best.y) < distinct]
    if not chosen and twins.variant == "target" and templates[0] is not template:
        there = score_at(picture, templates[0], (best.x, best.y), best.scale, pad=3)
        if there >= _band(twins.places[0].score, margin):
            chosen = [replace(best, score=there)]
            twins = Twins(twins.variant, (*chosen, *twins.places))
    if not chosen:
        if len(twins.places) == 1:
            away = round(math.hypot(twins.places[0].x - best.x, twins.places[0].y - best.y))
            return (f"the {template.kind} crop points at a place the {twins.variant} crop does not "
                    f"find (it finds the control {away} px away)"), None
        return (f"the {twins.variant} crop matches {len(twins.places)} places and the "
                f"{template.kind} crop points at none of them"), None
    if len(twins.places) == 1:
        return appeared_since(twins, chosen[0], templates, accept), best
    # The larger crop's click point lies this far from the twin's as the
    # target crop placed it; every twin is scored at its own point so moved.
    dx, dy = best.x - chosen[0].x, best.y - chosen[0].y
    scored = sorted(((score_at(picture, _masked(template, twin, twins.places, templates[0], best.scale),
                               (twin.x + dx, twin.y + dy), best.scale, pad=3), index)
                     for index, twin in enumerate(twins.places)), reverse=True)
    (top, winner), (second, _) = scored[0], scored[1]
    if _alike(second, top, accept, margin):
        return (f"the {twins.variant} crop matches {len(twins.places)} places and the "
                f"{template.kind} crop cannot tell them apart ({top:.3f} and {second:.3f})"), None
    anchor = twins.places[winner]
    return appeared_since(twins, anchor, templates, accept), replace(
        anchor, score=top, x=anchor.x + dx, y=anchor.y + dy)


def _masked(template: Template, twin: Candidate, twins: Sequence[Candidate], target: Template,
            scale: float) -> Template:
    """`template` as seen at `twin`, with the places of the other twins (a
    target crop's rectangle around each) left out of the comparison; the
    template itself when nothing of them falls inside it, or everything."""
    width, height = template.size
    click = (template.ratio[0] * width - 0.5, template.ratio[1] * height - 0.5)
    tw, th = target.size
    mask = (np.full((height, width), 255, dtype=np.uint8) if template.mask is None
            else template.mask.copy())
    touched = False
    for other in twins:
        if other is twin:
            continue
        x = click[0] + (other.x - twin.x) / scale
        y = click[1] + (other.y - twin.y) / scale
        # The twin's target crop, grown by half: a control larger than the
        # crop (a tall key) must not leave its ends in the comparison.
        left = int(math.floor(x - target.ratio[0] * tw - HOLE_GROWTH * tw / 2))
        top = int(math.floor(y - target.ratio[1] * th - HOLE_GROWTH * th / 2))
        right = int(math.ceil(left + tw * (1 + HOLE_GROWTH))) + 1
        bottom = int(math.ceil(top + th * (1 + HOLE_GROWTH))) + 1
        x0, y0, x1, y1 = max(0, left), max(0, top), min(width, right), min(height, bottom)
        if x0 < x1 and y0 < y1:
            mask[y0:y1, x0:x1] = 0
            touched = True
    if not touched or not mask.any():
        return template
    try:
        return from_pixels(template.kind, template.pixels, template.ratio, template.origin, mask)
    except BadCrop:
        return template


def appeared_since(twins: Twins, anchor: Candidate, templates: Sequence[Template], accept: float) -> str | None:
    """Why the recorded picture shows that a twin of `anchor` (the place a
    larger crop chose) was not there, or None.

    The widest recorded crop holds the recorded click and what lay around
    it. Every twin near the anchor must have a copy in it at the same offset
    (scaled back to recording size), the target crop and its core both
    matching there. A twin whose place falls inside the recorded crop with
    no copy there appeared since; one that falls outside cannot be judged."""
    if len(templates) < 2:
        return None
    target, widest = templates[0], templates[-1]
    middle = core(target)
    width, height = widest.size
    click = (widest.ratio[0] * width - 0.5, widest.ratio[1] * height - 0.5)
    tw, th = target.size
    for other in twins.places:
        if math.hypot(other.x - anchor.x, other.y - anchor.y) < 1e-6:
            continue
        x = click[0] + (other.x - anchor.x) / anchor.scale
        y = click[1] + (other.y - anchor.y) / anchor.scale
        left, top = x - target.ratio[0] * tw, y - target.ratio[1] * th
        if left < 0 or top < 0 or left + tw > width or top + th > height:
            continue                      # beyond the recorded picture: cannot tell
        if (score_at(widest.pixels, target, (x, y), 1.0, pad=3) < accept
                or score_at(widest.pixels, middle, (x, y), 1.0, pad=3) < accept):
            side = "right" if abs(x - click[0]) >= abs(y - click[1]) else "below"
            side = ("left" if x < click[0] else side) if side == "right" else ("above" if y < click[1] else side)
            return (f"the {twins.variant} crop matches {len(twins.places)} places, and the recorded "
                    f"picture shows no copy {round(math.hypot(x - click[0], y - click[1]))} px {side} "
                    "of the target: one appeared since")
    return None


def _alike(score: float, best: float, accept: float, margin: float) -> bool:
    return score >= best - margin or (score >= accept and score >= _band(best, margin))


def _band(best: float, margin: float) -> float:
    """The lowest score that looks like `best`: within the margin, or within
    the best's own shortfall from a perfect match."""
    return best - max(margin, 1.0 - best)
