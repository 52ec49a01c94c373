"""Forgetting a window of the store (core/store/forget.py), row by row:
what goes, what stays, how blind spots are cut, and that no byte of what
went is left in the database or its WAL."""

from __future__ import annotations

from pathlib import Path

import apsw
import orjson
import pytest

from core.errors import PhantomError
from core.store import (
    BlindSpotRow,
    BlobRow,
    ElementRow,
    InputEventRow,
    RecordingRow,
    SnapshotRow,
    StoreWriter,
    TreeRow,
    open_store,
)
from core.store.forget import FORGOTTEN, forget_window, plan_forget
from support.daemon import query

SECRET = "Qx7-Marmalade-Sunrise"
T = 1_772_438_400_000          # the window is [T, T + 1 h)
SINCE, UNTIL = T, T + 3_600_000
MIN = 60_000


def snapshot(writer, ts, title="Editor", screenshot=None, tree=None):
    row_id = writer.ids.next("snapshots")
    writer.submit(SnapshotRow(row_id, ts, 60, "Europe/Berlin", 0, "focus", "gedit", "gedit.Gedit",
                              None, None, title, None, 0, 1, screenshot, tree))
    return row_id


def blob(writer, name: str, ts: int, kind="thumbnail") -> str:
    sha = name.ljust(64, "0")
    writer.submit(BlobRow(sha, kind, "image/png", 8, 8, f"pixels of {name}".encode() * 40, ts))
    return sha


def element(writer, name, tree=None):
    row_id = writer.ids.next("elements")
    writer.submit(ElementRow(row_id, tree, None, 1, 0, "push button", name, "", None, "", 0, 0, 9, 9,
                             f"gedit/push button[@name='{name}']"))
    return row_id


@pytest.fixture
def store(tmp_path) -> Path:
    """A day around the window, with everything a forget has to decide on."""
    db = tmp_path / "store.sqlite3"
    w = StoreWriter(db, commit_interval=None)
    shared = blob(w, "shared", T - 10 * MIN)
    snapshot(w, T - 10 * MIN, "Before", shared)
    tree = w.ids.next("a11y_trees")
    w.submit(TreeRow(tree, T + 50 * MIN, "gedit", 2, None, 12))
    hit_later = element(w, "Save", tree)
    element(w, f"label {SECRET}", tree)
    snapshot(w, T + 5 * MIN, f"Draft {SECRET}", blob(w, f"in{SECRET[:8]}", T + 5 * MIN), tree)
    snapshot(w, T + 6 * MIN, "Shared picture", shared)
    w.submit(RecordingRow(1, "sign up", T + 20 * MIN, T + 25 * MIN))
    w.ids.next("recordings")
    clicked = element(w, f"button {SECRET}")
    crop = blob(w, "crop", T + 21 * MIN, "click_crop")
    for row in (
        InputEventRow(w.ids.next("input_events"), T - 2 * MIN, T + MIN, 0, "text", 40),   # runs in
        InputEventRow(w.ids.next("input_events"), T + 21 * MIN, T + 21 * MIN, 0, "click", 1,
                      element_id=clicked, crop=crop, recording_id=1),
        InputEventRow(w.ids.next("input_events"), T + 22 * MIN, T + 23 * MIN, 0, "text", 21,
                      recording_id=1, text=SECRET),
        InputEventRow(w.ids.next("input_events"), T + 70 * MIN, T + 70 * MIN, 0, "click", 1,
                      element_id=hit_later),
        InputEventRow(w.ids.next("input_events"), T - 30 * MIN, T - 29 * MIN, 0, "key", 2, key="Return"),
    ):
        w.submit(row)
    snapshot(w, T + 70 * MIN, "After", None, tree)  # still shares the walk made in the window
    for spot in (
        BlindSpotRow(w.ids.next("blind_spots"), T - 60 * MIN, T + 120 * MIN, 60, "Europe/Berlin", None,
                     "paused", "paused by the user"),
        BlindSpotRow(w.ids.next("blind_spots"), T - 5 * MIN, T + 5 * MIN, 60, "Europe/Berlin", 0,
                     "excluded", "banking"),
        BlindSpotRow(w.ids.next("blind_spots"), T + 30 * MIN, T + 31 * MIN, 60, "Europe/Berlin", 0,
                     "display_lost", ""),
        BlindSpotRow(w.ids.next("blind_spots"), T + 55 * MIN, None, 60, "Europe/Berlin", 0,
                     "no_accessibility", "gedit"),
    ):
        w.submit(spot)
    w.flush()
    w.close()
    # A burst rewritten while it grew, by a Phantom that did not zero what it
    # replaced: the longer text's old page content stays in free space.
    older = apsw.Connection(str(db))
    older.pragma("secure_delete", 0)
    with older:
        older.execute("UPDATE input_events SET text = ? WHERE text = ?", (SECRET + "-and-a-longer-tail", SECRET))
        older.execute("UPDATE input_events SET text = ? WHERE text = ?", (SECRET, SECRET + "-and-a-longer-tail"))
    older.close()
    connection = open_store(db)
    with connection:
        body = orjson.dumps({"origin": ["recording:1"], "steps": [{"text": SECRET}]}).decode()
        connection.execute("INSERT INTO programs VALUES ('p-signup', 'sign up', 'demonstration', ?, "
                           "1, ?)", (T + 26 * MIN, body))
        connection.execute("INSERT INTO programs VALUES ('p-other', 'other', 'routine', 1, 3, "
                           "'{\"origin\": [\"routine:r-1#0\"]}')")
        connection.execute("INSERT INTO replay_runs VALUES (1, 'p-signup', ?, ?, 'success', 'cli', "
                           "'{}', 3, 3, 0, '')", (T + 90 * MIN, T + 91 * MIN))
        connection.execute("INSERT INTO replay_runs VALUES (2, 'p-other', ?, ?, 'success', 'cli', "
                           "'{}', 3, 3, 0, '')", (T + 40 * MIN, T + 41 * MIN))
        connection.execute("INSERT INTO replay_runs VALUES (3, 'p-other', ?, ?, 'success', 'cli', "
                           "'{}', 3, 3, 0, '')", (T + 95 * MIN, T + 96 * MIN))
    connection.close()
    return db


def raw_bytes(db: Path) -> bytes:
    return b"".join(Path(f"{db}{s}").read_bytes() for s in ("", "-wal") if Path(f"{db}{s}").exists())


def forget(db: Path, now: int = T + 2 * 3_600_000):
    connection = open_store(db)
    next_id = iter(range(100, 200))
    try:
        return forget_window(connection, db, SINCE, UNTIL, now_ms=now,
                             next_blind_spot_id=lambda: next(next_id))
    finally:
        connection.close()


def test_a_plan_counts_what_would_go_and_changes_nothing(store):
    before = raw_bytes(store)
    plan = plan_forget(open_store(store), SINCE, UNTIL)
    assert (plan.snapshots, plan.input_events, plan.typed_texts, plan.trees, plan.images,
            plan.replay_runs, plan.blind_spots) == (2, 3, 1, 1, 2, 2, 4)
    assert plan.elements == 2  # the walk's label and the click's button; "Save" is hit later
    assert plan.recordings == ("sign up",) and plan.programs == ("sign up (p-signup)",)
    assert plan.scrubbed is None and not plan.nothing()
    assert query(store, "SELECT count(*) FROM snapshots") == [(4,)]
    assert SECRET.encode() in before


def test_forgetting_leaves_no_byte_of_the_window_and_keeps_the_rest(store):
    report = forget(store)
    assert report.scrubbed is True
    assert SECRET[:8].encode() not in raw_bytes(store)  # the text, older versions, the image
    assert query(store, "SELECT ts_ms - ?, title, tree_id FROM snapshots ORDER BY ts_ms", (T,)) == [
        (-10 * MIN, "Before", None), (70 * MIN, "After", None)]
    assert query(store, "SELECT ts_ms - ?, kind FROM input_events ORDER BY ts_ms", (T,)) == [
        (-30 * MIN, "key"), (70 * MIN, "click")]
    assert query(store, "SELECT name, tree_id FROM elements") == [("Save", None)]
    assert query(store, "SELECT count(*) FROM a11y_trees") == [(0,)]
    assert query(store, "SELECT substr(sha256, 1, 6) FROM blobs") == [("shared",)]
    assert query(store, "SELECT count(*) FROM recordings") == [(0,)]
    assert query(store, "SELECT id FROM programs") == [("p-other",)]
    assert query(store, "SELECT id FROM replay_runs") == [(3,)]


def test_blind_spots_are_cut_at_the_edges_and_the_window_says_forgotten(store):
    forget(store, now=T + 45 * MIN)  # the open spot started after now: it starts at now
    assert query(store, "SELECT id, start_ms - ?, end_ms - ?, kind FROM blind_spots ORDER BY start_ms, id",
                 (T, T)) == [
        (100, -60 * MIN, 0, "paused"),
        (2, -5 * MIN, 0, "excluded"),
        (101, 0, 45 * MIN, FORGOTTEN),
        (4, 45 * MIN, None, "no_accessibility"),
        (1, 60 * MIN, 120 * MIN, "paused")]


def test_a_window_that_starts_after_now_is_refused(store):
    with pytest.raises(PhantomError) as refused:
        forget(store, now=SINCE - 1)
    assert refused.value.code == "invalid_window"


def test_a_program_whose_body_is_not_json_does_not_stop_a_forget(store):
    connection = open_store(store)
    with connection:
        connection.execute("INSERT INTO programs VALUES ('p-broken', 'broken', 'routine', 1, 1, '{oops')")
    connection.close()
    report = forget(store)
    assert report.programs == ("sign up (p-signup)",)
    assert query(store, "SELECT id FROM programs ORDER BY id") == [("p-broken",), ("p-other",)]


def test_a_forget_that_would_leave_a_dangling_reference_changes_nothing(store, monkeypatch):
    import core.store.forget as module
    from core.store import StoreError

    monkeypatch.setattr(module, "_delete", lambda connection: connection.execute(
        "DELETE FROM a11y_trees"))   # a walk snapshots still name
    with pytest.raises(StoreError, match="nothing was forgotten"):
        forget(store)
    assert query(store, "SELECT count(*) FROM a11y_trees") == [(1,)]
    assert query(store, "SELECT count(*) FROM blind_spots WHERE kind = 'forgotten'") == [(0,)]


def add_click_evidence(db: Path) -> None:
    """Three crops for the click inside the window and two for the one after
    it; the wide crop shows the same picture in both (one blob). The inside
    click's context crop was written just before the window began: only its
    evidence row says it belongs to the click."""
    from core.store import ClickEvidenceRow

    w = StoreWriter(db, commit_interval=None)
    inside, later = (row[0] for row in query(db, "SELECT id FROM input_events WHERE kind = 'click' "
                                                  "ORDER BY ts_ms"))
    crop = query(db, "SELECT crop FROM input_events WHERE id = ?", (inside,))[0][0]
    context = blob(w, f"ctx{SECRET[:8]}", T - 1, "click_crop")
    wide = blob(w, "wide", T - 20 * MIN, "click_crop")
    target_later = blob(w, "later", T + 70 * MIN, "click_crop")
    for input_id, kind, sha, side in ((inside, "target", crop, 64), (inside, "context", context, 128),
                                      (inside, "wide", wide, 256), (later, "target", target_later, 64),
                                      (later, "wide", wide, 256)):
        w.submit(ClickEvidenceRow(input_id, kind, sha, 10, 10, side, side, 0.5, 0.5, 0, 0, 800, 600))
    w.flush()
    w.close()


def test_a_clicks_crops_go_with_it_unless_a_click_that_stays_shows_them(store):
    add_click_evidence(store)
    assert plan_forget(open_store(store), SINCE, UNTIL).images == 3     # as before, and the context crop
    forget(store)
    assert SECRET[:8].encode() not in raw_bytes(store)
    assert query(store, "SELECT kind, substr(blob, 1, 5) FROM click_evidence ORDER BY width") == [
        ("target", "later"), ("wide", "wide0")]
    assert query(store, "SELECT substr(sha256, 1, 5) FROM blobs ORDER BY sha256") == [
        ("later",), ("share",), ("wide0",)]


def test_export_shows_a_clicks_crops_and_their_pictures(store):
    from core.store.export import export_rows

    add_click_evidence(store)
    connection = open_store(store)
    try:
        rows = list(export_rows(connection, SINCE, UNTIL))
    finally:
        connection.close()
    evidence = [(r["kind"], r["width"], r["window_w"]) for r in rows if r["table"] == "click_evidence"]
    assert evidence == [("target", 64, 800), ("context", 128, 800), ("wide", 256, 800)]
    shown = {r["sha256"][:5] for r in rows if r["table"] == "blobs"}
    assert {"crop0", f"ctx{SECRET[:2]}", "wide0"} <= shown and "later" not in shown
