"""Scripted XTest activity across two real GTK apps, captured by the real
daemon into a real store: the right snapshots, exact counts, resolved clicks."""

from __future__ import annotations

import pytest

from support.apps import app_named, center, find, focus
from support.daemon import CaptureProcess, query, settle, wait_for_rows
from testbed.executables import executable

pytestmark = pytest.mark.desktop


def test_two_apps_give_snapshots_counts_and_resolved_clicks(desktop, apps, user, tmp_path):
    apps("form", "--geometry", "300x220+0+0")
    apps("notes", "--geometry", "420x320+520+60")
    form, notes = app_named("phantom-form"), app_named("phantom-notes")
    db = tmp_path / "store.sqlite3"
    with CaptureProcess(desktop, db) as capture:
        focus(desktop, "phantom-form")
        user.click(*center(find(form, "text", label="Name:")))
        settle()
        user.type("alice")                       # 5 keys
        user.key("Tab")                          # 1 key
        user.type("a@b.c")                       # 5 keys
        user.click(*center(find(form, "push button", name="Submit")))
        settle(0.6)
        focus(desktop, "phantom-notes")
        user.click(*center(find(notes, "text", label="Title:")))
        settle()
        user.type("groceries")                   # 9 keys
        user.click(*center(find(notes, "push button", name="Save")))
        settle(0.5)
        user.key("ctrl+s")                       # 1 shortcut key
        settle(0.5)
        assert capture.stop() == 0

    snapshots = query(db, "SELECT app, title, trigger FROM snapshots ORDER BY ts_ms, id")
    apps_seen = [app for app, _, _ in snapshots]
    assert apps_seen.index("phantom-form") < apps_seen.index("phantom-notes")
    titles = {(app, title) for app, title, _ in snapshots}
    assert {("phantom-form", "Phantom Form"), ("phantom-form", "Phantom Form — sent"),
            ("phantom-notes", "Phantom Notes"),
            ("phantom-notes", "groceries — Phantom Notes")} <= titles
    assert ("phantom-form", "Phantom Form — sent", "title") in snapshots

    keys = query(db, "SELECT coalesce(sum(count), 0) FROM input_events "
                     "WHERE kind IN ('key', 'text', 'copy')")[0][0]
    assert keys == 21
    assert query(db, "SELECT key, count FROM input_events WHERE kind = 'key' ORDER BY ts_ms") == [
        ("Tab", 1), ("ctrl+s", 1)]
    clicks = query(db, "SELECT i.resolution, e.role, e.name, e.labelled_by FROM input_events i "
                       "LEFT JOIN elements e ON e.id = i.element_id "
                       "WHERE i.kind = 'click' ORDER BY i.ts_ms")
    assert [(role, name or label) for _, role, name, label in clicks] == [
        ("text", "Name:"), ("push button", "Submit"), ("text", "Title:"), ("push button", "Save")]
    assert {resolution for resolution, *_ in clicks} <= {"exact", "tolerance"}
    assert all(resolution == "exact" for resolution, *_ in clicks[1::2])  # buttons: dead centre

    bursts = query(db, "SELECT i.count, e.role, e.labelled_by FROM input_events i "
                       "LEFT JOIN elements e ON e.id = i.element_id WHERE i.kind = 'text' "
                       "ORDER BY i.ts_ms")
    assert bursts == [(5, "text", "Name:"), (5, "text", "Email:"), (9, "text", "Title:")]
    # Counts only: no typed text outside a recording.
    assert query(db, "SELECT count(*) FROM input_events WHERE text IS NOT NULL") == [(0,)]
    # Every snapshot of a focused, accessible window points at a stored tree.
    assert query(db, "SELECT count(*) FROM snapshots WHERE tree_id IS NOT NULL") != [(0,)]
    assert query(db, "SELECT count(*) FROM snapshots s LEFT JOIN a11y_trees t "
                     "ON t.id = s.tree_id WHERE s.tree_id IS NOT NULL AND t.id IS NULL") == [(0,)]
    assert query(db, "PRAGMA foreign_key_check") == []


def test_title_change_and_focus_follow_pointer_without_window_manager(desktop, apps, user, tmp_path):
    """Without a window manager X's default focus follows the pointer; the
    daemon must still see which window the keyboard goes to."""
    apps("form", "--geometry", "300x220+0+0")
    apps("notes", "--geometry", "420x320+520+60")
    db = tmp_path / "store.sqlite3"
    desktop.run([executable("xdotool"), "windowfocus", "--sync", "0"])  # hand focus back to PointerRoot? no-op safe
    with CaptureProcess(desktop, db):
        from Xlib import X, display

        connection = display.Display(desktop.display)
        connection.set_input_focus(X.PointerRoot, X.RevertToPointerRoot, X.CurrentTime)
        connection.sync()
        user.move(600, 200)
        wait_for_rows(db, "SELECT app FROM snapshots", lambda rows: ("phantom-notes",) in rows,
                      what="a notes snapshot under the pointer")
        user.move(100, 100)
        wait_for_rows(db, "SELECT app FROM snapshots WHERE trigger = 'focus'",
                      lambda rows: rows and rows[-1] == ("phantom-form",),
                      what="a form snapshot under the pointer")
        connection.close()


def test_two_monitors_have_their_own_snapshot_streams(tmp_path):
    """Per monitor: the focused window's snapshots on its monitor, and
    heartbeats of the window last focused on the other monitor."""
    from testbed.harness import DesktopConfig, VirtualDesktop

    with VirtualDesktop(DesktopConfig(monitors=2)) as desktop:
        desktop.launch_fixture("form", "--geometry", "300x220+100+100")
        desktop.launch_fixture("notes", "--geometry", "400x300+1400+100")
        db = tmp_path / "store.sqlite3"
        config = "[capture]\nheartbeat_seconds = 1\n"
        with CaptureProcess(desktop, db, config_text=config) as capture:
            focus(desktop, "phantom-form")
            focus(desktop, "phantom-notes")
            wait_for_rows(db, "SELECT count(*) FROM snapshots WHERE trigger = 'heartbeat' "
                              "AND app = 'phantom-form' AND focused = 0",
                          lambda rows: rows[0][0] >= 2, timeout=15,
                          what="heartbeats of the form on the unfocused monitor")
            assert capture.stop() == 0
    rows = set(query(db, "SELECT app, monitor, focused FROM snapshots"))
    assert ("phantom-form", 0, 1) in rows and ("phantom-notes", 1, 1) in rows
    assert ("phantom-form", 0, 0) in rows
    assert not any(app == "phantom-notes" and monitor == 0 for app, monitor, _ in rows)
