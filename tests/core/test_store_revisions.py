"""Migration 5's per-UTC-day revisions: every writer path bumps the day it
changes (the daemon's writer, an import, forget, retention) through the real
store functions, and only a change the compiler can see bumps anything."""

from __future__ import annotations

import re
import shutil
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

import pytest

from compiler.api import read_nocta
from compiler.sources import phantom_store
from core.store import (
    BlindSpotRow,
    ElementRow,
    InputEventRow,
    Replace,
    SetEnd,
    SnapshotRow,
    StoreWriter,
    open_readonly,
    open_store,
)
from core.store.forget import forget_window
from core.store.migration_5 import DAY_MS, ELEMENT_COLUMNS, TRIGGERS, WATCHED
from core.store.retention import remove_raw
from support.goldens import FIXTURES

SYNTHETIC = FIXTURES / "synthetic" / "day.sqlite3"
DAY = int(datetime(2026, 3, 2, tzinfo=timezone.utc).timestamp() * 1000)   # the fixture's UTC day
NEXT = DAY + DAY_MS


def revisions(db: Path) -> dict[int, int]:
    connection = open_readonly(db)
    try:
        return dict(connection.execute("SELECT day_utc, revision FROM day_revisions").fetchall())
    finally:
        connection.close()


def element_revision(db: Path) -> int:
    connection = open_readonly(db)
    try:
        row = connection.execute("SELECT value FROM revision_marks WHERE name = 'elements'").fetchone()
        return int(row[0]) if row else 0
    finally:
        connection.close()


@pytest.fixture
def store(tmp_path) -> Path:
    """The synthetic day (a schema-2 store) migrated to the current schema."""
    db = tmp_path / "store.sqlite3"
    shutil.copyfile(SYNTHETIC, db)
    open_store(db).close()
    return db


def test_migration_5_starts_every_existing_day_at_revision_0(store):
    connection = open_readonly(store)
    assert connection.pragma("user_version") >= 5
    names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    assert {name for name, _ in TRIGGERS} <= names
    assert connection.execute("SELECT count(*) FROM snapshots").fetchone()[0] > 1000
    connection.close()
    assert revisions(store) == {} and element_revision(store) == 0   # nothing backfilled


def snapshot(row_id: int, ts: int, title: str = "Inbox") -> SnapshotRow:
    return SnapshotRow(row_id, ts, 60, "Europe/Berlin", 0, "focus", "firefox", "firefox", None, None,
                       title, None, 0, 1, None, None)


def next_ids(db: Path) -> tuple[int, int, int, int]:
    connection = open_readonly(db)
    try:
        return tuple(connection.execute(f"SELECT coalesce(max(id), 0) + 1 FROM {table}").fetchone()[0]
                     for table in ("snapshots", "input_events", "blind_spots", "elements"))
    finally:
        connection.close()


def test_the_daemon_writer_bumps_the_days_it_writes(store):
    snap, typed, spot, element = next_ids(store)
    writer = StoreWriter(store, commit_interval=None)
    try:
        writer.submit(snapshot(snap, NEXT + 1000))
        writer.submit(ElementRow(element, None, None, 0, 0, "push button", "Send", "", None, "", 1, 2, 3, 4,
                                 "frame/push button[Send]"))
        writer.submit(InputEventRow(typed, NEXT + 2000, NEXT + 2000, 0, "click", 1, element_id=element))
        writer.submit(BlindSpotRow(spot, NEXT + 3000, None, 60, "Europe/Berlin", None, "paused", ""))
        assert writer.flush()
        after_insert = revisions(store)
        assert after_insert == {NEXT // DAY_MS: 3}
        assert element_revision(store) == 0   # a new element is seen through its input row
        writer.submit(SetEnd("blind_spots", spot, NEXT + 9000))     # a blind spot closed
        writer.submit(Replace(snapshot(snap, NEXT + 1000, title="Inbox (2)")))   # a row rewritten
        assert writer.flush()
    finally:
        writer.close()
    assert revisions(store) == {NEXT // DAY_MS: 3 + 2 + 2}   # an update bumps the day before and after


def test_a_replace_that_moves_a_row_bumps_both_days(store):
    connection = open_store(store)
    row_id = connection.execute("SELECT min(id) FROM snapshots").fetchone()[0]
    values = snapshot(row_id, NEXT + 5).values()
    with connection:
        connection.execute(f"INSERT OR REPLACE INTO snapshots VALUES ({', '.join('?' * len(values))})",
                           values)
    connection.close()
    assert revisions(store) == {DAY // DAY_MS: 1, NEXT // DAY_MS: 1}


def test_an_import_bumps_the_days_it_brings(store, tmp_path):
    from capturer.imports import import_history

    nocta = tmp_path / "nocta.sqlite3"
    with sqlite3.connect(nocta) as connection:
        connection.executescript("""
            CREATE TABLE frames (id INTEGER PRIMARY KEY, timestamp TEXT, app_name TEXT,
                                 window_name TEXT, browser_url TEXT, device_name TEXT);
            CREATE TABLE ui_events (id INTEGER PRIMARY KEY, timestamp TEXT, event_type TEXT,
                                    element_name TEXT, element_role TEXT, app_name TEXT);
            INSERT INTO frames VALUES
                (1, '2026-03-05T09:00:00.000000+00:00', 'firefox', 'Inbox', 'https://mail.example.com/', 'a'),
                (2, '2026-03-05T09:00:40.250000+00:00', 'code', 'main.py', NULL, 'a');
            INSERT INTO ui_events VALUES
                (1, '2026-03-05T09:00:10.000000+00:00', 'click', 'Send', 'push button', 'firefox');
        """)
    connection.close()
    report = import_history(nocta, store, rules=(), browsers=("firefox",), read_capture=read_nocta)
    assert report.written.ops
    day = int(datetime(2026, 3, 5, tzinfo=timezone.utc).timestamp() * 1000) // DAY_MS
    assert set(revisions(store)) == {day} and revisions(store)[day] >= 3


def test_forget_bumps_the_forgotten_day_and_the_elements(store):
    since, until = DAY + 9 * 3_600_000, DAY + 10 * 3_600_000
    connection = open_store(store)
    next_id = iter(range(10_000, 10_100))
    try:
        report = forget_window(connection, store, since, until, now_ms=until + DAY_MS,
                               next_blind_spot_id=lambda: next(next_id))
    finally:
        connection.close()
    assert report.snapshots and report.elements
    assert set(revisions(store)) == {DAY // DAY_MS}
    assert element_revision(store) >= report.elements


def test_retention_bumps_the_day_it_removes(store):
    connection = open_store(store)
    try:
        removed = remove_raw(connection, DAY, NEXT)
    finally:
        connection.close()
    assert removed.snapshots
    assert set(revisions(store)) == {DAY // DAY_MS}


def test_only_columns_the_compiler_reads_bump_a_day(store):
    connection = open_store(store)
    with connection:
        connection.execute("UPDATE snapshots SET tree_id = NULL, screenshot = NULL")
        connection.execute("UPDATE elements SET tree_id = NULL, parent_id = NULL")
    assert revisions(store) == {} and element_revision(store) == 0
    with connection:
        connection.execute("UPDATE input_events SET crop = NULL WHERE id = (SELECT min(id) FROM input_events)")
        connection.execute("UPDATE elements SET name = 'renamed' WHERE id = (SELECT min(id) FROM elements)")
    connection.close()
    assert revisions(store) == {DAY // DAY_MS: 2} and element_revision(store) == 1


def test_an_element_id_handed_out_again_bumps_the_elements(store):
    connection = open_store(store)
    connection.pragma("foreign_keys", 0)   # as a sqlite3 shell writes: a click may still name it
    highest = connection.execute("SELECT max(id) FROM elements").fetchone()[0]
    row = connection.execute("SELECT * FROM elements WHERE id = ?", (highest,)).fetchone()
    with connection:
        connection.execute("DELETE FROM elements WHERE id = ?", (highest,))
    assert element_revision(store) == 1
    with connection:   # the writer's allocator starts at max(id) + 1: the same id again
        connection.execute(f"INSERT INTO elements VALUES ({', '.join('?' * len(row))})",
                           (highest, None, None, 0, 0, "label", "other", "", None, "", 0, 0, 1, 1, "x"))
        connection.execute(f"INSERT INTO elements VALUES ({', '.join('?' * len(row))})",
                           (highest + 1,) + tuple(row[1:]))   # a fresh id bumps nothing
    connection.close()
    assert element_revision(store) == 2


def test_the_triggers_watch_every_column_the_compiler_reads():
    """A column the compiler's queries read that no trigger watches would be
    a change no revision shows: the cache would serve it stale."""
    queries = [getattr(phantom_store, name) for name in dir(phantom_store)
               if name.isupper() and isinstance(getattr(phantom_store, name), str)
               and "SELECT" in getattr(phantom_store, name)]
    assert len(queries) >= 5
    watched = {table: set(columns) for table, (_, columns) in WATCHED.items()}
    watched["elements"] = set(ELEMENT_COLUMNS)
    for query in queries:
        for columns, table in re.findall(r"SELECT (.+?) FROM (\w+)", query):
            if "(" in columns or columns.strip() == "element_id":   # the IN sub-select's key is an input column
                continue
            read = {column.strip() for column in columns.split(",")}
            assert read <= watched[table], (table, read - watched[table])


def test_a_repaired_store_counts_its_copied_rows_afresh(store):
    from core.store.repair import repair

    write = open_store(store)
    with write:   # revisions the damaged store had are not carried over
        write.execute("UPDATE snapshots SET title = title WHERE id = (SELECT min(id) FROM snapshots)")
    write.close()
    assert revisions(store) == {DAY // DAY_MS: 2}
    result = repair(store)
    assert result.copied
    after = revisions(store)
    assert set(after) == {DAY // DAY_MS} and after[DAY // DAY_MS] > 1000   # one per row copied


def test_a_writer_outside_phantom_bumps_too(store):
    """Another SQLite build (Python's own module, as a `sqlite3` shell would
    be) runs the store's triggers just the same."""
    with sqlite3.connect(store) as connection:
        connection.execute("UPDATE snapshots SET title = 'edited elsewhere' WHERE id = (SELECT min(id) "
                           "FROM snapshots)")
        connection.execute("DELETE FROM blind_spots WHERE id = (SELECT min(id) FROM blind_spots)")
    connection.close()
    assert revisions(store) == {DAY // DAY_MS: 3}
