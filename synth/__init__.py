"""A reproducible synthetic capture corpus (`phantom synth`).

`synthesize()` writes N consecutive weekdays of simulated desktop work — two
monitors, a browser across ~30 sites, mail, editor, terminal, spreadsheet,
file manager, chat; snapshots, input counts, accessibility trees and blind
spots as the capture daemon writes them — into a Phantom store (or a
nocta/screenpipe-layout database), with known routines planted in it.
`planted_routines(seed, days)` is the ground truth for routine mining.

Same seed and arguments give a byte-identical file: everything is drawn from
generators derived from (seed, day), no clock is read, and transaction
boundaries do not depend on timing. At about 2,500 snapshots, 4,200 input
rows and 157,000 element rows per day, 51 days reach the published corpus
scale (activity-frames §6: ~128k snapshots, 214k input events, 8M elements).
With `live_like=True` the Phantom store also holds what only the live daemon
writes — input linked to its window's snapshot, clicks' targets and visual
evidence (`synth.live_like`) — from the same plan, so the two stores of one
seed hold the same activity.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Callable, Protocol

import orjson

from compiler.routines.actions import step_key
from core.errors import PhantomError

from .calendar import MAX_DAYS, CalendarError, Day, active_days, zone
from .day import plan_day
from .records import DayPlan
from .routines import ROUTINE_BY_NAME, planted
from .script import PlantedRoutine

__all__ = ["DayCounts", "PlantedRoutine", "SynthError", "SynthSummary", "manifest", "planted_routines",
           "synthesize", "DEFAULT_SEED", "DEFAULT_START", "DEFAULT_TZ", "LAYOUTS"]

DEFAULT_SEED = 7
DEFAULT_START = date(2026, 3, 2)
DEFAULT_TZ = "Europe/Berlin"
LAYOUTS = ("phantom", "nocta")
GENERATOR_VERSION = 1


class SynthError(PhantomError, ValueError):
    """Arguments the generator cannot use."""

    code = "usage"


class _Sink(Protocol):
    """Where the days go: a Phantom store (PhantomSink) or a database in
    screenpipe's layout (NoctaSink)."""

    def write_day(self, plan: DayPlan) -> None: ...

    def write_manifest(self, text: str) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class DayCounts:
    index: int
    date: str
    snapshots: int
    input_events: int
    elements: int
    trees: int
    blind_spots: int


@dataclass(frozen=True, slots=True)
class SynthSummary:
    path: str
    layout: str
    seed: int
    days: int
    start: str
    end: str
    tz: str
    snapshots: int
    input_events: int
    elements: int
    trees: int
    blind_spots: int
    blobs: int
    routine_occurrences: int
    live_like: bool = False


def planted_routines(seed: int = DEFAULT_SEED, days: int = 1) -> tuple[PlantedRoutine, ...]:
    """The routines planted in a corpus of `days` days and their exact counts."""
    _check_days(days)
    return planted(seed, days)


def _check_days(days: int) -> None:
    if not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= MAX_DAYS:
        raise SynthError(f"--days must be between 1 and {MAX_DAYS} (got {days})")


def _remove_sidecars(path: Path) -> None:
    for suffix in ("-wal", "-shm", "-journal"):
        try:
            os.unlink(f"{path}{suffix}")
        except FileNotFoundError:
            pass


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        try:
            os.unlink(f"{path}{suffix}")
        except FileNotFoundError:
            pass


def synthesize(db_path: str | os.PathLike[str], *, days: int, seed: int = DEFAULT_SEED,
               start: date = DEFAULT_START, tz: str = DEFAULT_TZ, layout: str = "phantom",
               overwrite: bool = False, progress: Callable[[DayCounts, int], None] | None = None,
               live_like: bool = False) -> SynthSummary:
    """Write the corpus to `db_path` (refusing an existing file unless
    `overwrite`) and return its totals; `live_like` adds the rows only the
    live daemon writes (Phantom layout only: a nocta-layout database links
    every event to a frame already)."""
    _check_days(days)
    if layout not in LAYOUTS:
        raise SynthError(f"unknown layout {layout!r} (choose {' or '.join(LAYOUTS)})")
    if live_like and layout != "phantom":
        raise SynthError("--live-like writes a Phantom store: the nocta layout links its events to frames already")
    try:
        zone(tz)
        calendar = active_days(start, days, tz)
    except CalendarError as exc:
        raise SynthError(str(exc)) from None
    path = Path(db_path)
    if path.is_dir():
        raise SynthError(f"{path} is a directory")
    if path.exists() and not overwrite:
        raise SynthError(f"{path} exists (pass --force to replace it)")
    partial = path.with_name(path.name + ".partial")
    _remove(partial)
    sink: _Sink
    if layout == "phantom":
        from .phantom_writer import PhantomSink
        sink = PhantomSink(partial, live_seed=seed if live_like else None)
    else:
        from .nocta_writer import NoctaSink
        sink = NoctaSink(partial)
    totals = dict(snapshots=0, input_events=0, elements=0, trees=0, blind_spots=0, blobs=0, occurrences=0)
    occurrences: list[dict[str, str | int]] = []
    try:
        for day in calendar:
            plan = plan_day(seed, day, days)
            _verify_day(plan, seed, days)
            sink.write_day(plan)
            counts = DayCounts(day.index, day.iso, len(plan.snapshots), len(plan.inputs), plan.element_count,
                               len(plan.trees), len(plan.blind_spots))
            totals["snapshots"] += counts.snapshots
            totals["input_events"] += counts.input_events
            totals["elements"] += counts.elements
            totals["trees"] += counts.trees
            totals["blind_spots"] += counts.blind_spots
            totals["blobs"] += len(plan.blobs)
            totals["occurrences"] += len(plan.occurrences)
            occurrences.extend({"routine": o.routine, "day": day.iso, "start_ms": o.start_ms, "end_ms": o.end_ms,
                                "variant": o.variant} for o in plan.occurrences)
            if progress is not None:
                progress(counts, days)
        sink.write_manifest(manifest(seed, days, calendar, layout, totals, occurrences, live_like=live_like))
        sink.close()
    except BaseException:
        try:
            sink.close()
        finally:
            _remove(partial)
        raise
    if overwrite:
        _remove(path)
    else:
        _remove_sidecars(path)   # orphans of a deleted database would be read as part of this one
    os.replace(partial, path)
    return SynthSummary(str(path), layout, seed, days, calendar[0].iso, calendar[-1].iso, tz, totals["snapshots"],
                        totals["input_events"], totals["elements"], totals["trees"], totals["blind_spots"],
                        totals["blobs"], totals["occurrences"], live_like)


def _verify_day(plan: DayPlan, seed: int, days: int) -> None:
    """The day holds exactly the scheduled occurrences of every routine."""
    counts: dict[str, int] = {}
    for occurrence in plan.occurrences:
        counts[occurrence.routine] = counts.get(occurrence.routine, 0) + 1
    for name, routine in ROUTINE_BY_NAME.items():
        expected = routine.per_day(seed, plan.day.index, days)
        if counts.get(name, 0) != expected:
            raise AssertionError(f"{plan.day.iso}: {name} planted {counts.get(name, 0)} times, "
                                 f"scheduled {expected}")


def manifest(seed: int, days: int, calendar: tuple[Day, ...], layout: str, totals: dict[str, int],
             occurrences: list[dict[str, str | int]], *, live_like: bool = False) -> str:
    """Canonical JSON describing the corpus and its ground truth (a
    live-like store says so; the default document is as it always was)."""
    routines = []
    for routine in planted(seed, days):
        routines.append({
            "name": routine.name, "occurrences": routine.occurrences, "expect_found": routine.expect_found,
            "note": routine.note, "length": len(routine.steps),
            "steps": [{"kind": s.kind, "app": s.app, "target": s.target, "role": s.role, "label": s.label,
                       "specific": s.specific, "step_key": list(step_key(s)), "describe": s.describe()}
                      for s in routine.steps],
        })
    document = {
        "generator": "synth", "version": GENERATOR_VERSION, "seed": seed, "days": days, "layout": layout,
        "start": calendar[0].iso, "end": calendar[-1].iso, "tz": calendar[0].tz,
        "dates": [d.iso for d in calendar], "totals": totals, "routines": routines, "occurrences": occurrences,
    }
    if live_like:
        document["live_like"] = True
    return orjson.dumps(document, option=orjson.OPT_SORT_KEYS).decode("utf-8")
