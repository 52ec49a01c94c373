"""One day's plan: when the session starts and ends, lunch, breaks, blind
spots and the planted routine occurrences, with ordinary work in between.
A day depends only on (seed, day index, days), never on another day."""

from __future__ import annotations

import random
from dataclasses import dataclass

from . import noise
from .calendar import Day
from .desk import TREE_REUSE_MS, Desk
from .pacing import gap
from .records import DayPlan
from .rng import derive_rng
from .routines import ROUTINES
from .script import Routine
from .staging import Context
from .workspace import Workspace


@dataclass(frozen=True, slots=True)
class Item:
    """Something scheduled at a local time of the day."""

    at_ms: int
    order: int
    kind: str                 # routine | idle | excluded | paused | display_lost | lunch
    routine: Routine | None = None
    context: Context | None = None
    duration_ms: int = 0


# Per-day volumes: 51 days reach the published corpus scale (activity-frames
# §6: ~128k snapshots, 214k input events, 8M element rows).
TARGET_SNAPSHOTS = 2_510
TARGET_INPUTS = 4_200
TARGET_ELEMENTS = 157_000


def display_lost_day(days: int) -> int:
    return days // 3


def paused_day(index: int) -> bool:
    return index % 4 == 2


def _minutes(day: Day, rng: random.Random, lo: float, hi: float) -> int:
    """A random local time between two fractional hours."""
    start, end = day.at(0) + int(lo * 3_600_000), day.at(0) + int(hi * 3_600_000)
    return rng.randint(start, max(start, end))


def schedule(seed: int, day: Day, days: int, rng: random.Random) -> tuple[list[Item], int, int, int, int]:
    begin = day.at(8, 10) + rng.randint(0, 25 * 60_000)
    lunch = day.at(12, 5) + rng.randint(0, 35 * 60_000)
    lunch_end = lunch + rng.randint(35 * 60_000, 60 * 60_000)
    finish = day.at(17, 40) + rng.randint(0, 15 * 60_000)
    items: list[Item] = []
    order = 0

    def slot(lo_h: float, hi_h: float) -> int:
        while True:
            at = _minutes(day, rng, lo_h, hi_h)
            if not (lunch - 20 * 60_000 <= at <= lunch_end + 5 * 60_000):
                return at

    for routine in ROUTINES:
        count = routine.per_day(seed, day.index, days)
        first = routine.occurrences_before(seed, day.index, days)
        for j in range(count):
            k = first + j
            lead_in = routine.fixed_lead_in or ("gap" if k % 2 == 0 else "content")
            lead_out = routine.fixed_lead_out or ("gap" if k % 3 == 0 else "content")
            lo, hi = routine.hours
            items.append(Item(slot(lo, hi), order, "routine", routine, Context(k, lead_in, lead_out)))
            order += 1
    for _ in range(rng.randint(2, 3)):
        items.append(Item(slot(9.8, 17.0), order, "idle", duration_ms=rng.randint(4 * 60_000, 14 * 60_000)))
        order += 1
    for _ in range(rng.randint(1, 2)):
        items.append(Item(slot(9.0, 17.2), order, "excluded", duration_ms=rng.randint(8_000, 40_000)))
        order += 1
    if paused_day(day.index):
        items.append(Item(slot(13.5, 16.5), order, "paused", duration_ms=rng.randint(8 * 60_000, 25 * 60_000)))
        order += 1
    if day.index == display_lost_day(days):
        items.append(Item(slot(10.5, 11.5), order, "display_lost", duration_ms=rng.randint(20_000, 90_000)))
        order += 1
    items.append(Item(lunch, order, "lunch", duration_ms=lunch_end - lunch))
    items.sort(key=lambda item: (item.at_ms, item.order))
    return items, begin, lunch, lunch_end, finish


def plan_day(seed: int, day: Day, days: int) -> DayPlan:
    rng = derive_rng(seed, "day", day.index)
    desk = Desk(rng)
    ws = Workspace(desk, rng)
    items, begin, lunch, lunch_end, finish = schedule(seed, day, days, rng)
    other = [w for w in (ws.mail, ws.chat, ws.term, ws.files) if w.monitor != ws.firefox.monitor]
    desk.start(begin, [*(other[:1]), ws.firefox])
    pending = list(items)
    latest = day.at(18, 45)
    snapshots = TARGET_SNAPSHOTS + rng.randint(-40, 40)
    while True:
        if pending and pending[0].at_ms <= desk.t:
            _run(ws, rng, pending.pop(0))
            continue
        if not pending and desk.t >= finish and (len(desk.snapshots) >= snapshots or desk.t >= latest):
            break
        _pace(ws, begin, lunch, lunch_end, day.at(18, 0))
        noise.visit(ws, rng)
    desk.finish()
    return DayPlan(day, tuple(desk.trees), tuple(sorted(desk.snapshots, key=lambda s: s.ts_ms)),
                   tuple(sorted(desk.inputs, key=lambda i: i.ts_ms)), tuple(desk.blind), tuple(desk.blobs),
                   tuple(desk.occurrences))


def _pace(ws: Workspace, begin: int, lunch: int, lunch_end: int, end: int) -> None:
    """Steer input and element volume toward the day's targets: more or
    fewer scrolls in pauses, longer or shorter pages."""
    desk = ws.desk
    worked = desk.t - begin - (max(0, min(desk.t, lunch_end) - lunch))
    total = end - begin - (lunch_end - lunch)
    share = min(1.0, max(0.05, worked / total))
    inputs = 0.97 * TARGET_INPUTS * share / max(1, len(desk.inputs))
    desk.filler = min(0.95, max(0.1, 0.5 * inputs ** 3))
    elements = 0.97 * TARGET_ELEMENTS * share / max(1, desk.element_count)
    ws.scale = min(3.0, max(0.25, elements ** 3))
    # ahead of the element budget: keep cached walks longer (fewer stale trees)
    desk.reuse_ms = TREE_REUSE_MS if elements >= 1 else int(TREE_REUSE_MS + (1 - elements) * 6_000_000)


def _run(ws: Workspace, rng: random.Random, item: Item) -> None:
    desk = ws.desk
    if item.kind == "routine":
        assert item.routine is not None and item.context is not None
        item.routine.perform(ws, rng, item.context)
    elif item.kind == "idle":
        _back_to_main(ws, rng)
        desk.wait(item.duration_ms)
        noise.act(ws, rng)
    elif item.kind == "lunch":
        _back_to_main(ws, rng)
        desk.outage("", "", item.duration_ms, "focus")
    elif item.kind == "excluded":
        _back_to_main(ws, rng)
        back = desk.focus
        desk.focus_window(ws.keepass, via=rng.choice(("pointer", "alttab")))
        desk.wait(item.duration_ms)
        assert back is not None
        desk.focus_window(back, via="pointer")
        gap(desk, rng)
    elif item.kind == "paused":
        _back_to_main(ws, rng)
        desk.outage("paused", "paused by the user", item.duration_ms, "resume")
        gap(desk, rng)
    elif item.kind == "display_lost":
        _back_to_main(ws, rng)
        desk.outage("display_lost", "lost the connection to X display :0", item.duration_ms, "focus")
        gap(desk, rng)


def _back_to_main(ws: Workspace, rng: random.Random) -> None:
    """Breaks and outages start from an ordinary window (not a dialog)."""
    if ws.desk.focus not in ws.apps:
        noise.visit(ws, rng, actions=1)
