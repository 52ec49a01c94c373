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
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .places import Candidate, Found
from .refine import score_at
from .templates import Template, core


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


def settles(twins: Twins, found: Found, template: Template, templates: Sequence[Template],
            picture: np.ndarray, distinct: float, accept: float, margin: float) -> str | None:
    """None when `found` (a larger crop with no look-alike of its own) picks
    one of the twins, sets every other twin clearly behind, and the recorded
    picture does not show that a twin appeared since; else why not."""
    best = found.best
    assert best is not None, "asked only of a crop found (scoring at least the acceptance)"
    chosen = [t for t in twins.places if math.hypot(t.x - best.x, t.y - best.y) < distinct]
    if not chosen:
        return (f"the {twins.variant} crop matches {len(twins.places)} places and the "
                f"{template.kind} crop points at none of them")
    for other in twins.places:
        if other is chosen[0]:
            continue
        there = score_at(picture, template, (other.x, other.y), best.scale, pad=3)
        if _alike(there, best.score, accept, margin):
            return (f"the {twins.variant} crop matches {len(twins.places)} places and the "
                    f"{template.kind} crop cannot tell them apart ({best.score:.3f} and {there:.3f})")
    return appeared_since(twins, chosen[0], templates, accept)


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
    return score >= best - margin or (score >= accept and score >= best - max(margin, 1.0 - best))
