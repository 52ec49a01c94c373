"""The store under faults, without a desktop: empty and read-only files,
a full disk (SQLite's page limit stands in for it), rows a killed run left
open, damaged pages and their repair, and the one-daemon lock by identity."""

from __future__ import annotations

import os
import stat

import apsw
import pytest

from capturer.single_instance import AlreadyRunning, InstanceLock
from core.store import (
    BlindSpotRow,
    RecordingRow,
    SetMeta,
    SnapshotRow,
    StoreDamaged,
    StoreError,
    StoreWriter,
    open_readonly,
    open_store,
)
from core.store.crash import ALIVE_KEY, RESUME_BLIND_SPOTS_KEY, RESUME_RECORDING_KEY, left_open
from core.store.errors import from_sqlite
from core.store.integrity import quick_check
from core.store.repair import repair
from support.damage import damage_page, leaf_pages


def test_an_empty_file_is_refused_not_taken_for_a_new_store(tmp_path):
    empty = tmp_path / "store.sqlite3"
    empty.touch()
    for opener in (open_store, open_readonly):
        with pytest.raises(StoreError, match=r"empty file \(0 bytes\)"):
            opener(empty)
    assert empty.stat().st_size == 0


def test_a_store_that_cannot_be_created_leaves_nothing_behind(tmp_path, monkeypatch):
    from core.store import connection, schema

    broken = (*schema.MIGRATIONS[:1], schema.Migration(2, "broken", "CREATE TABLE meta(x);"))
    monkeypatch.setattr(connection, "MIGRATIONS", broken)
    db = tmp_path / "store.sqlite3"
    with pytest.raises(apsw.SQLError):
        open_store(db)
    assert sorted(os.listdir(tmp_path)) == []   # no empty store, no temporary file


def test_a_read_only_store_is_not_made_writable_and_writers_refuse_it(tmp_path):
    db = tmp_path / "store.sqlite3"
    open_store(db).close()
    os.chmod(db, 0o444)
    with pytest.raises(StoreError, match=r"is read-only \(mode 04[04]0\)"):
        open_store(db)
    with pytest.raises(StoreError, match="read-only"):
        StoreWriter(db)
    assert stat.S_IMODE(db.stat().st_mode) & 0o222 == 0     # group and other bits may go; no write bit comes
    assert open_readonly(db).execute("SELECT count(*) FROM snapshots").get == 0


def test_modes_are_only_ever_narrowed(tmp_path):
    db = tmp_path / "store.sqlite3"
    open_store(db).close()
    os.chmod(db, 0o640)
    open_store(db).close()
    assert stat.S_IMODE(db.stat().st_mode) == 0o600


def _snapshot(row_id: int, title: str) -> SnapshotRow:
    return SnapshotRow(row_id, row_id, 0, "UTC", 0, "focus", "app", "app.App", None, None, title, None,
                       0, 1, None, None)


def test_a_full_disk_is_never_claimed_saved_and_saving_resumes_when_space_returns(tmp_path):
    db = tmp_path / "store.sqlite3"
    writer = StoreWriter(db, commit_interval=0.05)
    pages = writer._connection.pragma("page_count")  # noqa: SLF001 - the disk's size, for this test
    writer._connection.pragma("max_page_count", pages)  # noqa: SLF001
    try:
        for _ in range(200):
            writer.submit(_snapshot(writer.ids.next("snapshots"), "x" * 2000))
        assert writer.flush(timeout=5) is False
        stats = writer.stats()
        assert stats.pending_ops == 200 and stats.committed_ops == 0 and "FullError" in stats.last_error
        writer._connection.pragma("max_page_count", 1 << 30)  # noqa: SLF001 - space comes back
        assert writer.flush(timeout=5) is True
        stats = writer.stats()
        assert stats.pending_ops == 0 and stats.committed_ops == 200 and stats.last_error is None
    finally:
        assert writer.close() is True
    assert open_readonly(db).execute("SELECT count(*) FROM snapshots").get == 200


def test_close_says_when_data_could_not_be_saved(tmp_path):
    db = tmp_path / "store.sqlite3"
    writer = StoreWriter(db, commit_interval=30)
    writer._connection.pragma("max_page_count", writer._connection.pragma("page_count"))  # noqa: SLF001
    writer.submit(_snapshot(writer.ids.next("snapshots"), "x" * 9000))
    assert writer.close() is False


def test_rows_a_killed_run_left_open_close_when_it_was_last_alive(tmp_path):
    db = tmp_path / "store.sqlite3"
    writer = StoreWriter(db)
    writer.submit(RecordingRow(1, "invoice", 10_000, None))
    writer.submit(RecordingRow(2, "carried", 11_000, None))
    writer.submit(BlindSpotRow(1, 12_000, None, 0, "UTC", None, "paused", "paused by the user"))
    writer.submit(BlindSpotRow(2, 13_000, None, 0, "UTC", None, "no_accessibility", "hung"))
    writer.submit(BlindSpotRow(3, 5_000, 6_000, 0, "UTC", None, "excluded", "rule"))
    writer.submit(SetMeta(ALIVE_KEY, "20000"))
    writer.submit(SetMeta(RESUME_RECORDING_KEY, "2"))
    writer.submit(SetMeta(RESUME_BLIND_SPOTS_KEY, "1"))
    assert writer.close()
    connection = open_readonly(db)
    found = left_open(connection)
    assert found.last_alive_ms == 20_000
    assert [r.id for r in found.interrupted_recordings] == [1] and found.resumed_recording == 2
    assert [s.id for s in found.interrupted_blind_spots] == [2] and found.resumed_blind_spots == {1}
    assert found.close_at(12_000) == 20_000 and found.close_at(25_000) == 25_000


def _store_with_rows(db, count: int = 2000) -> None:
    connection = open_store(db)
    with connection:
        for i in range(1, count + 1):
            connection.execute("INSERT INTO snapshots(id, ts_ms, utc_offset_min, tz_name, monitor, trigger, "
                               "app, title) VALUES(?, ?, 0, 'UTC', 0, 'focus', 'app', ?)",
                               (i, i * 1000, f"title {i} " * 3))
            connection.execute("INSERT INTO input_events(id, ts_ms, end_ms, monitor, kind, count, snapshot_id) "
                               "VALUES(?, ?, ?, 0, 'key', 1, ?)", (i, i * 1000, i * 1000, i))
    connection.close()


def test_a_damaged_page_is_found_reported_and_repaired_keeping_the_original(tmp_path):
    db = tmp_path / "store.sqlite3"
    _store_with_rows(db)
    assert quick_check(db) == []
    pages = leaf_pages(db, "snapshots")
    damage_page(db, pages[len(pages) // 2])
    assert quick_check(db) != []
    reader = open_readonly(db)
    with pytest.raises(apsw.CorruptError) as raised:
        reader.execute("SELECT sum(length(title)) FROM snapshots").fetchall()
    error = from_sqlite(raised.value, db)
    assert isinstance(error, StoreDamaged) and "phantom doctor --repair" in str(error)
    reader.close()

    result = repair(db)
    assert quick_check(db) == []
    kept = open_readonly(db)
    snapshots = kept.execute("SELECT count(*) FROM snapshots").get
    lost = 2000 - snapshots
    assert 0 < lost <= 100     # one leaf page's rows, and no more
    assert kept.execute("SELECT count(*), count(snapshot_id) FROM input_events").fetchall() == [(2000, snapshots)]
    assert result.cleared_references == lost and result.copied == 2000 + snapshots
    assert result.damaged_copy.exists() and result.damaged_copy.name.startswith("store.sqlite3.damaged-")
    assert "damage met in snapshots" in result.summary()
    # the search index is derived: not copied page by page, rebuilt by the next search
    assert not {t.table for t in result.tables} & {"search_snapshots", "search_snapshots_data",
                                                   "search_progress"}
    assert kept.execute("SELECT count(*) FROM search_progress").get == 0


def test_the_daemon_lock_belongs_to_the_file_not_its_name(tmp_path):
    db = tmp_path / "store.sqlite3"
    lock = InstanceLock(db)
    lock.acquire()          # creates the store, so that it has an identity
    (tmp_path / "link.sqlite3").symlink_to(db)
    os.link(db, tmp_path / "hard.sqlite3")
    try:
        for other in ("link.sqlite3", "hard.sqlite3"):
            with pytest.raises(AlreadyRunning, match=rf"pid {os.getpid()}"):
                InstanceLock(tmp_path / other).acquire()
    finally:
        lock.release()
    again = InstanceLock(tmp_path / "hard.sqlite3")
    again.acquire()
    again.release()
