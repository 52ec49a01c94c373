"""The per-step policy π(a | s, u) (phantom.md §4.3): decide how a step may
act on the screen as it is now — `direct` when the recorded path resolves to
exactly one element, `embed_match_then_act` when the local model finds one
same-role element whose label clearly matches and does the same thing,
`visual_reaim` when neither found a click's target and its recorded crops
are found again on the window (`replay/visual/rung.py`, docs/VISUAL.md),
`refused` when the screen is ambiguous, else `escalate_to_agent`. A
decision sends no input; it only says what may.

The visual rung runs only where the accessibility rungs found nothing to
click (`Decision.unresolved`), or found only the unnamed surface a click
landed on (a drawing area, a panel): there the point inside it is what the
person chose, and the surface's centre would be a blind guess. So a click
whose path finds only such a surface and that carries no recorded crops
escalates with that reason; nothing is clicked."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from compiler.programs.records import ProgramStep, Target
from core.a11y.roles import CONTAINER_ROLES

from . import live
from .embedding import LabelMatcher
from .tree_view import TreeView
from .verbs import same_effect, verbs_of

if TYPE_CHECKING:
    from .visual.rung import Aim, Eyes


class Policy(StrEnum):
    """The ladder's answers, in the order they are tried. The values are
    what telemetry stores (`replay_steps.policy`) and what results, D-Bus
    and MCP say."""

    DIRECT = "direct"
    EMBED = "embed_match_then_act"
    VISUAL = "visual_reaim"
    REFUSED = "refused"
    ESCALATE = "escalate_to_agent"

    @property
    def acts(self) -> bool:
        """Whether a step decided so may send input."""
        return self in (Policy.DIRECT, Policy.EMBED, Policy.VISUAL)


# Unnamed elements of these roles are surfaces: where a click lands in them matters.
SURFACE_ROLES = CONTAINER_ROLES | {"drawing area", "canvas"}


@dataclass(frozen=True, slots=True)
class Candidate:
    role: str
    label: str
    score: float


@dataclass(frozen=True, slots=True)
class Decision:
    policy: Policy
    element: live.LiveElement | None
    reason: str
    score: float | None = None
    runner_up: float | None = None
    candidates: tuple[Candidate, ...] = ()
    unresolved: bool = False   # a click whose target the accessibility rungs did not find
    point: tuple[int, int] | None = None   # visual_reaim: where to click (desktop)
    anchor: live.LiveElement | None = None  # visual_reaim: the surface the click must land on
    aim: Aim | None = None     # visual: the re-aim's figures
    pending: bool = False      # visual: the window could not be looked at yet (a covered dry run)

    @property
    def may_act(self) -> bool:
        return self.policy.acts


def decide(step: ProgramStep, view: TreeView, matcher: LabelMatcher, eyes: Eyes | None = None) -> Decision:
    """How `step` may act on the screen `view` shows (no input is sent).
    `eyes` (a `replay.visual.rung.Eyes`) give the visual rung, for the
    steps that carry recorded crops."""
    decision = _decide(step, view, matcher)
    if _wants_visual(step, decision):
        if eyes is not None and eyes.has(step):
            return _visual(step, decision, view, eyes)
        surface = decision.element
        if surface is not None and _on_surface(decision):
            return Decision(Policy.ESCALATE, None, f"the recorded click landed on an unnamed {surface.role} "
                            "and the program holds no picture of where: its centre would be a "
                            "guess; nothing was clicked", decision.score, decision.runner_up,
                            decision.candidates)
    element = decision.element
    if decision.may_act and element is not None and "sensitive" not in element.states():
        # Acting on a disabled control does nothing and would look like success.
        return Decision(Policy.ESCALATE, None, f"'{element.display or element.role}' is disabled",
                        decision.score, decision.runner_up, decision.candidates)
    return decision


def _decide(step: ProgramStep, view: TreeView, matcher: LabelMatcher) -> Decision:
    target = step.target
    if step.action in ("key", "switch") or target is None or step.precondition.kind == "always_true":
        return Decision(Policy.DIRECT, None, "no target to check",
                        unresolved=step.action == "click" and target is not None)
    if step.precondition.kind == "aria_path_resolves" and target.path:
        found = [live.describe(accessible, view) for accessible in view.resolve(target.path)]
        if len(found) == 1:
            return Decision(Policy.DIRECT, found[0], "the recorded path resolves to one element", 1.0)
        if len(found) > 1:
            return Decision(Policy.REFUSED, None, f"ambiguous: the recorded path matches {len(found)} elements",
                            candidates=tuple(Candidate(e.role, e.display, 1.0) for e in found))
    return _embedding(target, view, matcher)


def _embedding(target: Target, view: TreeView, matcher: LabelMatcher) -> Decision:
    recorded = target.display
    if not recorded:
        return Decision(Policy.ESCALATE, None, "the recorded target has no label to match", unresolved=True)
    pool = [e for e in live.candidates(view, target.role) if e.display]
    # Embedded as "role label" on both sides: the shared role gives the model
    # context ("push button Submit" vs "push button Submit v2" scores 0.91,
    # the bare labels 0.76), and the margin keeps siblings apart.
    query = _text(target.role, recorded)
    match = matcher.best(query, [_text(e.role, e.display) for e in pool])
    ranked = _ranked(matcher, query, pool) if pool else ()
    if match.index is None:
        policy = Policy.REFUSED if match.ambiguous else Policy.ESCALATE
        return Decision(policy, None, f"'{recorded}' not found by path; {match.reason.replace(target.role + ' ', '')}",
                        match.score, match.runner_up, ranked, unresolved=policy == Policy.ESCALATE)
    chosen = pool[match.index]
    if not same_effect(recorded, chosen.display):
        return Decision(Policy.ESCALATE, None,
                        f"'{chosen.display}' matches '{recorded}' ({match.score:.3f}) but would change "
                        f"what the step does ({_verbs(recorded)} → {_verbs(chosen.display)})",
                        match.score, match.runner_up, ranked)
    return Decision(Policy.EMBED, chosen, f"'{recorded}' → '{chosen.display}' (cosine {match.score:.3f}, "
                    f"runner-up {match.runner_up:.3f})",
                    match.score, match.runner_up, ranked)


def _wants_visual(step: ProgramStep, decision: Decision) -> bool:
    return step.action == "click" and (decision.unresolved or _on_surface(decision))


def _on_surface(decision: Decision) -> bool:
    """The path found only an unnamed surface (where in it is what matters)."""
    element = decision.element
    return (decision.policy == Policy.DIRECT and element is not None and not element.display
            and element.role in SURFACE_ROLES)


def _visual(step: ProgramStep, decision: Decision, view: TreeView, eyes: Eyes) -> Decision:
    """The visual rung's decision, saying what the accessibility rungs saw."""
    anchor = decision.element if decision.element is not None else None
    found = "an unnamed " + anchor.role if anchor is not None else "no target"
    seen = eyes.see(step, anchor, view.window)
    reason = f"the accessibility tree shows {found} ({decision.reason}); {seen.reason}"
    aim = seen.aim
    score = aim.score if aim is not None else None
    rival = aim.rival if aim is not None else None
    if seen.verdict == "accepted":
        return Decision(Policy.VISUAL, seen.hit, reason, score, rival, point=seen.point, anchor=seen.anchor,
                        aim=aim)
    policy = Policy.REFUSED if seen.verdict == "refused" else Policy.ESCALATE
    return Decision(policy, None, reason, score, rival, decision.candidates, aim=aim,
                    pending=seen.pending)


def _text(role: str, label: str) -> str:
    return f"{role} {label}"


def _ranked(matcher: LabelMatcher, query: str, pool: Sequence[live.LiveElement]) -> tuple[Candidate, ...]:
    vectors = matcher.embed([query, *[_text(e.role, e.display) for e in pool]])
    scores = vectors[1:] @ vectors[0]
    order = sorted(range(len(pool)), key=lambda i: (-float(scores[i]), i))[:3]
    return tuple(Candidate(pool[i].role, pool[i].display, round(float(scores[i]), 4)) for i in order)


def _verbs(label: str) -> str:
    return "/".join(sorted(verbs_of(label))) or "no consequential verb"
