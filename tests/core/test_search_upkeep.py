"""The search index kept current without a search: the capture daemon's
writer indexes slices (`index_some` through `SearchUpkeep`), an import
indexes what it imported, and either way the index ends as `catch_up`
would have built it — so the first `phantom search` has nothing to do."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import apsw
import pytest

from capturer.search_upkeep import ACTIVE_EVERY_S, IDLE_EVERY_S, SearchUpkeep
from cli.main import main
from core.store import StoreWriter, open_store
from core.store.search_index import SOURCES, catch_up, index_some, pending
from support.screenpipe import ScreenpipeDb

PHANTOM = str(Path(sys.executable).with_name("phantom"))
T0 = 1_772_438_400_000   # 2026-03-02 08:00:00 UTC


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("corpus") / "one.sqlite3"
    subprocess.run([PHANTOM, "synth", "--days", "1", "--seed", "7", "--db", str(path)], check=True,
                   capture_output=True, timeout=600)
    return path


@pytest.fixture
def store(corpus, tmp_path) -> Path:
    path = tmp_path / "phantom.sqlite3"
    shutil.copy(corpus, path)
    return path


def _index(path: Path) -> dict[str, list[tuple[object, ...]]]:
    connection = open_store(path)
    try:
        return {s.index: list(connection.execute(f"SELECT rowid, * FROM {s.index} ORDER BY rowid"))
                for s in SOURCES}
    finally:
        connection.close()


def test_slices_end_where_one_catch_up_ends(store, tmp_path):
    whole = tmp_path / "whole.sqlite3"
    shutil.copy(store, whole)
    connection = open_store(whole)
    catch_up(connection)
    connection.close()

    connection = open_store(store)
    slices, rows = 0, 0
    ticks = iter(range(10**9)).__next__     # each look at the clock is one unit later
    try:
        assert pending(connection) > 2000    # more than one slice of each kind
        while True:
            done, caught_up = index_some(connection, 3.5, clock=lambda: float(ticks()))
            rows, slices = rows + done, slices + 1
            if caught_up:
                break
        assert pending(connection) == 0
    finally:
        connection.close()
    assert slices > 10 and rows > 2000
    assert _index(store) == _index(whole)


def test_no_budget_indexes_nothing(store):
    connection = open_store(store)
    try:
        before = pending(connection)
        assert index_some(connection, 0.0) == (0, False)
        assert pending(connection) == before
    finally:
        connection.close()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_daemons_writer_catches_up_at_idle_and_keeps_up_at_work(store):
    clock = Clock()
    writer = StoreWriter(store)
    try:
        upkeep = SearchUpkeep(writer, clock)
        assert not upkeep.tick(idle=True)            # not at once: the start's writes go first
        clock.now += IDLE_EVERY_S
        slices = 0
        while not upkeep.caught_up:
            assert upkeep.tick(idle=True), "a backlog at idle is taken a slice every IDLE_EVERY_S"
            writer.flush()                           # the slice ran before the flush's commit
            slices += 1
            assert not upkeep.tick(idle=True)        # not twice in one interval
            clock.now += IDLE_EVERY_S
        assert slices >= 1 and upkeep.indexed > 0
        assert not upkeep.tick(idle=True)            # caught up: the working pace, even at idle
        clock.now += ACTIVE_EVERY_S
        assert upkeep.tick(idle=False)
        writer.flush()
    finally:
        writer.close()
    connection = open_store(store)
    try:
        assert pending(connection) == 0
    finally:
        connection.close()


def test_an_import_indexes_what_it_imported(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    db = ScreenpipeDb(tmp_path / "screenpipe.sqlite3")
    frame = db.frame(T0, "Mousepad", "quarterly-report.txt - Mousepad")
    db.event(T0 + 2000, "click", app="Mousepad", frame_id=frame, role="AXButton", name="Save")
    db.close()
    store = tmp_path / "store.sqlite3"
    assert main(["import", str(tmp_path / "screenpipe.sqlite3"), "--db", str(store)]) == 0
    connection = apsw.Connection(f"file:{store}?mode=ro", flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    try:
        assert connection.execute("SELECT count(*) FROM search_progress").get == len(SOURCES)
        assert connection.execute("SELECT count(*) FROM search_snapshots WHERE search_snapshots "
                                  "MATCH 'quarterly'").get == 1
        assert pending(connection) == 0
    finally:
        connection.close()
