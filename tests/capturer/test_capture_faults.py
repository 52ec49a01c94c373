"""The daemon under faults: signals, kill -9, a lost X server, a hung
application, a lost AT-SPI bus — it records a blind spot and carries on."""

from __future__ import annotations

import os
import signal
import time

import pytest

from support.apps import focus
from support.daemon import CaptureProcess, query, settle, wait_for_rows
from testbed.executables import executable
from testbed.harness import VirtualDesktop
from testbed.waiting import wait_until

pytestmark = pytest.mark.desktop


@pytest.fixture
def own_desktop():
    """A desktop of the test's own: these tests break it on purpose."""
    instance = VirtualDesktop().start()
    yield instance
    instance.stop()


def xdotool_type(desktop, text: str, delay_ms: int = 40) -> None:
    desktop.run([executable("xdotool"), "type", "--delay", str(delay_ms), text])


def test_sigterm_flushes_open_bursts_and_exits_zero(desktop, apps, tmp_path):
    apps("form", "--geometry", "300x220+0+0")
    db = tmp_path / "store.sqlite3"
    capture = CaptureProcess(desktop, db).start()
    focus(desktop, "phantom-form")
    xdotool_type(desktop, "abcdefgh", delay_ms=10)
    assert capture.stop(signal.SIGTERM) == 0   # the burst is still open when the signal lands
    assert query(db, "SELECT kind, count FROM input_events") == [("text", 8)]
    assert query(db, "SELECT kind, reason FROM blind_spots WHERE end_ms IS NULL") == [
        ("not_running", "capture stopped")]   # the clean stop, closed by the next start
    assert "READY=1" in "".join(capture.notify.messages)


def test_kill_9_leaves_a_sound_store_missing_at_most_the_last_second(desktop, apps, tmp_path):
    apps("form", "--geometry", "300x220+0+0")
    db = tmp_path / "store.sqlite3"
    capture = CaptureProcess(desktop, db).start()
    focus(desktop, "phantom-form")
    from replay.xinput import XTestInput

    user = XTestInput(desktop.display)
    typed_at = []
    deadline = time.monotonic() + 3.0
    while time.monotonic() < deadline:   # one long burst, never closed by a pause
        user.type("x", delay=0)
        typed_at.append(time.monotonic())
        time.sleep(0.03)
    killed_at = time.monotonic()
    capture.process.send_signal(signal.SIGKILL)
    capture.process.wait(10)
    user.close()
    assert query(db, "PRAGMA integrity_check") == [("ok",)]
    stored = query(db, "SELECT coalesce(sum(count), 0) FROM input_events")[0][0]
    older_than_a_second = sum(1 for t in typed_at if t <= killed_at - 1.0)
    assert older_than_a_second <= stored <= len(typed_at)
    assert query(db, "SELECT count(*) FROM snapshots") != [(0,)]


def test_losing_the_x_server_is_a_blind_spot_until_it_answers_again(own_desktop, tmp_path):
    own_desktop.launch_fixture("form", "--geometry", "300x220+0+0")
    db = tmp_path / "store.sqlite3"
    with CaptureProcess(own_desktop, db) as capture:
        focus(own_desktop, "phantom-form")
        wait_for_rows(db, "SELECT count(*) FROM snapshots", lambda r: r[0][0] >= 1,
                      what="a first snapshot")
        killed_ms = int(time.time() * 1000)
        own_desktop.kill_display()
        wait_for_rows(db, "SELECT kind FROM blind_spots WHERE end_ms IS NULL",
                      lambda r: ("display_lost",) in r, what="an open display_lost blind spot")
        settle(6.0)      # long enough that a back-off schedule would be at its 8 s step
        assert capture.alive()
        restarting_ms = int(time.time() * 1000)
        own_desktop.restart_display()
        answered_ms = int(time.time() * 1000)   # xdpyinfo got its answer
        [(start, end)] = wait_for_rows(db, "SELECT start_ms, end_ms FROM blind_spots WHERE kind = 'display_lost'",
                                       lambda r: r and r[0][1] is not None, timeout=20,
                                       what="the display_lost blind spot to close")
        assert killed_ms <= start <= killed_ms + 1_500
        assert restarting_ms <= end <= answered_ms + 1_000   # when X answered, not a back-off step later
        assert capture.alive()
        assert capture.stop() == 0
    assert "Traceback" not in capture.log()


def test_a_hung_application_does_not_stall_capture_and_is_blind_exactly_while_hung(own_desktop, tmp_path):
    own_desktop.launch_fixture("form", "--geometry", "300x220+0+0")
    notes = own_desktop.launch_fixture("notes", "--geometry", "400x300+420+0")
    db = tmp_path / "store.sqlite3"
    config = "[accessibility]\ncall_timeout_ms = 300\n"
    with CaptureProcess(own_desktop, db, config_text=config) as capture:
        os.kill(notes.pid, signal.SIGSTOP)
        try:
            focused_ms = int(time.time() * 1000)
            focus(own_desktop, "phantom-notes")
            own_desktop.run([executable("xdotool"), "mousemove", "500", "100", "click", "1"])
            xdotool_type(own_desktop, "stuck")
            settle(2.5)
        finally:
            continued_ms = int(time.time() * 1000)
            os.kill(notes.pid, signal.SIGCONT)
        [(start, end)] = wait_for_rows(
            db, "SELECT start_ms, end_ms FROM blind_spots WHERE kind = 'no_accessibility' AND reason = 'hung'",
            lambda r: len(r) == 1 and r[0][1] is not None, timeout=10, what="the hung blind spot to close")
        # From the first call the stopped application left unanswered to its first answer.
        assert focused_ms <= start <= focused_ms + 1_500
        assert continued_ms <= end <= continued_ms + 1_000
        focus(own_desktop, "phantom-form")
        xdotool_type(own_desktop, "fine")
        wait_for_rows(db, "SELECT app FROM snapshots WHERE trigger = 'focus'",
                      lambda r: r and r[-1] == ("phantom-form",), timeout=10,
                      what="capture to move on to the form")
        assert capture.stop() == 0
    apps_seen = [row[0] for row in query(db, "SELECT app FROM snapshots ORDER BY ts_ms")]
    assert "phantom-notes" in apps_seen and apps_seen[-1] == "phantom-form"
    assert query(db, "SELECT count(*) FROM input_events WHERE kind = 'click'") == [(1,)]
    assert query(db, "SELECT coalesce(sum(count), 0) FROM input_events WHERE kind = 'text'") == [(9,)]


def test_losing_the_accessibility_bus_keeps_window_capture(own_desktop, tmp_path):
    own_desktop.launch_fixture("form", "--geometry", "300x220+0+0")
    own_desktop.launch_fixture("notes", "--geometry", "400x300+420+0")
    db = tmp_path / "store.sqlite3"
    with CaptureProcess(own_desktop, db) as capture:
        focus(own_desktop, "phantom-form")
        own_desktop.kill_accessibility_bus()
        settle(0.5)
        focus(own_desktop, "phantom-notes")
        xdotool_type(own_desktop, "still counted")
        focus(own_desktop, "phantom-form")
        settle(0.5)
        assert capture.alive()
        assert capture.stop() == 0
    assert [r[0] for r in query(db, "SELECT app FROM snapshots WHERE trigger = 'focus' "
                                    "ORDER BY ts_ms")] == ["phantom-form", "phantom-notes",
                                                            "phantom-form"]
    assert query(db, "SELECT sum(count) FROM input_events WHERE kind = 'text'") == [(13,)]
    assert ("no_accessibility",) in query(db, "SELECT kind FROM blind_spots")


def test_sd_notify_ready_and_watchdog_arrive(desktop, tmp_path):
    db = tmp_path / "store.sqlite3"
    capture = CaptureProcess(desktop, db, extra_env={"WATCHDOG_USEC": "2000000"}).start()
    try:
        capture.notify.wait_for("READY=1")
        wait_until(lambda: sum(m == "WATCHDOG=1" for m in capture.notify.poll()) >= 2,
                   timeout=10, what="two WATCHDOG=1 messages")
    finally:
        assert capture.stop() == 0
    assert "STOPPING=1" in capture.notify.poll()
