"""Five synthetic days in the nocta layout: 33 planted four-click routines on a
two-screen desk, ten of them done quickly, with the last two clicks just
before the user goes back to the other screen. Written by the synthetic
generator's nocta writer from hand-made day plans; mined from the database
as it is (the writer links every event to its window) and with the links
erased (the nearest-frame rule)."""

from __future__ import annotations

import shutil
from datetime import date

import apsw

from compiler.api import mined_routines, read_window
from synth.calendar import active_days
from synth.nocta_writer import NoctaSink
from synth.records import DayPlan, PlannedInput, PlannedSnapshot, PlannedTree
from synth.trees import expand, spec
from synth.world import MONITORS, App

CALCULATOR = App("gnome-calculator", "gnome-calculator.Gnome-calculator", "/usr/bin/gnome-calculator", "Calculator")
EDITOR = App("mousepad", "mousepad.Mousepad", "/usr/bin/mousepad", "Mousepad")
BUTTONS = ("7", "+", "3", "=")
PER_DAY = (7, 7, 7, 6, 6)   # 33 occurrences
S = 1000


def quick(index: int) -> bool:
    """Ten of the 33 occurrences (7 is coprime with 33, so i·7 mod 33 runs
    through every residue once)."""
    return index * 7 % 33 < 10


def day_plan(day, first_index: int, count: int) -> DayPlan:
    tree = expand(spec("frame", "Calculator", *(spec("push button", label) for label in BUTTONS)),
                  CALCULATOR.app, MONITORS[0].window_rect())
    nodes = [tree.require("push button", label) for label in BUTTONS]
    snapshots, inputs = [], []

    def show(ts, monitor, app, title, *, focused=True, trigger="focus", with_tree=False):
        snapshots.append(PlannedSnapshot(ts, monitor, trigger, app, 4242, title, None, False, focused,
                                         0 if with_tree else None, None, None))

    for n in range(count):
        t0 = day.at(9) + n * 600 * S
        show(t0 - 120 * S, 1, EDITOR, "notes.txt — Mousepad")
        show(t0, 0, CALCULATOR, "Calculator", with_tree=True)
        offsets = (2, 4, 9, 9.5) if quick(first_index + n) else (2, 4, 6, 8)
        for at, node in zip(offsets, nodes):
            x, y = tree.nodes[node].x + 5, tree.nodes[node].y + 5
            inputs.append(PlannedInput(t0 + int(at * S), t0 + int(at * S), 0, "click", 1, None, 1, x, y,
                                       (0, node), "exact", None, CALCULATOR, "Calculator", None))
        show(t0 + (10 if quick(first_index + n) else 30) * S, 1, EDITOR, "notes.txt — Mousepad")
        show(t0 + 40 * S, 0, CALCULATOR, "Calculator", focused=False, trigger="heartbeat", with_tree=True)
    snapshots.sort(key=lambda s: (s.ts_ms, s.monitor))
    return DayPlan(day, (PlannedTree(day.at(9), tree, 5),), tuple(snapshots), tuple(inputs), (), (), ())


def five_days(path) -> None:
    sink = NoctaSink(path)
    first = 0
    for day, count in zip(active_days(date(2026, 3, 2), 5, "UTC"), PER_DAY):
        sink.write_day(day_plan(day, first, count))
        first += count
    sink.close()


def found(path) -> int:
    """Support of the mined routine that holds the four clicks in the calculator."""
    capture, _ = read_window(path)
    clicks = tuple(("click", "Calculator", "AXButton", label) for label in BUTTONS)
    supports = [r.support for r in mined_routines(capture)
                if any(tuple(r.keys[i:i + 4]) == clicks for i in range(len(r.keys) - 3))]
    return max(supports, default=0)


def test_every_planted_occurrence_is_found_when_the_reader_follows_the_links(tmp_path):
    linked = tmp_path / "nocta.sqlite3"
    five_days(linked)
    assert sum(PER_DAY) == 33 and sum(quick(i) for i in range(33)) == 10
    db = apsw.Connection(str(linked))
    assert db.execute("SELECT count(*) FROM ui_events WHERE event_type = 'click' "
                      "AND frame_id IS NOT NULL AND app_name = 'Calculator'").get == 132
    db.close()
    assert found(linked) == 33

    erased = tmp_path / "erased.sqlite3"
    shutil.copy(linked, erased)
    db = apsw.Connection(str(erased))
    db.execute("UPDATE ui_events SET frame_id = NULL, app_name = NULL")
    db.close()
    assert found(erased) == 23
