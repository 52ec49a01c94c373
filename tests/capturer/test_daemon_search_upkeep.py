"""The real daemon loop (asyncio, store writer, rules) on fake sources and a
real temporary store keeps the search index current by itself: what it
captured is found without any search having indexed it, and the marks say
nothing is left. The upkeep's intervals are set to zero so that every
once-a-second tick hands the writer a slice (the pacing is tested in
tests/core/test_search_upkeep.py)."""

from __future__ import annotations

import asyncio
import time

import apsw

import capturer.search_upkeep as upkeep
from capturer.config import CaptureSettings, Config
from capturer.daemon import CaptureDaemon
from capturer.notify import Notifier
from capturer.sources.base import Monitor, WindowInfo
from core.store.search_index import pending
from support.fake_sources import FakeDesktop

LEFT = Monitor(0, "left", 0, 0, 1280, 800, True)
FORM = WindowInfo(0x400001, "phantom-form", "phantom-form.Phantom-form", 4101, None,
                  "Quarterly Invoice Form", 0, 0, 300, 220)
CONFIG = Config(capture=CaptureSettings(focus_poll_ms=50, screenshots=False))


async def until(condition, what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


async def script(daemon: CaptureDaemon, desktop: FakeDesktop) -> None:
    running = asyncio.ensure_future(daemon.run())
    await until(lambda: daemon.session is not None and daemon.session.state.display_up, "the display")
    session = daemon.session
    desktop.focus_on(FORM)
    await until(lambda: session.snapshots.written == 1, "the form's focus snapshot")
    await until(lambda: session.search.indexed >= 1, "a slice that indexes the snapshot")
    daemon.request_stop()
    assert await running == 0


def test_the_daemon_indexes_what_it_captured_for_search(tmp_path, monkeypatch):
    monkeypatch.setattr(upkeep, "ACTIVE_EVERY_S", 0.0)
    monkeypatch.setattr(upkeep, "IDLE_EVERY_S", 0.0)
    db = tmp_path / "store.sqlite3"
    desktop = FakeDesktop(monitors=(LEFT,))
    daemon = CaptureDaemon(db, CONFIG, display=":fake", notifier=Notifier({}), control_bus=False,
                           sources=desktop.sources())
    asyncio.run(script(daemon, desktop))

    connection = apsw.Connection(f"file:{db}?mode=ro", flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    try:
        found = connection.execute("SELECT s.title FROM search_snapshots JOIN snapshots s ON "
                                   "s.id = search_snapshots.rowid WHERE search_snapshots MATCH "
                                   "'quarterly'").fetchall()
        assert found == [("Quarterly Invoice Form",)]
        progress = dict(connection.execute("SELECT source, last_id FROM search_progress").fetchall())
        assert progress["snapshots"] >= 1
        assert pending(connection) <= 1   # at most what the stop's last writes added
    finally:
        connection.close()
