"""A screenpipe / nocta database says which window each input event went to
(`ui_events.frame_id`, `ui_events.app_name`); the reader follows those links
instead of putting the event on whatever screen showed a frame nearest in
time. Databases are built with screenpipe's own table layout
(tests/support/screenpipe.py)."""

from __future__ import annotations

from compiler.api import read_window
from compiler.routines import derive_actions
from support.screenpipe import ScreenpipeDb

T0 = 1_772_438_400_000   # 2026-03-02 08:00:00 UTC
S = 1000


def two_screens(tmp_path, *, link_frames: bool, name_apps: bool):
    """Calculator on the left screen, the editor on the right. The user was
    in the editor, clicks 7 + 3 = in the calculator (the last two just
    before going back), then returns to the editor, whose frame is written
    half a second after the last click."""
    db = ScreenpipeDb(tmp_path / "screenpipe.sqlite3")
    db.frame(T0 - 60 * S, "Editor", "notes.txt", device="monitor_1")
    calc = db.frame(T0, "Calculator", "Calculator", device="monitor_0")
    db.frame(T0 + 10 * S, "Editor", "notes.txt", device="monitor_1")
    for at, label in ((2, "7"), (4, "+"), (9, "3"), (9.5, "=")):
        db.event(T0 + int(at * S), "click", app="Calculator" if name_apps else None,
                 frame_id=calc if link_frames else None, x=100, y=200, role="AXButton", name=label)
    db.close()
    capture, _ = read_window(db.path, since="2026-03-02T07:00", until="2026-03-02T09:00", tz="UTC")
    return calc, capture


def clicks(capture):
    return [(a.step.label, a.step.app) for a in derive_actions(capture) if a.step.kind == "click"]


def test_clicks_linked_to_their_frame_stay_in_the_app_that_got_them(tmp_path):
    calc, capture = two_screens(tmp_path, link_frames=True, name_apps=True)
    assert clicks(capture) == [("7", "Calculator"), ("+", "Calculator"), ("3", "Calculator"),
                               ("=", "Calculator")]
    assert {(e.monitor, e.snapshot_id) for e in capture.inputs} == {(0, calc)}


def test_the_app_name_alone_links_an_event_as_screenpipe_writes_it(tmp_path):
    """screenpipe's recorder fills app_name and leaves frame_id NULL."""
    calc, capture = two_screens(tmp_path, link_frames=False, name_apps=True)
    assert [app for _, app in clicks(capture)] == ["Calculator"] * 4
    assert {(e.monitor, e.snapshot_id) for e in capture.inputs} == {(0, calc)}


def test_without_links_the_nearest_frame_rule_gives_the_last_two_clicks_to_the_next_app(tmp_path):
    """The layout's old rule, kept for databases that do not say: the clicks at
    9 s and 9.5 s are nearer the editor's frame at 10 s than the calculator's
    at 0 s, so they land on the right screen, where the editor had focus."""
    _, capture = two_screens(tmp_path, link_frames=False, name_apps=False)
    assert clicks(capture) == [("7", "Calculator"), ("+", "Calculator"), ("3", "Editor"), ("=", "Editor")]
    assert [e.snapshot_id for e in capture.inputs] == [None] * 4


def test_the_app_name_wins_over_a_frame_of_another_app(tmp_path):
    """A frame link to another app's frame (a recorder that took the last frame
    on that screen) yields to the app the event names."""
    db = ScreenpipeDb(tmp_path / "screenpipe.sqlite3")
    editor = db.frame(T0, "Editor", "notes.txt", device="monitor_1")
    calc = db.frame(T0 + 3 * S, "Calculator", "Calculator", device="monitor_0")
    db.event(T0 + 1 * S, "click", app="Calculator", frame_id=editor, role="AXButton", name="7")
    db.event(T0 + 2 * S, "click", app=None, frame_id=editor, role="AXButton", name="Save")
    db.close()
    capture, _ = read_window(db.path, since="2026-03-02T07:00", until="2026-03-02T09:00", tz="UTC")
    assert [(e.monitor, e.snapshot_id) for e in capture.inputs] == [(0, calc), (1, editor)]
    assert clicks(capture) == [("7", "Calculator"), ("Save", "Editor")]


def test_an_app_name_links_only_within_300_seconds(tmp_path):
    db = ScreenpipeDb(tmp_path / "screenpipe.sqlite3")
    calc = db.frame(T0, "Calculator", "Calculator", device="monitor_0")
    db.frame(T0 + 400 * S, "Editor", "notes.txt", device="monitor_1")
    db.event(T0 + 301 * S + 1, "click", app="Calculator", role="AXButton", name="7")
    db.event(T0 + 300 * S, "click", app="Calculator", role="AXButton", name="8")
    db.close()
    capture, _ = read_window(db.path, since="2026-03-02T07:00", until="2026-03-02T09:00", tz="UTC")
    late, in_reach = sorted(capture.inputs, key=lambda e: -e.ts_ms)
    assert (late.monitor, late.snapshot_id) == (1, None)       # nearest frame: the editor's, 99 s away
    assert (in_reach.monitor, in_reach.snapshot_id) == (0, calc)


def test_timestamps_in_any_iso_form_the_layout_uses_are_read_to_the_millisecond(tmp_path):
    from compiler.sources.nocta import _ms

    assert _ms("2026-03-02T08:00:00.123000+00:00") == T0 + 123
    assert _ms("2026-03-02T08:00:00.123+00:00") == T0 + 123
    assert _ms("2026-03-02 08:00:00.123456789Z") == T0 + 123
    assert _ms("2026-03-02T09:00:00.001+01:00") == T0 + 1
    assert _ms("2026-03-02T08:00:00") == T0
    assert _ms("not a time") is None and _ms(None) is None


def test_the_document_counts_the_events_that_fell_back_to_the_nearest_frame(tmp_path):
    from compiler.api import compile_window

    def notes(name_apps: bool) -> dict[str, tuple[str, int]]:
        folder = tmp_path / ("named" if name_apps else "bare")
        folder.mkdir()
        two_screens(folder, link_frames=False, name_apps=name_apps)
        document = compile_window(folder / "screenpipe.sqlite3", day="2026-03-02", tz="UTC").document
        return {n.kind: (n.detail, n.count) for n in document.blind_spots}

    assert notes(name_apps=False)["input_window_unrecorded"] == (
        "input whose receiving window the capture did not record, credited to the nearest snapshot "
        "on its monitor", 4)
    assert "input_window_unrecorded" not in notes(name_apps=True)


def test_a_window_keeps_rows_whatever_form_their_timestamp_text_takes(tmp_path):
    """screenpipe omits a zero fraction ('08:00:00+00:00'); other writers use a
    space for the 'T'. Text comparison alone would drop such rows at a bound."""
    db = ScreenpipeDb(tmp_path / "screenpipe.sqlite3")
    for text, app in (("2026-03-02T08:00:00+00:00", "A"), ("2026-03-02 08:00:01.5", "B"),
                      ("2026-03-02T08:59:59.999Z", "C"), ("2026-03-02 09:00:00", "D"),
                      ("2026-03-02T07:59:59.999+00:00", "E")):
        db.connection.execute("INSERT INTO frames(timestamp, app_name, window_name, device_name) "
                              "VALUES(?, ?, '', 'monitor_0')", (text, app))
    db.close()
    capture, _ = read_window(db.path, since="2026-03-02T08:00", until="2026-03-02T09:00", tz="UTC")
    assert [s.app for s in capture.snapshots] == ["A", "B", "C"]


def test_events_of_the_same_millisecond_keep_the_order_they_were_written(tmp_path):
    """Ties in time follow the row order, read as numbers: row 10 comes after
    row 9 (as text it sorted first, and put a field's text before the ctrl+a
    typed just ahead of it)."""
    db = ScreenpipeDb(tmp_path / "screenpipe.sqlite3")
    db.frame(T0, "Calculator", "Calculator", device="monitor_0")
    for label in "0123456789+=":
        db.event(T0 + S, "click", app="Calculator", role="AXButton", name=label)
    db.close()
    capture, _ = read_window(db.path, since="2026-03-02T07:00", until="2026-03-02T09:00", tz="UTC")
    assert [label for label, _ in clicks(capture)] == list("0123456789+=")
