"""The real daemon loop on fake sources and a real store, under faults:
rows a killed run left open, a run that re-executes itself for a returning
accessibility bus (handing over its pause and recording), a hung
application measured from its first silence to its first answer, and a
run whose last writes the disk did not take."""

from __future__ import annotations

import asyncio
import logging

import apsw
from test_daemon_loop import CONFIG, FORM, NOTES, until

from capturer.daemon import EXIT_UNSAVED, CaptureDaemon
from capturer.notify import Notifier
from core.clock import now_ms
from core.store import BlindSpotRow, BlobRow, RecordingRow, SetMeta, StoreWriter
from core.store.crash import ALIVE_KEY
from support.fake_sources import FakeDesktop


def daemon_on(db, desktop: FakeDesktop) -> CaptureDaemon:
    return CaptureDaemon(db, CONFIG, display=":fake", notifier=Notifier({}), control_bus=False,
                         sources=desktop.sources())


async def started(daemon: CaptureDaemon):
    """The daemon running (its task) once its display is up, and its session."""
    running = asyncio.ensure_future(daemon.run())
    await until(lambda: daemon.session is not None and daemon.session.state.display_up, "the display")
    return running, daemon.session


def rows(db, sql: str) -> list[tuple]:
    connection = apsw.Connection(str(db))
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


def test_a_recording_and_a_pause_a_kill_left_open_end_when_that_run_was_last_alive(tmp_path):
    db = tmp_path / "store.sqlite3"
    killed = StoreWriter(db)   # what a run killed with -9 at 50 s left behind
    killed.submit(RecordingRow(1, "invoice", 10_000, None))
    killed.submit(BlindSpotRow(1, 20_000, None, 0, "UTC", None, "paused", "paused by the user"))
    killed.submit(SetMeta("paused", "1"))
    killed.submit(SetMeta(ALIVE_KEY, "50000"))
    assert killed.close()
    desktop = FakeDesktop()
    daemon = daemon_on(db, desktop)

    async def script() -> None:
        running, session = await started(daemon)
        assert session.control.recording is None        # `record stop`: none in progress
        assert session.state.paused                     # the pause itself goes on
        daemon.request_stop()
        assert await running == 0

    began_ms = now_ms()
    asyncio.run(script())
    assert rows(db, "SELECT id, end_ms FROM recordings") == [(1, 50_000)]
    spots = rows(db, "SELECT id, kind, start_ms, end_ms FROM blind_spots ORDER BY id")
    assert spots[0] == (1, "paused", 20_000, 50_000)           # closed where the killed run was last alive
    # from then to this start nothing ran: said, not silent (the last frame's dwell stops there)
    assert spots[1][:3] == (2, "not_running", 50_000) and began_ms <= spots[1][3] <= now_ms()
    assert rows(db, "SELECT reason FROM blind_spots WHERE id = 2") == [
        ("capture was not running (it stopped without closing)",)]
    assert spots[2][1] == "paused" and spots[2][2] >= began_ms and spots[2][3] >= spots[2][2]
    # none left open but the clean stop's, which the next start closes
    assert rows(db, "SELECT kind FROM blind_spots WHERE end_ms IS NULL") == [("not_running",)]


def test_a_returning_accessibility_bus_re_executes_the_daemon_which_carries_on_pause_and_recording(tmp_path):
    db = tmp_path / "store.sqlite3"
    desktop = FakeDesktop()
    first = daemon_on(db, desktop)

    async def before_the_exec() -> None:
        running, session = await started(first)
        desktop.focus_on(FORM)
        await until(lambda: session.snapshots.written == 1, "the form's snapshot")
        recording = session.control.start_recording("invoice")
        desktop.accessibility.drop_bus()
        assert session.state.blind_spot("no_accessibility").reason == "accessibility bus lost"
        assert session.control.status()["accessibility"] == "lost"
        from cli.commands.capture import _format_status  # what `phantom status` prints

        empty = {"db": str(db), "snapshots": 0, "input_events": 0, "elements": 0, "blobs": 0,
                 "first_snapshot_ms": None, "last_snapshot_ms": None, "open_blind_spots": []}
        printed = _format_status(session.control.status(), empty)
        assert "accessibility lost: no element is read (a no_accessibility blind spot is open)" in printed
        desktop.focus_on(NOTES)                                # focus moves; still nothing can be read
        await until(lambda: session.snapshots.written == 2, "the notes' snapshot")
        assert session.state.blind_spot("no_accessibility") is not None
        session.control.pause()
        desktop.accessibility.bus_up = True
        assert await running == 0
        assert first.reexec_reason == "the accessibility bus is back"
        return recording

    recording = asyncio.run(before_the_exec())
    assert rows(db, "SELECT id, end_ms FROM recordings") == [(recording, None)]
    handed = rows(db, "SELECT id, kind, end_ms FROM blind_spots ORDER BY id")
    assert [(kind, end is None) for _, kind, end in handed] == [("no_accessibility", False), ("paused", True)]

    second = daemon_on(db, desktop)

    async def after_the_exec() -> None:
        running, session = await started(second)
        assert session.control.recording_name == "invoice"
        assert session.state.paused
        assert await session.control.resume()
        await session.control.stop_recording()
        second.request_stop()
        assert await running == 0

    asyncio.run(after_the_exec())
    assert rows(db, "SELECT count(*) FROM recordings WHERE end_ms IS NOT NULL") == [(1,)]
    # One pause row from pause to resume across both processes, none left open.
    assert rows(db, "SELECT count(*) FROM blind_spots WHERE kind = 'paused'") == [(1,)]
    assert rows(db, "SELECT kind FROM blind_spots WHERE end_ms IS NULL") == [("not_running",)]   # the stop
    assert rows(db, "SELECT value FROM meta WHERE key IN ('resume_recording', 'resume_blind_spots')") == [("",), ("",)]


def test_a_hung_application_is_blind_from_its_first_silence_until_it_answers(tmp_path):
    db = tmp_path / "store.sqlite3"
    desktop = FakeDesktop()
    daemon = daemon_on(db, desktop)
    a11y = desktop.accessibility

    async def script() -> tuple[int, int]:
        running, session = await started(daemon)
        desktop.focus_on(FORM)
        await until(lambda: session.snapshots.written == 1, "the form's snapshot")
        # The form stops answering; its next read (for a new title) finds it hung.
        await asyncio.sleep(0.05)
        a11y.hung, a11y.hung_since = {FORM.pid}, now_ms()
        await asyncio.sleep(0.05)
        desktop.retitle(FORM, "Phantom Form — saving")
        await until(lambda: session.state.blind_spot("no_accessibility") is not None, "the hung blind spot")
        await asyncio.sleep(0.6)                      # still silent: the spot stays open
        assert session.state.blind_spot("no_accessibility").reason == "hung"
        answered_at = now_ms()
        a11y.hung = set()
        await until(lambda: session.state.blind_spot("no_accessibility") is None, "the answer", timeout=2)
        assert a11y.answered_pids == [FORM.pid]
        daemon.request_stop()
        assert await running == 0
        return a11y.hung_since, answered_at

    since, answered_at = asyncio.run(script())
    [(start, end, reason)] = rows(db, "SELECT start_ms, end_ms, reason FROM blind_spots "
                                      "WHERE kind != 'not_running'")
    assert reason == "hung" and start == since
    assert answered_at <= end <= answered_at + 500    # the probe asks about three times a second


def test_a_run_whose_last_writes_the_disk_did_not_take_ends_with_an_error_and_a_failing_exit(tmp_path, caplog):
    db = tmp_path / "store.sqlite3"
    desktop = FakeDesktop()
    daemon = daemon_on(db, desktop)

    async def script() -> int:
        running, session = await started(daemon)
        assert session.writer.flush()
        connection = session.writer._connection  # noqa: SLF001 - the disk fills up, for this test
        connection.pragma("max_page_count", connection.pragma("page_count"))
        desktop.focus_on(FORM)
        desktop.type("x" * 50)
        await until(lambda: session.input.counter.open_counts(), "the burst")
        # A thumbnail bigger than what is left (the pages already there hold small rows).
        session.writer.submit(BlobRow("f" * 64, "thumbnail", "image/webp", 320, 200, bytes(64_000), now_ms()))
        daemon.request_stop()
        return await running

    with caplog.at_level(logging.INFO, logger="capturer.daemon"):
        assert asyncio.run(script()) == EXIT_UNSAVED
    messages = [record.getMessage() for record in caplog.records if record.name == "capturer.daemon"]
    assert not any("store flushed" in message for message in messages)
    [error] = [record for record in caplog.records if record.levelno == logging.ERROR]
    assert "could not be saved" in error.getMessage() and "FullError" in error.getMessage()
