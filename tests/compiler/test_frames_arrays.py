"""The passes' numpy versions (compiler/frames/arrays.py, for windows of
LONG_WINDOW rows and more) against their list versions (shorter windows):
the same document, byte for byte — on the fixture day and on random
captures with blind spots, silences and linked input. The rule-by-rule
oracles in test_segment_reference / test_coverage_reference check both
versions too."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.api import compile_window, render
from compiler.frames import CompileOptions, arrays, attribute, compile_capture, coverage, quiet, segment
from compiler.records import BlindSpot, Capture, InputEvent, Snapshot

DAY = Path(__file__).resolve().parents[2] / "fixtures" / "synthetic" / "day.sqlite3"
T0 = 1_772_438_400_000
PASSES = (segment, attribute, coverage, quiet)   # the modules that switch at LONG_WINDOW


def test_a_day_through_the_array_versions_is_the_same_document(monkeypatch):
    lists = render(compile_window(DAY, day="2026-03-02", cache=False), "json")
    assert len(compile_window(DAY, day="2026-03-02", cache=False).document.frames) > 100
    for module in PASSES:   # every pass takes its array version
        monkeypatch.setattr(module, "LONG_WINDOW", 0)
    assert render(compile_window(DAY, day="2026-03-02", cache=False), "json") == lists


def test_the_fixture_day_takes_the_list_versions():
    """Else the test above would compare the array versions with themselves."""
    from compiler.api import read_window

    capture, _ = read_window(DAY, day="2026-03-02")
    assert len(capture.snapshots) < segment.LONG_WINDOW and len(capture.inputs) < segment.LONG_WINDOW


@st.composite
def placed(draw):
    """Snapshots and input events on one or two monitors, at times that
    tie, straddle the session gap and fall before the first snapshot."""
    snapshots = []
    for sid in range(1, draw(st.integers(0, 20)) + 1):
        snapshots.append(Snapshot(sid, T0 + draw(st.integers(0, 40)) * 50_000, 60, "UTC",
                                  draw(st.sampled_from((0, 1))), "focus", "a", "t", None, False, True))
    events = []
    for eid in range(1, draw(st.integers(0, 30)) + 1):
        ts = T0 + draw(st.integers(-10, 50)) * 25_000
        events.append(InputEvent(eid, ts, ts, draw(st.sampled_from((0, 1, 2))), "key", 1, None, None, None,
                                 None, None, None, None))
    return tuple(snapshots), tuple(events)


@settings(max_examples=300, deadline=None)
@given(placed())
def test_nearest_snapshots_agree(window):
    snapshots, events = window
    assert arrays.nearest_snapshots(snapshots, events) == attribute.nearest_snapshots(snapshots, events)


@st.composite
def captures(draw):
    """A short capture: snapshots of two apps on two monitors (some idle,
    some at equal times), input events linked to a snapshot, to one outside the window or not, at
    times that leave silences idle and away, and open and closed blind
    spots of every monitor or one."""
    snapshots, ts = [], T0
    for sid in range(1, draw(st.integers(1, 30)) + 1):
        ts += draw(st.sampled_from((0, 1_000, 30_000, 89_000, 150_000, 301_000, 900_000)))
        snapshots.append(Snapshot(sid, ts, 60, "UTC", draw(st.sampled_from((0, 0, 1))), "focus",
                                  draw(st.sampled_from(("a", "b"))), "t", None, draw(st.booleans()), True))
    last = ts
    events = []
    for eid in range(1, draw(st.integers(0, 30)) + 1):
        start = T0 + draw(st.integers(-2, (last - T0) // 10_000 + 20)) * 10_000
        link = draw(st.sampled_from((None, None, 999, *range(1, len(snapshots) + 1))))   # 999: outside
        events.append(InputEvent(eid, start, start + draw(st.sampled_from((0, 500, 20_000))),
                                 draw(st.sampled_from((0, 1))), draw(st.sampled_from(("key", "click"))), 1,
                                 None, None, None, None, None, None, None, snapshot_id=link))
    spots = []
    for bid in range(1, draw(st.integers(0, 4)) + 1):
        start = T0 + draw(st.integers(-1, (last - T0) // 10_000 + 10)) * 10_000
        length = draw(st.sampled_from((None, 20_000, 400_000)))
        spots.append(BlindSpot(bid, start, None if length is None else start + length, "not_running",
                               "capture stopped", draw(st.sampled_from((None, 0, 1)))))
    return Capture("phantom", 4, T0 - 60_000, last + 3_600_000, tuple(snapshots), tuple(events), tuple(spots))


@settings(max_examples=300, deadline=None)
@given(captures(), st.sampled_from((5_000, 60_000, 120_000)))
def test_random_captures_compile_alike_through_both_versions(capture, idle_after):
    options = CompileOptions(zone="UTC", inferred=False, idle_after_ms=idle_after)
    lists = compile_capture(capture, options)
    originals = {module: module.LONG_WINDOW for module in PASSES}
    try:
        for module in PASSES:
            module.LONG_WINDOW = 0
        assert compile_capture(capture, options) == lists
    finally:
        for module, value in originals.items():
            module.LONG_WINDOW = value
