"""The replay evidence the Gittins posterior counts (phantom.md §6.2–6.3,
and where this deviates from it: docs/DESIGN.md, "Crystallization evidence").

A passive occurrence says the user did the routine; it says nothing about
whether a replay of it would land. Counting every occurrence as a success
crystallized anything seen three times — a chain of editor noise included
(issue 25). Two kinds of outcome count instead:

dry passes
    The routine's plan (its representative steps, `Routine.steps`) run dry
    against each occurrence's recorded accessibility tree: for every click
    and text entry, does its target resolve — one element of that role and
    label, or of that path among several — in the tree the capture stored
    for that application around that step? An occurrence whose steps all
    resolve is a success, one with a step that does not is a failure — an
    unresolved click has no target to resolve, so a routine padded with them
    fails. A target missing from a tree is a failure only when that tree
    could have shown it: a walk cut short (node, depth or time bound) or one
    recorded before an earlier step of the occurrence (which may have changed
    the window — a sheet tab, a dialog) says nothing. An occurrence with such
    a step, with a step the capture stored no tree for, or with nothing to
    resolve at all (keys and switches only), is no trial: that is absence of
    evidence, not a failed replay.
verified replays
    Runs of a program compiled from this routine (its origin names
    `routine:r-<id>`): `success` (replayed and verified) is a success;
    `escalated`, `failed` and `refused` are failures; dry runs and runs
    still going are not outcomes.

Both are read at the I/O edge (`compiler.sources.recorded`); everything
here is pure.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from compiler.records import Action, Step

from ..mining import Routine

__all__ = ["NO_EVIDENCE", "Evidence", "RecordedTree", "TreeElement", "dry_pass", "plan_evidence",
           "tree_wants"]

SUCCESS = frozenset({"success"})
FAILURE = frozenset({"escalated", "failed", "refused"})


class TreeElement(NamedTuple):
    """One element of a recorded accessibility tree, as replay would match it."""

    role: str
    name: str
    labelled_by: str | None
    path: str

    @property
    def label(self) -> str:
        return self.name or self.labelled_by or ""


class RecordedTree(NamedTuple):
    """A tree walk the capture stored: when its snapshot was taken, whether
    the walk was cut short, its elements."""

    ts_ms: int
    truncated: bool
    elements: tuple[TreeElement, ...]


# The tree the capture stored for an application around an instant, or None
# when it stored none: the key is (app, ts_ms) of the action.
TreeOf = Callable[[str, int], "RecordedTree | None"]


@dataclass(frozen=True, slots=True)
class Evidence:
    """Outcomes for one routine's posterior: dry passes of its plan over its
    occurrences, and verified replays of programs compiled from it.
    ``unchecked``: occurrences with no recorded tree to run the plan on."""

    plan_passes: int = 0
    plan_trials: int = 0
    unchecked: int = 0
    replay_successes: int = 0
    replay_trials: int = 0

    @property
    def successes(self) -> int:
        return self.plan_passes + self.replay_successes

    @property
    def trials(self) -> int:
        return self.plan_trials + self.replay_trials

    def to_dict(self) -> dict[str, Any]:
        return {"plan_passes": self.plan_passes, "plan_trials": self.plan_trials,
                "unchecked": self.unchecked, "replay_successes": self.replay_successes,
                "replay_trials": self.replay_trials}


NO_EVIDENCE = Evidence()


def _needs_tree(step: Step) -> bool:
    return step.kind in ("click", "type")


def _resolves(step: Step, tree: Sequence[TreeElement]) -> bool:
    """Replay's aim, dry: one element of the step's role and label, or, when
    several share them, exactly one of them at the recorded path."""
    matches = [e for e in tree if e.role == step.role and e.label == step.label]
    if len(matches) == 1:
        return True
    return sum(1 for e in matches if e.path == step.target) == 1


def dry_pass(steps: Sequence[Step], actions: Sequence[Action], tree_of: TreeOf) -> bool | None:
    """The plan `steps` run against the trees recorded around `actions` (one
    occurrence): True when every target resolves, False when one does not
    (or has none: an unresolved click) in a tree that could have shown it,
    None when there is nothing to check or no tree that could tell (no
    evidence either way; module docstring)."""
    checked = False
    unknown = False
    previous: int | None = None
    for step, action in zip(steps, actions, strict=True):
        if _needs_tree(step):
            if not step.specific:
                return False            # nothing to aim at: replay would click blind
            tree = tree_of(action.step.app, action.ts_ms)
            if tree is None:
                unknown = True
            elif _resolves(step, tree.elements):
                checked = True
            elif tree.truncated or (previous is not None and tree.ts_ms < previous):
                unknown = True          # the walk could not have shown it
            else:
                return False
        previous = action.ts_ms
    if unknown or not checked:
        return None
    return True


def plan_evidence(routine: Routine, tree_of: TreeOf,
                  replays: Mapping[str, Sequence[str]] | None = None) -> Evidence:
    """Dry passes of `routine`'s plan over its counted occurrences, plus the
    statuses of replays of programs compiled from it (`replays`: routine id
    → run statuses, oldest first)."""
    passes = trials = unchecked = 0
    for occurrence in routine.occurrences:
        outcome = dry_pass(routine.steps, occurrence.actions, tree_of)
        if outcome is None:
            unchecked += 1
            continue
        trials += 1
        passes += outcome
    statuses = (replays or {}).get(routine.id, ())
    return Evidence(passes, trials, unchecked,
                    sum(1 for s in statuses if s in SUCCESS),
                    sum(1 for s in statuses if s in SUCCESS or s in FAILURE))


def tree_wants(routines: Sequence[Routine]) -> tuple[tuple[str, int], ...]:
    """The (app, instant) of every action whose step a dry pass would look up
    a tree for, sorted and without repeats: what to read from the store."""
    wants = {(action.step.app, action.ts_ms)
             for routine in routines for occurrence in routine.occurrences
             for step, action in zip(routine.steps, occurrence.actions)
             if _needs_tree(step) and step.specific}
    return tuple(sorted(wants))
