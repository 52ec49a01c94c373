"""Routine candidates for a window of capture: mined, measured and gated.

This is what `phantom routines` (and the D-Bus / MCP `ListRoutines`) shows:
every maximal recurring action n-gram with its measures (support, days seen,
guard coverage, H_UI / H_task and quadrant, the Routine Overhead Ratios,
timing variation, observed outcomes) and the crystallization decision —
the heuristic-only verdict beside the heuristic + Gittins one — plus the
corpus recurrence h in-sample and on a temporal holdout.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from compiler.collector import collector_paused
from compiler.records import Action, Capture
from compiler.window import zone_info

from .actions import derive_actions, sessions
from .cycles import distinct
from .gate import CostModel, GateDecision, decide, measured_inputs
from .measures import Recurrence, RoutineMeasures, holdout_recurrence, measure_all
from .mining import Routine, mine

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


@dataclass(frozen=True, slots=True)
class RoutineEntry:
    routine: Routine
    measures: RoutineMeasures
    decision: GateDecision

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
                    extra_actions: tuple[Action, ...] = ()) -> RoutineReport:
    """`extra_actions`: actions kept for days whose raw rows retention
    removed (they count as the capture's own)."""
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
    routines = distinct(mine(all_sessions), all_sessions)
    shown = routines if not limit else routines[:limit]
    measures = measure_all(shown, all_sessions, day_of=day_of, typed_length=typed_length)
    entries = tuple(RoutineEntry(r, m, decide(measured_inputs(m), costs))
                    for r, m in zip(shown, measures))
    by_day: dict[str, list[tuple[Action, ...]]] = {}
    for session in all_sessions:
        by_day.setdefault(day_of(session[0].ts_ms), []).append(session)
    recurrence = holdout_recurrence(sorted(by_day.items())) if by_day else None
    return RoutineReport(entries, len(routines), sum(len(s) for s in all_sessions),
                         len(all_sessions), recurrence, costs)


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
            "decision": entry.decision.to_dict(),
            "occurrences": [f"{o.actions[0].evidence[0]}..{o.actions[-1].evidence[-1]}"
                            for o in entry.routine.occurrences],
        } for entry in report.entries],
    }
