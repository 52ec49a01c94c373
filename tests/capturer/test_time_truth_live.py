"""Time tells the truth on the real daemon (issue 28): a clean stop leaves an
open `not_running` stretch that the next start closes; a daemon stopped
(SIGSTOP) for a few heartbeats leaves a `not_running` stretch over the
stop, and what was typed meanwhile keeps the time it was typed at; a wall
clock set back under the daemon (libfaketime reading a timestamp file the
test rewrites mid-run; the boot clock left real, the machine's clock never
touched), and then forward, is a `clock_jump` with its size, and no row ends before it
starts."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from support.apps import app_named, center, find, focus
from support.daemon import CaptureProcess, query, settle, wait_for_rows
from testbed.executables import executable

pytestmark = pytest.mark.desktop

# Heartbeat lowered so that a 3-heartbeat stop is short: a tick 2 s late is a gap.
CONFIG = "[capture]\nheartbeat_seconds = 1\nscreenshot_interval_seconds = 1\n"
STOP_S = 3.0


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def no_row_ends_before_it_starts(db: Path) -> None:
    for table, start in (("input_events", "ts_ms"), ("blind_spots", "start_ms"), ("recordings", "start_ms")):
        assert query(db, f"SELECT count(*) FROM {table} WHERE end_ms < {start}") == [(0,)], table


def test_a_stopped_daemon_and_a_clean_stop_leave_their_stretches(desktop, apps, user, tmp_path):
    apps("form", "--geometry", "300x220+0+0")
    form = app_named("phantom-form")
    db = tmp_path / "store.sqlite3"
    capture = CaptureProcess(desktop, db, config_text=CONFIG).start()
    try:
        focus(desktop, "phantom-form")
        user.click(*center(find(form, "text", label="Email:")))
        wait_for_rows(db, "SELECT count(*) FROM snapshots", lambda r: r[0][0] >= 1, what="a snapshot")
        settle(1.5)
        stopped = now_ms()
        capture.process.send_signal(signal.SIGSTOP)
        user.type("queued")                 # the X server keeps it for the daemon
        time.sleep(STOP_S)
        continued = now_ms()
        capture.process.send_signal(signal.SIGCONT)
        gap = wait_for_rows(db, "SELECT start_ms, end_ms, reason FROM blind_spots WHERE kind = 'not_running'",
                            lambda r: len(r) == 1, timeout=10, what="the stop's blind spot")
        [(start, end, reason)] = gap
        assert reason == "capture was suspended"
        assert stopped - 1_500 <= start <= stopped and continued <= end <= continued + 1_500, (start, end)
        settle(3.0)                         # the queued burst closes
        # Typed during the stop, stamped when it was typed (the X server's time), not at SIGCONT.
        [(count, typed_at, typed_until)] = query(db, "SELECT count, ts_ms, end_ms FROM input_events "
                                                     "WHERE kind = 'text'")
        assert count == 6 and stopped <= typed_at <= typed_until < continued, (stopped, typed_at, continued)
        assert capture.stop() == 0
        ended = now_ms()
    finally:
        if capture.alive():
            capture.stop()
    [(spot_id, start, end)] = query(db, "SELECT id, start_ms, end_ms FROM blind_spots WHERE kind = 'not_running' "
                                        "AND reason = 'capture stopped'")
    assert end is None and continued < start <= ended   # open: nothing said when capture starts again
    restarted = now_ms()
    again = CaptureProcess(desktop, db, config_text=CONFIG).start()
    assert query(db, "SELECT end_ms FROM blind_spots WHERE id = ?", (spot_id,))[0][0] >= restarted
    assert again.stop() == 0
    assert "Traceback" not in capture.log() + again.log()
    no_row_ends_before_it_starts(db)


def test_a_wall_clock_set_back_or_forward_is_a_clock_jump_and_no_row_runs_across_it(desktop, apps, user, tmp_path):
    apps("form", "--geometry", "300x220+0+0")
    form = app_named("phantom-form")
    db = tmp_path / "store.sqlite3"
    offset = tmp_path / "faketime.txt"
    offset.write_text("+0\n")
    env = {"LD_PRELOAD": executable("libfaketime.so.1"), "FAKETIME_TIMESTAMP_FILE": str(offset),
           "FAKETIME_NO_CACHE": "1", "DONT_FAKE_MONOTONIC": "1"}
    executable("faketime")                  # the package that brings the library
    with CaptureProcess(desktop, db, config_text=CONFIG, extra_env=env) as capture:
        focus(desktop, "phantom-form")
        user.click(*center(find(form, "text", label="Email:")))
        user.type("before")                 # a burst open as the clock moves
        offset.write_text("-3h\n")
        set_back = now_ms() - 3 * 3_600_000
        user.type("after")
        jump = wait_for_rows(db, "SELECT start_ms, end_ms, reason FROM blind_spots WHERE kind = 'clock_jump'",
                             lambda r: len(r) == 1, timeout=10, what="the clock jump")
        settle(3.0)
        offset.write_text("+2d\n")          # and forward, past where it was
        user.type("later")
        jumps = wait_for_rows(db, "SELECT start_ms, end_ms, reason FROM blind_spots WHERE kind = 'clock_jump' "
                                  "ORDER BY id", lambda r: len(r) == 2, timeout=10, what="the second jump")
        settle(3.0)
        assert capture.stop() == 0
    [(start, end, reason)] = jump
    forward = jumps[1]
    assert forward[2] == "clock moved forward 2.1 d" and forward[1] - forward[0] >= 51 * 3_600_000 - 2_000
    assert reason == "clock moved back 3 h"
    assert set_back - 2_000 <= start <= set_back + 2_000 and end - start >= 3 * 3_600_000 - 2_000
    no_row_ends_before_it_starts(db)
    assert query(db, "SELECT sum(count) FROM input_events WHERE kind = 'text'") == [(16,)]
    # What came after each jump is stamped by the new clock, from a fresh snapshot.
    assert query(db, "SELECT count(*) FROM snapshots WHERE trigger = 'clock' AND ts_ms >= ?", (start,)) == [(2,)]
    assert "Traceback" not in capture.log() and os.path.exists(db)
