"""The visual rung of the policy ladder (direct → embedding → visual →
refuse/escalate; docs/VISUAL.md §4).

It runs only for a click the accessibility rungs could not anchor: the
recorded path and the label found nothing, or found only the surface the
click landed on (an unnamed drawing area or panel, where the point inside
is what the person chose). It never replaces an element the tree did find.

It re-aims the click from the step's recorded crops on a fresh picture of
the window (`matcher.reaim`), and then asks the accessibility tree what
lies under the new point: the recorded surface, when there was one, and
nothing whose label carries a consequential verb other than the step's
(`hit_problem`). The dispatcher asks the same question again right before
the button goes down. A consequential step (its recorded label carries a
verb such as Delete or Send) is re-aimed only by the matcher's thorough
mode: no second place in the window looks like the target.

Missing or corrupt crops, a window that cannot be seen, a match that is
weak or ambiguous: the step escalates (or is refused) with a one-line
reason, and nothing is clicked — never a click at the recorded position.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from compiler.programs.records import ProgramStep
from core.a11y import Accessible

from .. import live
from ..verbs import verbs_of
from .evidence import StepEvidence
from .matcher import AMBIGUOUS, Reaim, reaim
from .screen import Shot, Unseen


@dataclass(frozen=True, slots=True)
class Aim:
    """A visual re-aim's figures, as results and telemetry report them."""

    verdict: str
    score: float
    rival: float
    scale: float
    point: tuple[int, int] | None
    shift: tuple[int, int] | None
    variant: str
    region: str

    @property
    def margin(self) -> float:
        return round(self.score - self.rival, 4)


@dataclass(frozen=True, slots=True)
class Seen:
    """What the rung decided: `verdict` is accepted, refused or escalated;
    `point`, `hit` (the element under it) and `anchor` (the surface the
    click must land on) when accepted; `pending` when it could not look yet."""

    verdict: str
    reason: str
    aim: Aim | None = None
    point: tuple[int, int] | None = None
    hit: live.LiveElement | None = None
    anchor: live.LiveElement | None = None
    pending: bool = False


class Eyes:
    """The visual rung for one run: the program's evidence, loaded once, and
    `look`, which grabs the window as it is now. One `Eyes` holds one
    picture (the pre-flight decides every step on it); `fresh()` gives one
    that will look again (each step of the run)."""

    def __init__(self, evidence: Mapping[int, StepEvidence], look: Callable[[], Shot], *,
                 defer_covered: bool = False) -> None:
        self._evidence = evidence
        self._look = look
        self._shot: Shot | None = None
        self._problem: Unseen | None = None
        self.defer_covered = defer_covered

    def fresh(self) -> "Eyes":
        return Eyes(self._evidence, self._look, defer_covered=self.defer_covered)

    def has(self, step: ProgramStep) -> bool:
        return step.index in self._evidence

    def shot(self) -> Shot:
        if self._shot is None and self._problem is None:
            try:
                self._shot = self._look()
            except Unseen as exc:
                self._problem = exc
        if self._problem is not None:
            raise self._problem
        assert self._shot is not None, "a look either gives a shot or raises Unseen"
        return self._shot

    def see(self, step: ProgramStep, anchor: live.LiveElement | None, window: Accessible) -> Seen:
        """Re-aim `step` (which has evidence) on the window now."""
        evidence = self._evidence[step.index]
        if evidence.problem is not None:
            return Seen("escalated", f"the visual rung cannot look: {evidence.problem}; nothing was "
                        "clicked")
        try:
            shot = self.shot()
        except Unseen as exc:
            return Seen("escalated", f"the visual rung cannot look: {exc}; nothing was clicked",
                        pending=exc.covered and self.defer_covered)
        assert step.target is not None, "a step with evidence is a click with a target"
        consequential = bool(verbs_of(step.target.display))
        result = reaim(shot.pixels, shot.at, evidence.templates, evidence.click, evidence.window,
                       window=shot.window, screen=shot.screen, thorough=consequential)
        aim = _aim(result)
        if not result.accepted:
            verdict = "refused" if result.verdict == AMBIGUOUS else "escalated"
            return Seen(verdict, f"visual: {result.reason}; nothing was clicked", aim)
        assert result.point is not None, "an accepted re-aim has a point"
        hit = live.element_at(*result.point, window)
        problem = hit_problem(step, anchor, hit)
        if problem is not None:
            return Seen("refused", f"{result.reason}, but {problem}; nothing was clicked", aim)
        return Seen("accepted", result.reason, aim, result.point, hit or anchor, anchor)


def hit_problem(step: ProgramStep, anchor: live.LiveElement | None,
                hit: live.LiveElement | None) -> str | None:
    """Why the element under a re-aimed point must not be clicked, or None:
    it is not the surface the recorded click landed on, or its label
    carries a consequential verb the recorded control did not carry."""
    if anchor is not None and (hit is None or not hit.same_as(anchor)):
        seen = f"'{hit.display}' ({hit.role})" if hit is not None and hit.display else (
            hit.role if hit is not None else "nothing")
        return f"the point lies on {seen}, not on the recorded {anchor.role}"
    if hit is not None and hit.display:
        assert step.target is not None, "a re-aimed click has a recorded target"
        recorded, found = verbs_of(step.target.display), verbs_of(hit.display)
        if found and found != recorded:
            return (f"'{hit.display}' lies under the point and would change what the step does "
                    f"({'/'.join(sorted(recorded)) or 'no consequential verb'} → "
                    f"{'/'.join(sorted(found))})")
    return None


def _aim(result: Reaim) -> Aim:
    return Aim(result.verdict, result.score, result.rival, result.scale, result.point, result.shift,
               result.variant, result.region)
