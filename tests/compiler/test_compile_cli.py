"""`phantom compile` with bad and awkward input: a clear one-line error or a
correct (possibly empty) document — never a crash or a partial file."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from core.store import SnapshotRow, StoreWriter
from support.goldens import FIXTURES
from testbed.waiting import wait_until

PHANTOM = str(Path(sys.executable).with_name("phantom"))
RECORDED = str(FIXTURES / "recorded" / "desktop.sqlite3")


def phantom(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([PHANTOM, *args], capture_output=True, text=True, timeout=60)


def one_line_error(result, fragment: str) -> None:
    assert result.returncode != 0, result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert fragment in lines[0], lines[0]


def test_a_day_without_capture_is_an_empty_document():
    result = phantom("compile", "--db", RECORDED, "--day", "2026-01-01", "--format", "json")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["frames"] == [] and document["coverage"]["first_activity"] is None
    compact = phantom("compile", "--db", RECORDED, "--day", "2026-01-01").stdout
    assert "nothing captured in this window" in compact


def test_bad_windows_and_formats():
    one_line_error(phantom("compile", "--db", RECORDED, "--day", "2026-13-45"), "not a date")
    one_line_error(phantom("compile", "--db", RECORDED, "--since", "2026-11-29T10:00",
                           "--until", "2026-11-29T09:00"), "reversed range")
    one_line_error(phantom("compile", "--db", RECORDED, "--since", "2026-11-29T10:00",
                           "--until", "2026-11-29T10:00"), "empty window")
    one_line_error(phantom("compile", "--db", RECORDED, "--since", "teatime",
                           "--until", "2026-11-29T10:00"), "not a time: 'teatime'")
    one_line_error(phantom("compile", "--db", RECORDED, "--since", "2026-11-29T25:00"),
                   "not an ISO 8601 time")
    one_line_error(phantom("compile", "--db", RECORDED, "--since", "3 fortnights ago"),
                   "unknown unit")
    one_line_error(phantom("compile", "--db", RECORDED, "--day", "2026-11-29", "--format", "yaml"),
                   "invalid choice")
    one_line_error(phantom("compile", "--db", RECORDED, "--day", "2026-11-29", "--tz", "Mars/Olympus"),
                   "unknown time zone")
    one_line_error(phantom("compile", "--db", RECORDED, "--day", "2026-11-29", "--budget", "5"),
                   "--budget must be between 100 and 100000 (got 5)")
    one_line_error(phantom("compile", "--db", RECORDED, "--day", "today", "--since", "-2h"),
                   "not allowed with argument --day")


def test_routines_shares_the_window_errors():
    """`phantom routines` resolves windows through the same front door; a
    half range is the user's mistake, not an unreadable database."""
    one_line_error(phantom("routines", "--db", RECORDED, "--since", "2026-11-29T10:00",
                           "--until", "2026-11-29T09:00"), "phantom: reversed range")
    one_line_error(phantom("routines", "--db", RECORDED, "--day", "2026-13-45"), "not a date")


def test_foreign_missing_and_corrupt_databases(tmp_path):
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE notes(id INTEGER)")
    one_line_error(phantom("compile", "--db", str(other), "--day", "2026-11-29"),
                   "neither a Phantom store nor a nocta")
    one_line_error(phantom("compile", "--db", str(tmp_path / "absent.sqlite3"), "--day", "2026-11-29"),
                   "no database")
    corrupt = tmp_path / "corrupt.sqlite3"
    corrupt.write_bytes(b"\x00garbage" * 500)
    one_line_error(phantom("compile", "--db", str(corrupt), "--day", "2026-11-29"),
                   "not a readable SQLite database")


def test_out_is_written_whole_or_not_at_all(tmp_path):
    target = tmp_path / "day.json"
    ok = phantom("compile", "--db", RECORDED, "--day", "2026-11-29", "--format", "json",
                 "--out", str(target))
    assert ok.returncode == 0 and json.loads(target.read_text())["frames"]
    missing_dir = tmp_path / "nope" / "day.json"
    one_line_error(phantom("compile", "--db", RECORDED, "--day", "2026-11-29", "--out",
                           str(missing_dir)), "not a directory")
    failed = tmp_path / "failed.txt"
    one_line_error(phantom("compile", "--db", RECORDED, "--day", "2026-13-01", "--out",
                           str(failed)), "not a date")
    assert not failed.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["day.json"]  # no temporary left behind


def test_compiling_while_the_daemon_writes(tmp_path):
    db = tmp_path / "live.sqlite3"
    writer = StoreWriter(db, commit_interval=0.05)
    base = 1_795_960_800_000  # 2026-11-29 12:00 UTC
    stop = threading.Event()

    def write() -> None:
        t = 0
        while not stop.is_set():
            writer.submit(SnapshotRow(writer.ids.next("snapshots"), base + t * 1000, 0, "UTC", 0,
                                      "heartbeat", "editor", "", 1, None, "notes", None, 0, 1,
                                      None, None))
            t += 1
            time.sleep(0.001)      # a busy daemon's pace, not a flood
    thread = threading.Thread(target=write)
    thread.start()
    try:
        # The writer has committed rows before the first compile reads.
        wait_until(lambda: writer_rows(db) >= 20, timeout=30, what="the writer's first commits")
        seen = []
        for _ in range(5):
            result = phantom("compile", "--db", str(db), "--day", "2026-11-29", "--format", "json",
                             "--no-inferred")
            assert result.returncode == 0, result.stderr
            document = json.loads(result.stdout)
            rows = document["provenance"]["rows"]["snapshots"]
            ids = {i for f in document["frames"] for i in expand(f["evidence"]["snapshots"])}
            # One consistent read: the frames cite exactly the rows the
            # provenance counted, never a row from a later commit or one less.
            assert rows >= 20 and len(ids) == rows and max(ids) == rows, (rows, len(ids), max(ids))
            seen.append(rows)
        assert seen == sorted(seen)      # later compiles see at least what earlier ones did
    finally:
        stop.set()
        thread.join()
        writer.close()


def expand(ranges: str) -> list[int]:
    """`"1-3,7"` → [1, 2, 3, 7] (the JSON document's evidence ranges)."""
    out = []
    for part in filter(None, ranges.split(",")):
        low, _, high = part.partition("-")
        out += range(int(low), int(high or low) + 1)
    return out


def writer_rows(db) -> int:
    from support.daemon import query

    try:
        return query(db, "SELECT count(*) FROM snapshots")[0][0]
    except Exception:  # noqa: BLE001 - the store may not exist yet
        return 0


def test_everyday_windows_from_the_command_line():
    """No window is today; `--since -2h` is a value, not an option; a range
    past the store is clamped to its days, and the block says so."""
    today = phantom("compile", "--db", RECORDED, "--no-inferred")
    assert today.returncode == 0 and today.stdout.startswith("ACTIVITY 20"), today.stderr
    recent = phantom("compile", "--db", RECORDED, "--since", "-2h")
    assert recent.returncode == 0, recent.stderr
    wide = phantom("compile", "--db", RECORDED, "--since", "1970-01-01", "--until", "2100-01-01")
    lines = wide.stdout.splitlines()
    assert lines[0].startswith("ACTIVITY 2026-11-29T00:00:00+00:00/2026-11-30T00:00:00+00:00")
    assert lines[1] == "window: clamped to the days the store holds (asked 1970-01-01/2100-01-01)"
    day = phantom("compile", "--db", RECORDED, "--day", "2026-11-29").stdout.splitlines()
    assert lines[2:] == day[1:]  # the same frames as the day itself
