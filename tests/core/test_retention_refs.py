"""Retention's references (core/store/retention_refs.py): a day's plan
reads its own rows, not the store — counted in SQLite virtual-machine
steps, a store sixteen times larger costs the same day the same — and a row
another writer adds after the references were read still keeps what it
names."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import apsw
import pytest

from core.store.connection import open_store
from core.store.retention import plan_raw, remove_raw

PHANTOM = str(Path(sys.executable).with_name("phantom"))
DAY_MS = 86_400_000


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("corpus") / "three.sqlite3"
    subprocess.run([PHANTOM, "synth", "--days", "3", "--seed", "7", "--db", str(path)], check=True,
                   capture_output=True, timeout=600)
    return path


@pytest.fixture
def store(corpus, tmp_path) -> Path:
    path = tmp_path / "phantom.sqlite3"
    shutil.copy(corpus, path)
    return path


def _first_day(connection: apsw.Connection) -> tuple[int, int]:
    first = int(connection.execute("SELECT min(ts_ms) FROM snapshots").get)
    since = first - first % DAY_MS
    return since, since + DAY_MS


def _steps_of_planning_day_one(path: Path) -> int:
    connection = open_store(path)
    try:
        since, until = _first_day(connection)
        plan_raw(connection, since + DAY_MS, until + DAY_MS)   # a first plan reads the references
        steps = [0]

        def step() -> bool:
            steps[0] += 1
            return False
        connection.set_progress_handler(step, 100)
        plan_raw(connection, since, until)
        connection.set_progress_handler(None)
        return steps[0]
    finally:
        connection.close()


def _grow(path: Path, copies: int) -> None:
    """Append `copies` shifted copies of every snapshot and input row (with
    their element and crop references) a month and more later."""
    connection = open_store(path)
    try:
        with connection:
            for copy in range(1, copies + 1):
                shift = (30 + copy) * DAY_MS
                connection.execute(
                    "INSERT INTO snapshots(ts_ms, utc_offset_min, tz_name, monitor, trigger, app, wm_class, "
                    "title, url, idle, focused, screenshot) SELECT ts_ms + ?, utc_offset_min, tz_name, "
                    "monitor, trigger, app, wm_class, title, url, idle, focused, screenshot FROM snapshots",
                    (shift,))
                connection.execute(
                    "INSERT INTO input_events(ts_ms, end_ms, monitor, kind, count, key, button, x, y, "
                    "element_id, resolution, crop) SELECT ts_ms + ?1, end_ms + ?1, monitor, kind, count, "
                    "key, button, x, y, element_id, resolution, crop FROM input_events "
                    "WHERE recording_id IS NULL", (shift,))
    finally:
        connection.close()


def _rows(path: Path) -> int:
    connection = open_store(path)
    try:
        return int(connection.execute("SELECT (SELECT count(*) FROM input_events) + "
                                      "(SELECT count(*) FROM snapshots)").get)
    finally:
        connection.close()


def test_a_days_plan_costs_its_own_rows_not_the_stores(store, tmp_path):
    small = _steps_of_planning_day_one(store)
    big = tmp_path / "big.sqlite3"
    shutil.copy(store, big)
    _grow(big, 4)    # each copy doubles the rows: sixteen times the rows
    assert _rows(big) >= 15 * _rows(store)
    assert _steps_of_planning_day_one(big) <= small * 1.15   # reading the store: 1.5×


def test_a_row_written_after_the_references_were_read_keeps_what_it_names(store):
    connection = open_store(store)
    other = open_store(store)
    try:
        since, until = _first_day(connection)
        shown = connection.execute("SELECT screenshot FROM snapshots WHERE ts_ms >= ? AND ts_ms < ? "
                                   "AND screenshot IS NOT NULL LIMIT 1", (since, until)).get
        named = connection.execute("SELECT element_id FROM input_events WHERE ts_ms >= ? AND ts_ms < ? "
                                   "AND element_id IS NOT NULL LIMIT 1", (since, until)).get
        assert shown is not None and named is not None
        plan_raw(connection, since + DAY_MS, until + DAY_MS)   # the references are read here
        later = since + 2 * DAY_MS + 3_600_000
        with other:   # another writer, after that
            other.execute("INSERT INTO snapshots(ts_ms, utc_offset_min, tz_name, monitor, trigger, app, "
                          "screenshot) VALUES (?, 60, 'Europe/Berlin', 0, 'heartbeat', 'x', ?)",
                          (later, shown))
            other.execute("INSERT INTO input_events(ts_ms, end_ms, monitor, kind, count, element_id) "
                          "VALUES (?, ?, 0, 'click', 1, ?)", (later, later, named))
        remove_raw(connection, since, until)
        assert connection.execute("SELECT count(*) FROM blobs WHERE sha256 = ?", (shown,)).get == 1
        assert connection.execute("SELECT count(*) FROM elements WHERE id = ?", (named,)).get == 1
        assert not connection.execute("SELECT count(*) FROM snapshots WHERE ts_ms >= ? AND ts_ms < ?",
                                      (since, until)).get
    finally:
        other.close()
        connection.close()
