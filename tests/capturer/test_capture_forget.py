"""Forgetting through the running daemon (the real loop, store writer and
controller on fake sources): what it holds in memory — an open burst, rows
not yet committed, cached walks — does not survive, and what comes after
the forget is kept: the window that had focus is seen again at once."""

from __future__ import annotations

import asyncio

import apsw
import pytest

from capturer.control import CaptureControlError
from capturer.daemon import CaptureDaemon
from capturer.notify import Notifier
from core.clock import now_ms
from support.fake_sources import FakeDesktop

try:  # package layout
    from .test_daemon_loop import CONFIG, FORM, NOTES, until
except ImportError:  # rootdir layout (no __init__.py in tests/)
    from test_daemon_loop import CONFIG, FORM, NOTES, until


async def script(daemon: CaptureDaemon, desktop: FakeDesktop) -> dict:
    running = asyncio.ensure_future(daemon.run())
    await until(lambda: daemon.session is not None and daemon.session.state.display_up, "the display")
    session, control = daemon.session, daemon.session.control
    since = now_ms() - 1
    desktop.focus_on(FORM)
    await until(lambda: session.snapshots.written == 1, "the form's focus snapshot")
    desktop.type("Zebra")
    await until(lambda: session.input.counter.open_counts(), "the open burst")

    control.start_recording("demo")
    with pytest.raises(CaptureControlError) as refused:
        await control.forget(since, now_ms() + 60_000)
    assert refused.value.code == "already_recording"
    await control.stop_recording()
    with pytest.raises(CaptureControlError) as future:
        await control.forget(now_ms() + 60_000, now_ms() + 120_000)
    assert future.value.code == "invalid_window"

    desktop.type("Quartz")  # a burst still open, its rows still in the writer's buffer
    await until(lambda: session.input.counter.open_counts(), "the second burst")
    report = await control.forget(since, now_ms() + 60_000)
    assert session.snapshots.written == 2    # the form, seen again after the forget
    await asyncio.sleep(0.05)
    desktop.focus_on(NOTES)
    await until(lambda: session.snapshots.written == 3, "the notes' focus snapshot")
    desktop.type("kept")
    await until(lambda: session.input.counter.open_counts(), "the kept burst")
    daemon.request_stop()
    assert await running == 0
    return report


def test_a_forget_through_the_daemon_leaves_nothing_it_held_and_keeps_what_follows(tmp_path,
                                                                                   monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "cache" / "phantom").mkdir(parents=True)
    (tmp_path / "cache" / "phantom" / "day.json").write_text("compiled")
    db = tmp_path / "store.sqlite3"
    desktop = FakeDesktop()
    daemon = CaptureDaemon(db, CONFIG, display=":fake", notifier=Notifier({}), control_bus=False,
                           sources=desktop.sources())
    report = asyncio.run(script(daemon, desktop))
    assert (report["snapshots"], report["input_events"], report["recordings"]) == (1, 2, ("demo",))
    assert report["scrubbed"] is True and report["caches"] == 1
    assert desktop.accessibility.forgotten_trees == 1
    connection = apsw.Connection(str(db))
    rows = lambda sql: connection.execute(sql).fetchall()  # noqa: E731
    assert rows("SELECT app, trigger FROM snapshots ORDER BY id") == [("phantom-form", "forget"),
                                                                       ("phantom-notes", "focus")]
    assert rows("SELECT kind, count FROM input_events") == [("text", 4)]
    assert rows("SELECT count(*) FROM recordings") == [(0,)]
    forgotten = rows("SELECT kind, start_ms, end_ms FROM blind_spots WHERE kind != 'not_running'")
    assert [kind for kind, _, _ in forgotten] == ["forgotten"]
    assert rows("SELECT min(ts_ms) FROM input_events")[0][0] >= forgotten[0][2]
