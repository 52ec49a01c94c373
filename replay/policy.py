"""The per-step policy π(a | s, u) (phantom.md §4.3): decide how a step may
act on the screen as it is now — `direct` when the recorded path resolves to
exactly one element, `embed_match_then_act` when the local model finds one
same-role element whose label clearly matches and does the same thing,
`refused` when the screen is ambiguous, else `escalate_to_agent`. A
decision sends no input; it only says what may."""

from __future__ import annotations

from dataclasses import dataclass

from compiler.programs.records import ProgramStep

from . import live
from .embedding import LabelMatcher
from .tree_view import TreeView
from .verbs import same_effect, verbs_of

DIRECT = "direct"
EMBED = "embed_match_then_act"
ESCALATE = "escalate_to_agent"
REFUSED = "refused"


@dataclass(frozen=True, slots=True)
class Candidate:
    role: str
    label: str
    score: float


@dataclass(frozen=True, slots=True)
class Decision:
    policy: str
    element: live.LiveElement | None
    reason: str
    score: float | None = None
    runner_up: float | None = None
    candidates: tuple[Candidate, ...] = ()

    @property
    def may_act(self) -> bool:
        return self.policy in (DIRECT, EMBED)


def decide(step: ProgramStep, view: TreeView, matcher: LabelMatcher) -> Decision:
    """How `step` may act on the screen `view` shows (no input is sent)."""
    decision = _decide(step, view, matcher)
    element = decision.element
    if decision.may_act and element is not None and "sensitive" not in element.states():
        # Acting on a disabled control does nothing and would look like success.
        return Decision(ESCALATE, None, f"'{element.display or element.role}' is disabled",
                        decision.score, decision.runner_up, decision.candidates)
    return decision


def _decide(step: ProgramStep, view: TreeView, matcher: LabelMatcher) -> Decision:
    target = step.target
    if step.action in ("key", "switch") or target is None or step.precondition.kind == "always_true":
        return Decision(DIRECT, None, "no target to check")
    if step.precondition.kind == "aria_path_resolves" and target.path:
        found = [live.describe(accessible, view) for accessible in view.resolve(target.path)]
        if len(found) == 1:
            return Decision(DIRECT, found[0], "the recorded path resolves to one element", 1.0)
        if len(found) > 1:
            return Decision(REFUSED, None, f"ambiguous: the recorded path matches {len(found)} elements",
                            candidates=tuple(Candidate(e.role, e.display, 1.0) for e in found))
    return _embedding(step, view, matcher)


def _embedding(step: ProgramStep, view: TreeView, matcher: LabelMatcher) -> Decision:
    target = step.target
    recorded = target.display
    if not recorded:
        return Decision(ESCALATE, None, "the recorded target has no label to match")
    pool = [e for e in live.candidates(view, target.role) if e.display]
    # Embedded as "role label" on both sides: the shared role gives the model
    # context ("push button Submit" vs "push button Submit v2" scores 0.91,
    # the bare labels 0.76), and the margin keeps siblings apart.
    query = _text(target.role, recorded)
    match = matcher.best(query, [_text(e.role, e.display) for e in pool])
    ranked = _ranked(matcher, query, pool) if pool else ()
    if match.index is None:
        policy = REFUSED if match.reason.startswith("ambiguous") else ESCALATE
        return Decision(policy, None, f"'{recorded}' not found by path; {match.reason.replace(target.role + ' ', '')}",
                        match.score, match.runner_up, ranked)
    chosen = pool[match.index]
    if not same_effect(recorded, chosen.display):
        return Decision(ESCALATE, None,
                        f"'{chosen.display}' matches '{recorded}' ({match.score:.3f}) but would change "
                        f"what the step does ({_verbs(recorded)} → {_verbs(chosen.display)})",
                        match.score, match.runner_up, ranked)
    return Decision(EMBED, chosen, f"'{recorded}' → '{chosen.display}' (cosine {match.score:.3f}, "
                    f"runner-up {match.runner_up:.3f})",
                    match.score, match.runner_up, ranked)


def _text(role: str, label: str) -> str:
    return f"{role} {label}"


def _ranked(matcher: LabelMatcher, query: str, pool) -> tuple[Candidate, ...]:
    vectors = matcher.embed([query, *[_text(e.role, e.display) for e in pool]])
    scores = vectors[1:] @ vectors[0]
    order = sorted(range(len(pool)), key=lambda i: (-float(scores[i]), i))[:3]
    return tuple(Candidate(pool[i].role, pool[i].display, round(float(scores[i]), 4)) for i in order)


def _verbs(label: str) -> str:
    return "/".join(sorted(verbs_of(label))) or "no consequential verb"
