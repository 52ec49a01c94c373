"""Everything measured about one routine: what a mined routine is worth and
how safe it is to replay (phantom.md §6, activity-frames.md §7), gathered
in `RoutineMeasures` by `measure` (`measure_all` keys the sessions once for
many routines). The counts, timing and completion counts are computed here;
the entropies and overhead ratios come from their own modules.

Local dates come from a `day_of` function the caller passes in (zones are
the caller's business), and `RoutineMeasures.to_dict` rounds to 6 decimals
for the canonical JSON the CLI renders.

The measures
------------
support, days_seen
    Counted (non-overlapping) occurrences, and on how many distinct local
    dates an occurrence started — a routine seen 40 times on one afternoon
    is a burst, not a habit.
guard_coverage
    Share of the routine's steps anchored on something replay can check
    before acting: a resolved accessibility element or a URL
    (`Step.specific`). activity-frames §7 reports a median of 0.415; the
    rest of the steps can only be replayed blind.
h_ui, h_task, quadrant
    The entropy decomposition of phantom.md §6.5, normalised per step
    position (`entropy`).
timing_cv
    Timing stability for the §6.4 gate (see `timing_cv`).
r_inject, r_info
    Routine Overhead Ratios of activity-frames §7 (`overhead`).
completed, begun
    How reliably the user finishes the routine once begun (see
    `completion_counts`): recurrence, what a routine is worth — not replay
    evidence. The Gittins gate counts dry passes of the plan and verified
    replays instead (`gate.evidence`).

Recurrence h (activity-frames §7) is a property of a set of routines over a
corpus, not of one routine: see `recurrence`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from compiler.records import Action

from ..actions import step_key
from ..canonical import rounded
from ..mining import KeyFn, Routine
from ..occurrences import SessionIndex
from .entropy import TypedLength, h_task, h_ui, quadrant
from .overhead import overhead_ratios

__all__ = [
    "RoutineMeasures",
    "days_seen",
    "guard_coverage",
    "measure",
    "measure_all",
    "completion_counts",
    "support",
    "timing_cv",
]

DayOf = Callable[[int], str]


def support(routine: Routine) -> int:
    """Non-overlapping occurrences counted by the miner (`Routine.support`)."""
    return routine.support


def days_seen(routine: Routine, day_of: DayOf) -> int:
    """Distinct local dates on which an occurrence started. `day_of(ts_ms)`
    maps a UTC millisecond time to a local date string in the capture's
    zone; the caller owns that choice."""
    return len({day_of(occ.actions[0].ts_ms) for occ in routine.occurrences})


def guard_coverage(routine: Routine) -> float:
    """Share of steps anchored on an accessibility target or a URL — the
    steps whose precondition replay can verify (`Step.specific`)."""
    if not routine.steps:
        return 0.0
    return sum(1 for step in routine.steps if step.specific) / len(routine.steps)


def timing_cv(routine: Routine) -> float:
    """Coefficient of variation of step durations (phantom.md §6.4, gate ≤ 0.4).

    A step's duration is the gap from its start to the next step's start
    (the last step has no observable end in passive capture). Per gap
    position i we take the mean and the population standard deviation
    across occurrences; the routine's CV is Σ std_i / Σ mean_i. Weighting
    by duration this way keeps a jittery 200 ms gap from dominating a
    routine whose long steps are steady, which an average of per-gap CVs
    would let it do. 0.0 with fewer than 2 occurrences or 2 steps, or when
    all gaps are 0."""
    k, n = routine.support, routine.length
    if k < 2 or n < 2:
        return 0.0
    stds, means = [], []
    for i in range(n - 1):
        gaps = [occ.actions[i + 1].ts_ms - occ.actions[i].ts_ms for occ in routine.occurrences]
        mean = math.fsum(gaps) / k
        means.append(mean)
        stds.append(math.sqrt(math.fsum((g - mean) ** 2 for g in gaps) / k))
    total = math.fsum(means)
    if total <= 0.0:
        return 0.0
    return math.fsum(stds) / total


def _index(sessions: Sequence[Sequence[Action]] | SessionIndex, key: KeyFn) -> SessionIndex:
    return sessions if isinstance(sessions, SessionIndex) else SessionIndex(sessions, key)


def completion_counts(sessions: Sequence[Sequence[Action]] | SessionIndex, routine: Routine,
                      key: KeyFn = step_key) -> tuple[int, int]:
    """(completed, begun): how often the user, having begun the routine,
    went through with it — read off passive data.

    *Begun* is a non-overlapping occurrence of its first min(3, n) step
    keys; *completed* a full occurrence. Every full occurrence starts with
    the prefix and disjoint full occurrences give disjoint prefixes, so
    completed ≤ begun. This says how reliably the sequence completes once
    started (an abandoned or branching routine gets a low rate), which is
    part of whether it is worth automating; it is not replay evidence and
    the gate does not count it as such (issue 25: counted as successes, it
    crystallized every chain of noise seen three times — `gate.evidence`
    has what the gate counts). Pass the sessions the routine was mined from
    (or their `SessionIndex`)."""
    index = _index(sessions, key)
    prefix = routine.keys[:min(3, routine.length)]
    return len(index.find(routine.keys)), len(index.find(prefix))


@dataclass(frozen=True, slots=True)
class RoutineMeasures:
    """All per-routine measures; see the module docstring for each."""

    routine_id: str
    length: int
    support: int
    days_seen: int
    guard_coverage: float
    h_ui: float
    h_task: float
    h_task_source: str
    quadrant: str
    timing_cv: float
    agent_tokens: int
    plan_tokens: int
    script_tokens: int
    r_inject: float
    r_info: float
    completed: int
    begun: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe builtins; floats rounded to 6 decimals (canonical JSON)."""
        return {
            "routine_id": self.routine_id,
            "length": self.length,
            "support": self.support,
            "days_seen": self.days_seen,
            "guard_coverage": rounded(self.guard_coverage),
            "h_ui": rounded(self.h_ui),
            "h_task": rounded(self.h_task),
            "h_task_source": self.h_task_source,
            "quadrant": self.quadrant,
            "timing_cv": rounded(self.timing_cv),
            "agent_tokens": self.agent_tokens,
            "plan_tokens": self.plan_tokens,
            "script_tokens": self.script_tokens,
            "r_inject": rounded(self.r_inject),
            "r_info": rounded(self.r_info),
            "completed": self.completed,
            "begun": self.begun,
        }


def measure(routine: Routine, sessions: Sequence[Sequence[Action]] | SessionIndex, *,
            day_of: DayOf, typed_length: TypedLength | None = None,
            key: KeyFn = step_key) -> RoutineMeasures:
    """Every measure of one routine mined from `sessions`."""
    ui = h_ui(routine)
    task, source = h_task(routine, typed_length)
    ratios = overhead_ratios(routine)
    completed, begun = completion_counts(sessions, routine, key)
    return RoutineMeasures(
        routine_id=routine.id,
        length=routine.length,
        support=routine.support,
        days_seen=days_seen(routine, day_of),
        guard_coverage=guard_coverage(routine),
        h_ui=ui,
        h_task=task,
        h_task_source=source,
        quadrant=quadrant(ui, task),
        timing_cv=timing_cv(routine),
        agent_tokens=ratios.agent_tokens,
        plan_tokens=ratios.plan_tokens,
        script_tokens=ratios.script_tokens,
        r_inject=ratios.r_inject,
        r_info=ratios.r_info,
        completed=completed,
        begun=begun,
    )


def measure_all(routines: Sequence[Routine], sessions: Sequence[Sequence[Action]], *,
                day_of: DayOf, typed_length: TypedLength | None = None,
                key: KeyFn = step_key) -> tuple[RoutineMeasures, ...]:
    """`measure` for many routines of one corpus, keying the sessions once."""
    index = _index(sessions, key)
    return tuple(measure(r, index, day_of=day_of, typed_length=typed_length, key=key)
                 for r in routines)
