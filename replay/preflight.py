"""The whole-plan pre-flight: before the first input, decide every step
whose target the starting window must already hold, through the same
ladder the run uses, on one cached view of that window.

A step is "unknown until reached" only when an earlier step may replace
what the window shows: a click on a control (a button may open a dialog or
turn a page), a switch to another application, or a key that is more than
editing (Return submits, ctrl+s saves). Editing — typing, select-all,
deleting, moving the caret or the focus — leaves the window's controls
where they are, so a target that is missing or ambiguous behind it (a Submit
that became Delete) stops the run here, when nothing has been sent yet.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from compiler.programs.records import Program, ProgramStep
from core.a11y.roles import LABELLED_ROLES

from .embedding import LabelMatcher
from .outcomes import PENDING, PLANNED, StepOutcome, outcome_for
from .policy import Candidate, Policy, decide
from .tree_view import TreeView

if TYPE_CHECKING:
    from .visual.rung import Eyes

# Keys that edit a field or move within the window, and never replace its content.
EDITING_KEYS = frozenset({
    "ctrl+a", "ctrl+c", "ctrl+x", "ctrl+v", "ctrl+z", "ctrl+shift+z", "ctrl+y", "BackSpace", "Delete",
    "Home", "End", "Left", "Right", "Up", "Down", "Page_Up", "Page_Down", "Tab", "shift+Tab",
    "ctrl+Home", "ctrl+End", "ctrl+Left", "ctrl+Right", "shift+Home", "shift+End", "shift+Left",
    "shift+Right", "shift+Up", "shift+Down", "Insert", "space",
})


@dataclass(frozen=True, slots=True)
class Plan:
    """What the pre-flight saw: an outcome per step it looked at (`planned`,
    `pending` — not on screen yet — or the blocking one), and, when blocked,
    the candidates the screen offered for that step."""

    outcomes: tuple[StepOutcome, ...]
    blocked: StepOutcome | None
    candidates: tuple[Candidate, ...] = ()


def preflight(program: Program, view: TreeView, matcher: LabelMatcher, eyes: Eyes | None = None) -> Plan:
    """`eyes` (a `replay.visual.rung.Eyes` holding one picture of the
    window) let the steps that need the visual rung be checked too: a
    re-aim that fails on the starting screen stops the run like a missing
    target. In a dry run on a window another one covers, they are pending."""
    outcomes: list[StepOutcome] = []
    screen_may_change = False
    for step in program.steps:
        began = time.monotonic()
        decision = decide(step, view, matcher, eyes)
        if decision.may_act:
            outcomes.append(outcome_for(step, decision, PLANNED, None, 0, began))
        elif decision.pending:
            outcomes.append(outcome_for(step, decision, PENDING, None, 0, began,
                                        reason=f"not yet looked at: {decision.reason}"))
        elif screen_may_change:
            outcomes.append(outcome_for(step, decision, PENDING, None, 0, began,
                                        reason="not yet on screen: an earlier step may change it"))
        else:
            result = "refused" if decision.policy == Policy.REFUSED else "escalated"
            blocked = outcome_for(step, decision, result, None, 0, began)
            return Plan((*outcomes, blocked), blocked, decision.candidates)
        screen_may_change = screen_may_change or may_replace_content(step)
    return Plan(tuple(outcomes), None)


def may_replace_content(step: ProgramStep) -> bool:
    """Whether a step may change which controls the window shows."""
    if step.action == "switch":
        return True
    if step.action == "key":
        return (step.key or "") not in EDITING_KEYS
    if step.action == "click":
        return step.target is None or step.target.role not in LABELLED_ROLES
    return False
