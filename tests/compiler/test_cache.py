"""The compiled-document cache: a warm compile gives the bytes a cold one
gives, any changed row is a miss, and a damaged entry is rebuilt, never
served."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import time

import pytest

import compiler.frames
from compiler import cache
from compiler.api import compile_window, render
from support.goldens import FIXTURES

SYNTHETIC = FIXTURES / "synthetic" / "day.sqlite3"
DAY = "2026-03-02"


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    home = tmp_path / "xdg-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    return home / "phantom" / "compiled"


@pytest.fixture
def store(tmp_path):
    copy = tmp_path / "store.sqlite3"
    shutil.copyfile(SYNTHETIC, copy)
    # written a minute ago, so its stat stamps it (a file written this very
    # moment gets no stamp, and the entry would be rewritten with one later)
    then = time.time_ns() - 60_000_000_000
    os.utime(copy, ns=(then, then))
    return copy


def outputs(db, **options) -> tuple[bytes, bytes]:
    compiled = compile_window(db, day=DAY, **options)
    return render(compiled, "compact"), render(compiled, "json")


def compiles_refused(monkeypatch) -> None:
    """From here on, a compile that is not served from the cache fails."""
    def refuse(*args, **kwargs):
        raise AssertionError("compiled although the cache held this window")

    monkeypatch.setattr(compiler.frames, "compile_capture", refuse)


def test_a_warm_compile_is_byte_identical_to_a_cold_one(store, cache_home, monkeypatch):
    cold = outputs(store, cache=False)
    assert not cache_home.exists()  # --no-cache neither reads nor writes
    first = outputs(store)
    assert first == cold
    compiles_refused(monkeypatch)
    assert outputs(store) == cold
    assert outputs(store, inferred=True) == cold


def test_the_inferred_tier_and_the_window_are_part_of_the_key(store, cache_home):
    outputs(store)
    measured = compile_window(store, day=DAY, inferred=False, cache=False)
    assert compile_window(store, day=DAY, inferred=False).document == measured.document
    other_zone = compile_window(store, day=DAY, tz="America/New_York", cache=False)
    assert compile_window(store, day=DAY, tz="America/New_York").document == other_zone.document
    assert len(list(cache_home.iterdir())) == 3


def test_a_changed_row_is_never_served_stale(store, cache_home):
    before = outputs(store)
    with sqlite3.connect(store) as connection:
        snapshot = connection.execute("SELECT id FROM snapshots WHERE title <> '' "
                                      "ORDER BY id LIMIT 1 OFFSET 200").fetchone()[0]
        connection.execute("UPDATE snapshots SET title = 'Quarterly plan — edited' WHERE id = ?",
                           (snapshot,))
    connection.close()
    after = outputs(store)
    assert after != before
    assert after == outputs(store, cache=False)
    with sqlite3.connect(store) as connection:  # one input row fewer
        connection.execute("DELETE FROM input_events WHERE id = (SELECT max(id) FROM input_events "
                           "WHERE kind = 'key')")
    connection.close()
    assert outputs(store) == outputs(store, cache=False) != after


def test_damaged_entries_are_ignored_and_rebuilt(store, cache_home):
    good = outputs(store)
    (entry,) = cache_home.iterdir()
    whole = entry.read_bytes()
    damages = [whole[:len(whole) // 2], b"", b"not a cache entry",
               whole[:-10] + bytes(10),                                  # checksum no longer fits
               whole.replace(b"phantom-compiled 2", b"phantom-compiled 9")]
    for damaged in damages:
        entry.write_bytes(damaged)
        assert outputs(store) == good
        assert entry.read_bytes() == whole  # rewritten whole


def test_cache_files_are_private(store, cache_home):
    outputs(store)
    assert stat.S_IMODE(cache_home.stat().st_mode) == 0o700
    assert stat.S_IMODE(cache_home.parent.stat().st_mode) == 0o700
    (entry,) = cache_home.iterdir()
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600


def test_an_entry_others_could_write_is_not_trusted(store, cache_home, monkeypatch):
    outputs(store)
    (entry,) = cache_home.iterdir()
    os.chmod(entry, 0o666)
    compiles_refused(monkeypatch)
    with pytest.raises(AssertionError, match="compiled although"):
        outputs(store)


def test_read_only_and_foreign_stores_are_cached(tmp_path, cache_home, monkeypatch):
    readonly = tmp_path / "readonly.sqlite3"
    shutil.copyfile(SYNTHETIC, readonly)
    os.chmod(readonly, 0o444)
    nocta = tmp_path / "nocta.sqlite3"
    with sqlite3.connect(nocta) as connection:
        connection.executescript("""
            CREATE TABLE frames (id INTEGER PRIMARY KEY, timestamp TEXT, app_name TEXT,
                                 window_name TEXT, browser_url TEXT, device_name TEXT);
            CREATE TABLE ui_events (id INTEGER PRIMARY KEY, timestamp TEXT, event_type TEXT,
                                    element_name TEXT, element_role TEXT, app_name TEXT);
            INSERT INTO frames VALUES
                (1, '2026-03-02T09:00:00.000000+00:00', 'firefox', 'Inbox', 'https://mail.example.com/', 'a'),
                (2, '2026-03-02T09:00:40.250000+00:00', 'code', 'main.py', NULL, 'a'),
                (3, '2026-03-02 09:01:30', 'code', 'main.py', NULL, 'b'),
                (4, '2026-03-02T09:02:10.5+00:00', 'firefox', 'Inbox', 'https://mail.example.com/', 'a');
            INSERT INTO ui_events VALUES
                (1, '2026-03-02T09:00:10.000000+00:00', 'click', 'Send', 'push button', 'firefox'),
                (2, '2026-03-02T09:01:31.000000+00:00', 'key', NULL, NULL, 'code');
        """)
    connection.close()
    cold = [outputs(db, cache=False) for db in (readonly, nocta)]
    assert [outputs(db) for db in (readonly, nocta)] == cold
    compiles_refused(monkeypatch)
    assert [outputs(db) for db in (readonly, nocta)] == cold
    assert len(list(cache_home.iterdir())) == 2


def test_another_compiler_build_does_not_read_the_entry(store, cache_home, monkeypatch):
    outputs(store)
    monkeypatch.setattr(cache, "compiler_fingerprint", lambda: "another build")
    outputs(store)
    assert len(list(cache_home.iterdir())) == 2
