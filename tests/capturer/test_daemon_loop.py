"""The real daemon loop (asyncio, store writer, rules, input path) on fake
sources and a real temporary store — no desktop: a scripted focus change,
an excluded window and a pause leave exactly the rows they should."""

from __future__ import annotations

import asyncio
import io
import time

import apsw
from PIL import Image

from capturer.config import CaptureSettings, Config
from capturer.daemon import CaptureDaemon
from capturer.notify import Notifier
from capturer.sources.base import Monitor, WindowInfo
from support.fake_sources import FakeDesktop

LEFT = Monitor(0, "left", 0, 0, 1280, 800, True)
RIGHT = Monitor(1, "right", 1280, 0, 1280, 800, False)
FORM = WindowInfo(0x400001, "phantom-form", "phantom-form.Phantom-form", 4101, None, "Phantom Form",
                  0, 0, 300, 220)
NOTES = WindowInfo(0x500001, "phantom-notes", "phantom-notes.Phantom-notes", 4102, None,
                   "Phantom Notes", 1400, 100, 420, 320)
VAULT = WindowInfo(0x600001, "keepassxc", "keepassxc.KeePassXC", 4103, None, "Passwords - KeePassXC",
                   200, 200, 600, 400)
CONFIG = Config(capture=CaptureSettings(focus_poll_ms=50, screenshots=False))


async def until(condition, what: str, timeout: float = 5.0) -> None:
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
    desktop.type("abc")
    desktop.windows[VAULT.window_id] = VAULT     # on screen, over the form's corner; not focused
    desktop.click(150, 100)
    await until(lambda: session.input.clicks == 1, "the click row")

    assert desktop.accessibility.target == FORM and desktop.connection.watched == FORM.window_id

    desktop.focus_on(VAULT)
    await until(lambda: session.state.excluded_by is not None, "the vault to be excluded")
    assert desktop.accessibility.target is None    # nothing of an excluded window is read
    desktop.type("secret")
    desktop.click(300, 300)
    desktop.focus_on(FORM)
    await until(lambda: session.snapshots.written == 2, "the form's second focus snapshot")

    assert session.control.pause()
    assert desktop.accessibility.target is None and session.control.status()["state"] == "paused"
    desktop.type("unseen")
    desktop.focus_on(NOTES)
    await asyncio.sleep(0.2)                 # a poll and an input batch while paused
    assert await session.control.resume()    # the resume snapshot is written before it returns
    assert session.snapshots.written == 3
    assert desktop.accessibility.target == NOTES and desktop.connection.watched == NOTES.window_id
    desktop.type("xy")
    await until(lambda: session.input.counter.open_counts(), "the notes burst")
    daemon.request_stop()
    assert await running == 0


def test_focus_exclusion_and_pause_leave_exactly_their_rows(tmp_path):
    db = tmp_path / "store.sqlite3"
    desktop = FakeDesktop(monitors=(LEFT, RIGHT))
    daemon = CaptureDaemon(db, CONFIG, display=":fake", notifier=Notifier({}), control_bus=False,
                           sources=desktop.sources())
    asyncio.run(script(daemon, desktop))

    connection = apsw.Connection(str(db))
    rows = lambda sql: connection.execute(sql).fetchall()  # noqa: E731
    assert rows("SELECT app, trigger, focused, monitor FROM snapshots ORDER BY id") == [
        ("phantom-form", "focus", 1, 0), ("phantom-form", "focus", 1, 0),
        ("phantom-notes", "resume", 1, 1)]
    # Typed into the form (3 keys and a click), then the notes (2 keys, on
    # the right monitor); nothing from the vault or while paused.
    assert rows("SELECT kind, count, monitor, x FROM input_events ORDER BY ts_ms, id") == [
        ("text", 3, 0, None), ("click", 1, 0, 150), ("text", 2, 1, None)]
    spots = rows("SELECT kind, reason, start_ms <= end_ms FROM blind_spots ORDER BY id")
    assert spots == [("excluded", "password manager (keepassxc)", 1), ("paused", "paused by the user", 1),
                     ("not_running", "capture stopped", None)]   # open until the next start
    assert rows("SELECT value FROM meta WHERE key = 'paused'") == [("0",)]
    # The click's three crops, inside the form, with the vault's corner (it
    # lies over the form) black and transparent in the wide one.
    assert rows("SELECT kind, x, y, width, height, ratio_x, window_x, window_y, window_w, window_h "
                "FROM click_evidence ORDER BY width") == [
        ("target", 118, 68, 64, 64, 0.5078, 0, 0, 300, 220),
        ("context", 86, 36, 128, 128, 0.5039, 0, 0, 300, 220),
        ("wide", 22, 0, 256, 220, 0.5020, 0, 0, 300, 220)]
    assert rows("SELECT count(*) FROM blobs WHERE kind = 'click_crop'") == [(3,)]
    assert rows("SELECT crop FROM input_events WHERE kind = 'click'") == rows(
        "SELECT blob FROM click_evidence WHERE kind = 'target'")
    wide = Image.open(io.BytesIO(rows("SELECT data FROM blobs JOIN click_evidence ON blob = sha256 "
                                      "WHERE click_evidence.kind = 'wide'")[0][0]))
    assert wide.mode == "RGBA" and wide.getpixel((200 - 22, 200)) == (0, 0, 0, 0)
    assert wide.getpixel((199 - 22, 199))[3] == 255
