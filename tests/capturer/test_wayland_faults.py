"""Faults on a real headless sway (and `phantom doctor` naming it): sway exiting under a running capture is a
`display_lost` blind spot (never a traceback, never silence), and a capture
killed with SIGKILL leaves a store the next run opens and carries on."""

from __future__ import annotations

import signal

import pytest

from support.daemon import PHANTOM, query, wait_for_rows
from support.sway_capture import SwayCapture
from testbed.executables import executable
from testbed.processes import terminate
from testbed.sway import SwayDesktop

pytestmark = pytest.mark.slow


def test_sway_exiting_under_capture_is_a_display_lost_blind_spot():
    with SwayDesktop() as sway:
        sway.launch([executable("gtk3-demo")])
        sway.wait_for_view("gtk3-demo")
        doctor = sway.run([PHANTOM, "doctor"], timeout=60)
        assert "ok  display        sway on wayland-" in doctor.stdout, doctor.stdout
        with SwayCapture(sway) as capture:
            wait_for_rows(capture.db, "SELECT app FROM snapshots", bool, what="a snapshot")
            terminate(next(p for p in sway._started if p.name == "sway"))
            spots = wait_for_rows(capture.db, "SELECT kind, reason FROM blind_spots WHERE kind = 'display_lost'",
                                  bool, what="the display_lost blind spot")
            assert capture.stop() == 0
        assert spots == [("display_lost", "sway unreachable")], spots
        assert "Traceback" not in capture.log()


def test_a_killed_capture_leaves_a_store_the_next_run_carries_on():
    with SwayDesktop() as sway:
        sway.launch([executable("gtk3-demo")])
        sway.wait_for_view("gtk3-demo")
        first = SwayCapture(sway)
        with first:
            wait_for_rows(first.db, "SELECT app FROM snapshots", bool, what="a snapshot")
            assert first.process is not None
            first.process.send_signal(signal.SIGKILL)
            assert first.process.wait(10) == -signal.SIGKILL
        before = query(first.db, "SELECT count(*) FROM snapshots")[0][0]
        second = SwayCapture(sway)
        second.db = first.db
        second.args[second.args.index(str(second.workdir / "store.sqlite3"))] = str(first.db)
        with second:
            wait_for_rows(first.db, "SELECT count(*) FROM snapshots", lambda rows: rows[0][0] > before,
                          what="a snapshot of the second run")
            assert second.stop() == 0
        assert query(first.db, "PRAGMA integrity_check") == [("ok",)]
        assert query(first.db, "PRAGMA foreign_key_check") == []
        assert query(first.db, "SELECT count(*) FROM snapshots WHERE app = 'gtk3-demo'")[0][0] > before
