"""Routine candidates for a window of capture: mined, measured and gated.

This is what `phantom routines` (and the D-Bus / MCP `ListRoutines`) shows:
every maximal recurring action n-gram with its measures (support, days seen,
guard coverage, H_UI / H_task and quadrant, the Routine Overhead Ratios,
timing variation, how often a begun run is completed) and the
crystallization decision — the heuristic-only verdict beside the heuristic
+ Gittins one, whose outcomes are the plan's dry passes against the
recorded trees and verified replays (`gate.evidence`) — plus the corpus
recurrence h in-sample and on a temporal holdout.

One entry per recurring routine: routines that only chain another task onto
a listed one, or pad it with unresolved steps, are its variants
(`folding`), counted under it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Protocol

from compiler.collector import collector_paused
from compiler.records import Action, Capture
from compiler.window import zone_info

from .actions import derive_actions, sessions
from .cycles import distinct
from .folding import fold
from .gate import (
    CostModel,
    Evidence,
    GateDecision,
    RecordedTree,
    TreeElement,
    decide,
    measured_inputs,
    plan_evidence,
    tree_wants,
)
from .measures import Recurrence, RoutineMeasures, holdout_recurrence, measure_all
from .mining import Routine, mine

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)

ElementRow = tuple[str, str, str | None, str]
TreeRow = tuple[int, bool, Sequence[ElementRow]]   # snapshot instant, truncated, elements


class EvidenceSource(Protocol):
    """Where the gate's evidence is read (`compiler.sources.CaptureSource`):
    the trees recorded around (app, instant)s, the statuses of replays of
    programs compiled from routines (by routine id)."""

    def trees(self, wants: tuple[tuple[str, int], ...], roles: tuple[str, ...]
              ) -> Mapping[tuple[str, int], TreeRow | None]: ...

    def replay_statuses(self, routine_ids: tuple[str, ...]) -> Mapping[str, Sequence[str]]: ...


@dataclass(frozen=True, slots=True)
class RoutineEntry:
    routine: Routine
    measures: RoutineMeasures
    decision: GateDecision
    evidence: Evidence = Evidence()
    variants: tuple[Routine, ...] = ()

    @property
    def label(self) -> str:
        return " → ".join(step.describe() for step in self.routine.steps)


@dataclass(frozen=True, slots=True)
class RoutineReport:
    entries: tuple[RoutineEntry, ...]
    total_found: int
    actions: int
    sessions: int
    recurrence: Recurrence | None
    costs: CostModel


@collector_paused()
def report_routines(capture: Capture, zone: str, costs: CostModel = CostModel(), *,
                    limit: int | None = None,
                    extra_actions: tuple[Action, ...] = (),
                    evidence: EvidenceSource | None = None) -> RoutineReport:
    """`extra_actions`: actions kept for days whose raw rows retention
    removed (they count as the capture's own). `evidence`: where the
    recorded trees and replay outcomes are read; without it the gate has no
    evidence and keeps every routine with the agent."""
    tz = zone_info(zone)

    def day_of(ts_ms: int) -> str:
        return (_EPOCH + timedelta(milliseconds=ts_ms)).astimezone(tz).date().isoformat()

    # typed lengths for the type steps' first rows: only text rows make type
    # steps, so only they are keyed (every input row keyed was a tenth of the
    # peak of `phantom routines` on 51 days)
    counts = {f"input_events:{event.id}": event.count for event in capture.inputs if event.kind == "text"}

    def typed_length(action: Action) -> int | None:
        return counts.get(action.evidence[0]) if action.step.kind == "type" else None

    actions = derive_actions(capture)
    if extra_actions:
        actions = tuple(sorted(extra_actions + actions, key=lambda a: (a.ts_ms, a.evidence)))
    all_sessions = sessions(actions)
    folded = fold(distinct(mine(all_sessions), all_sessions))
    shown = folded if not limit else folded[:limit]
    routines = [f.routine for f in shown]
    measures = measure_all(routines, all_sessions, day_of=day_of, typed_length=typed_length)
    found = _evidence(routines, evidence)
    entries = tuple(RoutineEntry(f.routine, m, decide(measured_inputs(m, e), costs), e, f.variants)
                    for f, m, e in zip(shown, measures, found))
    by_day: dict[str, list[tuple[Action, ...]]] = {}
    for session in all_sessions:
        by_day.setdefault(day_of(session[0].ts_ms), []).append(session)
    recurrence = holdout_recurrence(sorted(by_day.items())) if by_day else None
    return RoutineReport(entries, len(folded), sum(len(s) for s in all_sessions),
                         len(all_sessions), recurrence, costs)


def _evidence(routines: Sequence[Routine], source: EvidenceSource | None) -> list[Evidence]:
    """Each routine's evidence: one read of the trees its plan needs and of
    the replays of its programs, then the dry passes (pure)."""
    if source is None or not routines:
        return [Evidence() for _ in routines]
    roles = tuple(sorted({step.role for r in routines for step in r.steps if step.kind in ("click", "type")}))
    rows = source.trees(tree_wants(routines), roles)
    trees = {want: None if found is None else
             RecordedTree(found[0], found[1], tuple(TreeElement(*row) for row in found[2]))
             for want, found in rows.items()}
    replays = source.replay_statuses(tuple(sorted({r.id for r in routines})))

    def tree_of(app: str, ts_ms: int) -> RecordedTree | None:
        return trees.get((app, ts_ms))

    return [plan_evidence(r, tree_of, replays) for r in routines]


def report_dict(report: RoutineReport) -> dict[str, Any]:
    """JSON-safe builtins for canonical rendering."""
    return {
        "actions": report.actions,
        "sessions": report.sessions,
        "routines_found": report.total_found,
        "recurrence": report.recurrence.to_dict() if report.recurrence else None,
        "costs": {name: getattr(report.costs, name) for name in report.costs.__dataclass_fields__},
        "routines": [{
            "id": f"r-{entry.routine.id}",
            "label": entry.label,
            "steps": [{"kind": s.kind, "app": s.app, "target": s.target, "role": s.role,
                       "label": s.label, "specific": s.specific} for s in entry.routine.steps],
            "measures": entry.measures.to_dict(),
            "evidence": entry.evidence.to_dict(),
            "decision": entry.decision.to_dict(),
            "variants": [{"id": f"r-{v.id}", "length": v.length, "support": v.support,
                          "label": " → ".join(step.describe() for step in v.steps)}
                         for v in entry.variants],
            "occurrences": [f"{o.actions[0].evidence[0]}..{o.actions[-1].evidence[-1]}"
                            for o in entry.routine.occurrences],
        } for entry in report.entries],
    }
