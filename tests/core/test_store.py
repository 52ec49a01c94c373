"""The store: schema migrations, file modes, read-only access, refusals, and
the single writer's batching."""

from __future__ import annotations

import os
import sqlite3
import stat
import threading

import apsw
import pytest

from core.store import (
    MIGRATIONS,
    SCHEMA_VERSION,
    InputEventRow,
    Replace,
    SetEnd,
    SetMeta,
    SnapshotRow,
    StoreError,
    StoreWriter,
    open_readonly,
    open_sqlite_readonly,
    open_store,
)
from core.store.paths import default_db_path, resolve_db_path
from core.store.schema import APPLICATION_ID


def snapshot(row_id: int, ts: int = 1_000, app: str = "app") -> SnapshotRow:
    return SnapshotRow(row_id, ts, 60, "Europe/Berlin", 0, "focus", app, "app.App", 42,
                       "/usr/bin/app", "Title", None, 0, 1, None, None)


def test_new_store_is_private_and_migrated(tmp_path):
    db = tmp_path / "private" / "store.sqlite3"
    connection = open_store(db)
    connection.execute("CREATE TABLE probe(x)")  # forces the WAL file into existence
    assert stat.S_IMODE(db.parent.stat().st_mode) == 0o700
    for suffix in ("", "-wal", "-shm"):
        assert stat.S_IMODE(os.stat(f"{db}{suffix}").st_mode) == 0o600, suffix
    assert connection.pragma("user_version") == SCHEMA_VERSION
    assert connection.pragma("application_id") == APPLICATION_ID
    assert connection.pragma("journal_mode") == "wal"
    connection.close()


def test_migrations_are_ordered_and_idempotent(tmp_path):
    versions = [m.version for m in MIGRATIONS]
    assert versions == sorted(versions) == list(range(1, len(versions) + 1))
    db = tmp_path / "s.sqlite3"
    open_store(db).close()
    open_store(db).close()  # reopening applies nothing twice
    assert open_readonly(db).pragma("user_version") == SCHEMA_VERSION


def test_newer_schema_is_refused_not_misread(tmp_path):
    db = tmp_path / "s.sqlite3"
    open_store(db).close()
    raw = apsw.Connection(str(db))
    raw.pragma("user_version", SCHEMA_VERSION + 1)
    raw.close()
    for opener in (open_store, open_readonly):
        with pytest.raises(StoreError, match="newer than this Phantom"):
            opener(db)


def test_foreign_and_corrupt_files_are_refused(tmp_path):
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE frames(id INTEGER)")
    with pytest.raises(StoreError, match="not a Phantom store"):
        open_store(other)
    with pytest.raises(StoreError, match="not a Phantom store"):
        open_readonly(other)
    assert open_sqlite_readonly(other).execute("SELECT count(*) FROM frames").get == 0

    corrupt = tmp_path / "corrupt.sqlite3"
    corrupt.write_bytes(b"this is not a database" * 100)
    for opener in (open_store, open_readonly):
        with pytest.raises(StoreError, match="not a readable SQLite database"):
            opener(corrupt)
    with pytest.raises(StoreError, match="no database"):
        open_readonly(tmp_path / "missing.sqlite3")
    with pytest.raises(StoreError, match="directory"):
        open_store(tmp_path)


def test_readonly_connection_cannot_write(tmp_path):
    db = tmp_path / "s.sqlite3"
    open_store(db).close()
    connection = open_readonly(db)
    with pytest.raises(apsw.ReadOnlyError):
        connection.execute("INSERT INTO meta(key, value) VALUES ('a', 'b')")


def test_db_path_resolution(monkeypatch, tmp_path):
    monkeypatch.delenv("PHANTOM_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_db_path() == tmp_path / "data" / "phantom" / "phantom.sqlite3"
    monkeypatch.setenv("PHANTOM_DB", str(tmp_path / "env.sqlite3"))
    assert default_db_path() == tmp_path / "env.sqlite3"
    assert resolve_db_path(tmp_path / "cli.sqlite3") == tmp_path / "cli.sqlite3"


class ManualClock:
    def __init__(self) -> None:
        self.now = 0.0
        self.lock = threading.Lock()

    def __call__(self) -> float:
        with self.lock:
            return self.now


def test_writer_commits_a_batch_when_the_interval_passes(tmp_path):
    db = tmp_path / "s.sqlite3"
    clock = ManualClock()
    writer = StoreWriter(db, commit_interval=1.0, clock=clock)
    try:
        writer.submit(snapshot(writer.ids.next("snapshots")))
        writer.submit(snapshot(writer.ids.next("snapshots")))
        count = lambda: open_readonly(db).execute("SELECT count(*) FROM snapshots").get  # noqa: E731
        threading.Event().wait(0.2)
        assert count() == 0  # buffered: the interval has not passed
        clock.now = 1.5      # the writer wakes at its deadline and commits
        from testbed.waiting import wait_until
        wait_until(lambda: count() == 2, timeout=5, what="the batch commit")
        assert writer.stats().commits == 1
    finally:
        writer.close()


def test_writer_urgent_flush_replace_and_close(tmp_path):
    db = tmp_path / "s.sqlite3"
    writer = StoreWriter(db, commit_interval=30.0)
    ids = writer.ids
    snap = ids.next("snapshots")
    writer.submit(snapshot(snap), urgent=True)
    from testbed.waiting import wait_until
    reader = open_readonly(db)
    wait_until(lambda: reader.execute("SELECT count(*) FROM snapshots").get == 1, timeout=5,
               what="an urgent commit")
    event_id = ids.next("input_events")
    writer.submit(InputEventRow(event_id, 1000, 1000, 0, "text", 3))
    writer.submit(Replace(InputEventRow(event_id, 1000, 1400, 0, "text", 7)))
    writer.submit(SetMeta("k", "v"))
    writer.submit(SetMeta("k", "w"))
    assert writer.flush()
    assert reader.execute("SELECT count, end_ms FROM input_events").fetchall() == [(7, 1400)]
    assert reader.execute("SELECT value FROM meta WHERE key='k'").get == "w"
    writer.close()
    # Ids continue after a restart instead of colliding.
    again = StoreWriter(db)
    assert again.ids.next("snapshots") == snap + 1
    again.close()


def test_writer_rejects_bad_ops_and_survives_a_bad_record(tmp_path):
    db = tmp_path / "s.sqlite3"
    writer = StoreWriter(db)
    try:
        with pytest.raises(TypeError):
            writer.submit(("INSERT", 1))
        with pytest.raises(ValueError, match="cannot close rows of snapshots"):
            writer.submit(SetEnd("snapshots", 1, 5))
        good = writer.ids.next("snapshots")
        writer.submit(snapshot(good))
        writer.submit(InputEventRow(writer.ids.next("input_events"), 1, 1, 0, "bogus", 1))
        writer.submit(snapshot(writer.ids.next("snapshots")))
        assert writer.flush(timeout=5)
        stats = writer.stats()
        assert stats.dropped_ops == 1 and "CHECK constraint" in stats.last_error
        assert open_readonly(db).execute("SELECT count(*) FROM snapshots").get == 2
    finally:
        writer.close()


def test_a_version_2_store_migrates_to_import_keys_keeping_its_rows(tmp_path):
    from core.store.connection import migrate

    db = tmp_path / "s.sqlite3"
    raw = apsw.Connection(str(db))
    for migration in MIGRATIONS[:2]:
        raw.execute(migration.sql)
    raw.pragma("application_id", APPLICATION_ID)
    raw.pragma("user_version", 2)
    raw.execute("INSERT INTO snapshots(id, ts_ms, utc_offset_min, tz_name, monitor, trigger, app) "
                "VALUES(1, 1000, 0, 'UTC', 0, 'focus', 'gedit')")
    assert migrate(raw, db) == SCHEMA_VERSION
    assert raw.execute("SELECT app FROM snapshots").get == "gedit"
    raw.execute("INSERT INTO import_keys VALUES('activitywatch', 'aw-watcher-window_h@1000', 'snapshots', 1)")
    with pytest.raises(apsw.ConstraintError):
        raw.execute("INSERT INTO import_keys VALUES('activitywatch', 'aw-watcher-window_h@1000', 'snapshots', 2)")
    with pytest.raises(apsw.ConstraintError):
        raw.execute("INSERT INTO import_keys VALUES('nocta', 'frames:1@1000', 'elements', 1)")
    raw.close()


def test_migration_3_lets_a_blind_spot_say_forgotten_and_keeps_every_row_and_id(tmp_path):
    db = tmp_path / "v2.sqlite3"
    raw = apsw.Connection(str(db))
    with raw:
        for migration in MIGRATIONS[:2]:
            raw.execute(migration.sql)
        raw.pragma("application_id", APPLICATION_ID)
        raw.pragma("user_version", 2)
        raw.execute("INSERT INTO blind_spots VALUES (7, 1000, 2000, 60, 'Europe/Berlin', NULL, "
                    "'paused', 'paused by the user'), (9, 3000, NULL, 60, 'Europe/Berlin', 0, "
                    "'excluded', 'banking')")
    with pytest.raises(apsw.ConstraintError):
        raw.execute("INSERT INTO blind_spots VALUES (10, 1, 2, 0, 'UTC', NULL, 'forgotten', '')")
    raw.close()
    connection = open_store(db)
    assert connection.pragma("user_version") == SCHEMA_VERSION >= 3
    assert connection.execute("SELECT * FROM blind_spots ORDER BY id").fetchall() == [
        (7, 1000, 2000, 60, "Europe/Berlin", None, "paused", "paused by the user"),
        (9, 3000, None, 60, "Europe/Berlin", 0, "excluded", "banking")]
    connection.execute("INSERT INTO blind_spots VALUES (10, 1, 2, 0, 'UTC', NULL, 'forgotten', '')")
    with pytest.raises(apsw.ConstraintError):
        connection.execute("INSERT INTO blind_spots VALUES (11, 1, 2, 0, 'UTC', NULL, 'nonsense', '')")
    # the rebuilt table keeps its index (migration 5's revision triggers are beside them)
    assert connection.execute("SELECT name FROM sqlite_master WHERE tbl_name = 'blind_spots' "
                              "AND type <> 'trigger' ORDER BY name").fetchall() == [
        ("blind_spots",), ("blind_spots_by_time",)]
    connection.close()


def test_migration_4_adds_the_not_running_clock_jump_and_input_kinds_keeping_every_row(tmp_path):
    db = tmp_path / "v3.sqlite3"
    raw = apsw.Connection(str(db))
    with raw:
        for migration in MIGRATIONS[:3]:
            raw.execute(migration.sql)
        raw.pragma("application_id", APPLICATION_ID)
        raw.pragma("user_version", 3)
        raw.execute("INSERT INTO blind_spots VALUES (3, 1000, 2000, 60, 'Europe/Berlin', NULL, "
                    "'forgotten', ''), (5, 3000, NULL, 0, 'UTC', 1, 'excluded', 'banking')")
    for kind in ("not_running", "clock_jump", "no_input_observation"):
        with pytest.raises(apsw.ConstraintError):
            raw.execute("INSERT INTO blind_spots VALUES (10, 1, 2, 0, 'UTC', NULL, ?, '')", (kind,))
    raw.close()
    connection = open_store(db)
    assert connection.pragma("user_version") == SCHEMA_VERSION >= 4
    assert connection.execute("SELECT * FROM blind_spots ORDER BY id").fetchall() == [
        (3, 1000, 2000, 60, "Europe/Berlin", None, "forgotten", ""),
        (5, 3000, None, 0, "UTC", 1, "excluded", "banking")]
    with connection:
        for index, kind in enumerate(("not_running", "clock_jump", "no_input_observation")):
            connection.execute("INSERT INTO blind_spots VALUES (?, 1, 2, 0, 'UTC', NULL, ?, 'x')",
                               (20 + index, kind))
    with pytest.raises(apsw.ConstraintError):
        connection.execute("INSERT INTO blind_spots VALUES (30, 1, 2, 0, 'UTC', NULL, 'bogus', '')")
    connection.close()
