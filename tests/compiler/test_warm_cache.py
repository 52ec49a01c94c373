"""A warm window costs what changed: a cache hit on a Phantom store checks
the revisions of the window's days and reads no row; on any other file it
checks the file's stat. Whatever the check, a change is never served stale
and a hit is byte for byte the cold compile."""

from __future__ import annotations

import os
import shutil
import sqlite3
import time

import pytest

import compiler.frames
from compiler import revisions
from compiler.api import compile_window, render
from compiler.sources import CaptureSource
from core.store import open_store
from core.store.migration_5 import DAY_MS
from support.goldens import FIXTURES

SYNTHETIC = FIXTURES / "synthetic" / "day.sqlite3"
DAY = "2026-03-02"
DAY_START = 1_772_409_600_000      # 2026-03-02T00:00Z
NEXT = DAY_START + DAY_MS


@pytest.fixture(autouse=True)
def cache_home(tmp_path, monkeypatch):
    home = tmp_path / "xdg-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    return home / "phantom" / "compiled"


class Reads:
    """Counts the windows whose rows are read, and the compiles."""

    def __init__(self, monkeypatch):
        self.fetches = self.compiles = 0
        fetch, compile_capture = CaptureSource.fetch, compiler.frames.compile_capture

        def counted_fetch(source, since_ms, until_ms):
            self.fetches += 1
            return fetch(source, since_ms, until_ms)

        def counted_compile(*args, **kwargs):
            self.compiles += 1
            return compile_capture(*args, **kwargs)

        monkeypatch.setattr(CaptureSource, "fetch", counted_fetch)
        monkeypatch.setattr(compiler.frames, "compile_capture", counted_compile)

    def since(self) -> tuple[int, int]:
        counts = (self.fetches, self.compiles)
        self.fetches = self.compiles = 0
        return counts


def aged(path, seconds: float = 60) -> None:
    """The file as if written a minute ago (not within the racy interval)."""
    then = time.time_ns() - int(seconds * 1e9)
    os.utime(path, ns=(then, then))


def outputs(db, **options) -> tuple[bytes, bytes]:
    compiled = compile_window(db, day=DAY, **options)
    return render(compiled, "compact"), render(compiled, "json")


@pytest.fixture
def store(tmp_path):
    """The synthetic day migrated to schema 5 (revisions kept by triggers)."""
    db = tmp_path / "store.sqlite3"
    shutil.copyfile(SYNTHETIC, db)
    open_store(db).close()
    return db


def write(db, sql: str, params=()) -> None:
    connection = open_store(db)
    with connection:
        connection.execute(sql, params)
    connection.close()


def test_a_hit_on_a_phantom_store_reads_no_row_and_is_byte_identical(store, monkeypatch):
    cold = outputs(store, cache=False)
    reads = Reads(monkeypatch)
    assert outputs(store) == cold
    assert reads.since() == (1, 1)
    for _ in range(2):
        assert outputs(store) == cold
        assert reads.since() == (0, 0)


def test_a_changed_row_in_the_day_is_a_miss(store, monkeypatch):
    before = outputs(store)
    reads = Reads(monkeypatch)
    write(store, "UPDATE snapshots SET title = 'Quarterly plan — edited' WHERE id = (SELECT id FROM "
                 "snapshots WHERE title <> '' ORDER BY id LIMIT 1 OFFSET 200)")
    after = outputs(store)
    assert reads.since() == (1, 1)
    assert after != before and after == outputs(store, cache=False)
    reads.since()
    write(store, "DELETE FROM input_events WHERE id = (SELECT max(id) FROM input_events WHERE kind = 'key')")
    assert outputs(store) == outputs(store, cache=False) != after


def test_a_change_on_another_day_leaves_the_entry_alone(store, monkeypatch):
    cold = outputs(store)
    reads = Reads(monkeypatch)
    write(store, "INSERT INTO snapshots(id, ts_ms, utc_offset_min, tz_name, monitor, trigger, app) "
                 "VALUES (999999, ?, 60, 'Europe/Berlin', 0, 'focus', 'firefox')", (NEXT + 12 * 3_600_000,))
    assert outputs(store) == cold
    assert reads.since() == (0, 0)


def test_a_blind_spot_reaching_in_from_an_earlier_day_is_checked(store, monkeypatch):
    """Dated by its start, the day before: its change moves no revision of
    the window's days, so the stamp reads it."""
    write(store, "INSERT INTO blind_spots VALUES (99999, ?, NULL, 60, 'Europe/Berlin', NULL, 'paused', "
                 "'')", (DAY_START - 30 * 3_600_000,))
    open_ended = outputs(store)
    reads = Reads(monkeypatch)
    write(store, "UPDATE blind_spots SET end_ms = ? WHERE id = 99999", (DAY_START + 9 * 3_600_000,))
    closed = outputs(store)
    assert reads.since() == (1, 1)
    assert closed == outputs(store, cache=False) != open_ended


def test_a_dropped_trigger_falls_back_to_the_file(store):
    connection = open_store(store)
    stamp = revisions.stamp(connection, "phantom", store, DAY_START, NEXT)
    assert stamp is not None and stamp.startswith("rev:")
    with connection:
        connection.execute("DROP TRIGGER snapshots_revision_update")
    aged(store)
    aged(f"{store}-wal")
    assert revisions.revision_stamp(connection, DAY_START, NEXT) is None
    assert (revisions.stamp(connection, "phantom", store, DAY_START, NEXT) or "").startswith("file:")
    connection.close()


def make_nocta(path) -> None:
    with sqlite3.connect(path) as connection:
        connection.executescript("""
            CREATE TABLE frames (id INTEGER PRIMARY KEY, timestamp TEXT, app_name TEXT,
                                 window_name TEXT, browser_url TEXT, device_name TEXT);
            CREATE TABLE ui_events (id INTEGER PRIMARY KEY, timestamp TEXT, event_type TEXT,
                                    element_name TEXT, element_role TEXT, app_name TEXT);
            INSERT INTO frames VALUES
                (1, '2026-03-02T09:00:00.000000+00:00', 'firefox', 'Inbox', 'https://mail.example.com/', 'a'),
                (2, '2026-03-02T09:00:40.250000+00:00', 'code', 'main.py', NULL, 'a'),
                (3, '2026-03-02T09:02:10.5+00:00', 'firefox', 'Inbox', 'https://mail.example.com/', 'a');
            INSERT INTO ui_events VALUES
                (1, '2026-03-02T09:00:10.000000+00:00', 'click', 'Send', 'push button', 'firefox');
        """)
    connection.close()


def test_a_foreign_store_is_stamped_by_its_file_and_a_touch_invalidates(tmp_path, monkeypatch):
    nocta = tmp_path / "nocta.sqlite3"
    make_nocta(nocta)
    aged(nocta)
    cold = outputs(nocta, cache=False)
    reads = Reads(monkeypatch)
    assert outputs(nocta) == cold and reads.since() == (1, 1)
    assert outputs(nocta) == cold and reads.since() == (0, 0)      # the file is as it was
    aged(nocta, 30)                                                # touched: rows read again,
    assert outputs(nocta) == cold and reads.since() == (1, 0)      # same digest, not compiled
    assert outputs(nocta) == cold and reads.since() == (0, 0)      # and re-stamped
    with sqlite3.connect(nocta) as connection:
        connection.execute("UPDATE frames SET window_name = 'Outbox' WHERE id = 3")
    connection.close()
    changed = outputs(nocta)
    assert reads.since() == (1, 1) and changed != cold and changed == outputs(nocta, cache=False)


def test_a_store_below_schema_5_is_stamped_by_its_file(tmp_path, monkeypatch):
    old = tmp_path / "v2.sqlite3"
    shutil.copyfile(SYNTHETIC, old)
    aged(old)
    cold = outputs(old, cache=False)
    reads = Reads(monkeypatch)
    assert outputs(old) == cold and reads.since() == (1, 1)
    assert outputs(old) == cold and reads.since() == (0, 0)
    with sqlite3.connect(old) as connection:   # a writer that knows nothing of revisions
        connection.execute("UPDATE snapshots SET title = 'edited' WHERE id = (SELECT min(id) FROM "
                           "snapshots WHERE title <> '')")
    connection.close()
    assert outputs(old) == outputs(old, cache=False) != cold


def test_a_file_written_a_moment_ago_gets_no_stamp(tmp_path):
    path = tmp_path / "file.sqlite3"
    path.write_bytes(b"x")
    written = path.stat().st_mtime_ns
    assert revisions.file_stamp(path, now_ns=written + revisions.RACY_NS - 1) is None
    settled = revisions.file_stamp(path, now_ns=written + revisions.RACY_NS)
    assert settled is not None and settled.startswith("file:")
    wal = tmp_path / "file.sqlite3-wal"
    wal.write_bytes(b"")
    aged(wal)
    assert revisions.file_stamp(path, now_ns=written + revisions.RACY_NS) not in (None, settled)
