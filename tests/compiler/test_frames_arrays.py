"""The passes' numpy versions (compiler/frames/arrays.py, for windows of
LONG_WINDOW rows and more) against their list versions (shorter windows):
the same document, byte for byte. The rule-by-rule oracles in
test_segment_reference / test_coverage_reference check both versions too."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.api import compile_window, render
from compiler.frames import arrays, attribute, coverage, segment
from compiler.records import InputEvent, Snapshot

DAY = Path(__file__).resolve().parents[2] / "fixtures" / "synthetic" / "day.sqlite3"
T0 = 1_772_438_400_000


def test_a_day_through_the_array_versions_is_the_same_document(monkeypatch):
    lists = render(compile_window(DAY, day="2026-03-02", cache=False), "json")
    assert len(compile_window(DAY, day="2026-03-02", cache=False).document.frames) > 100
    for module in (segment, attribute, coverage):   # every pass takes its array version
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
