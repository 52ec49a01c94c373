"""A scripted desktop for the capture daemon without X, AT-SPI or pynput:
`FakeDesktop().sources()` is a `capturer.sources.Sources` whose sources
read the desktop's windows and focus, and whose input listener hands on
the keys and clicks a test types."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import Future

from capturer.sources import Sources
from capturer.sources.base import A11yContext, DisplayLost, EncodedImage, HitResult, Monitor, WindowInfo
from capturer.sources.input_listener import RawClick, RawKey
from core.clock import now_ms

ONE_MONITOR = (Monitor(0, "screen", 0, 0, 1280, 800, True),)


class FakeDesktop:
    def __init__(self, monitors: tuple[Monitor, ...] = ONE_MONITOR) -> None:
        self.monitors = monitors
        self.windows: dict[int, WindowInfo] = {}
        self.focus: int | None = None
        self.reachable = True
        self.answering: bool | None = None   # whether X answers a probe (None: as reachable)
        self.probes = 0
        self.connection: FakeWindows | None = None
        self.connect_attempts = 0
        self.listener: FakeInput | None = None
        self.listeners_made = 0
        self.screen_fails = False
        self.accessibility = FakeAccessibility()

    def sources(self) -> Sources:
        return Sources(windows=self._connect, answers=self._answers, screen=self._screen, input=self._input,
                       accessibility=lambda writer, config: self.accessibility,
                       accessibility_bus=self.accessibility.watch)

    # -- the script ---------------------------------------------------------------
    def focus_on(self, window: WindowInfo) -> None:
        self.windows[window.window_id] = window
        self.focus = window.window_id
        self._event("focus")

    def retitle(self, window: WindowInfo, title: str) -> WindowInfo:
        from dataclasses import replace

        self.windows[window.window_id] = renamed = replace(window, title=title)
        self._event("title")
        return renamed

    def type(self, text: str) -> None:
        for char in text:
            self.listener.deliver(RawKey(now_ms(), char, char, frozenset()))

    def click(self, x: int, y: int) -> None:
        self.listener.deliver(RawClick(now_ms(), x, y, 1))

    def _event(self, kind: str) -> None:
        if self.connection is not None:
            self.connection.events.add(kind)
            os.write(self.connection.wake, b"!")

    # -- factories ------------------------------------------------------------------
    def _connect(self, display: str) -> FakeWindows:
        self.connect_attempts += 1
        if not self.reachable:
            raise DisplayLost(f"cannot connect to X display {display}")
        self.connection = FakeWindows(self)
        return self.connection

    def _answers(self, display: str) -> bool:
        self.probes += 1
        return self.reachable if self.answering is None else self.answering

    def _screen(self, display: str, config) -> FakeScreen:
        if self.screen_fails:
            raise OSError("no screen to grab")
        return FakeScreen()

    def _input(self, deliver) -> FakeInput:
        self.listeners_made += 1
        self.listener = FakeInput(deliver)
        return self.listener


class FakeWindows:
    """A `WindowSource` on the desktop; its fileno is a pipe the desktop
    writes to when something changed, as an X connection would be."""

    def __init__(self, desktop: FakeDesktop) -> None:
        self._desktop = desktop
        self._read, self.wake = os.pipe()
        os.set_blocking(self._read, False)
        self.events: set[str] = set()
        self.watched: int | None = None

    def _check(self) -> None:
        if not self._desktop.reachable:
            raise DisplayLost("lost the X display")

    def fileno(self) -> int:
        return self._read

    def close(self) -> None:
        for fd in (self._read, self.wake):
            os.close(fd)

    def focused_window_id(self) -> int | None:
        self._check()
        return self._desktop.focus

    def describe(self, window_id: int) -> WindowInfo | None:
        self._check()
        return self._desktop.windows.get(window_id)

    def watch_title(self, window_id: int | None) -> None:
        self.watched = window_id

    def drain_events(self) -> set[str]:
        self._check()
        try:
            os.read(self._read, 4096)
        except BlockingIOError:
            pass
        changes, self.events = self.events, set()
        return changes

    def visible_windows(self, within=None) -> list[WindowInfo]:
        from core.geometry import intersect

        return [w for w in self._desktop.windows.values()
                if within is None or intersect(within, (w.x, w.y, w.width, w.height)) is not None]

    def window_alive(self, window_id: int) -> bool:
        self._check()
        return window_id in self._desktop.windows

    def monitors(self) -> tuple[Monitor, ...]:
        self._check()
        return self._desktop.monitors


class FakeScreen:
    def close(self) -> None:
        pass

    def thumbnail(self, monitor: Monitor, redact=(), masks=()) -> EncodedImage | None:
        return None

    def region(self, rect):
        """A patterned picture, different wherever it is taken from."""
        from PIL import Image

        left, top, width, height = rect
        return Image.frombytes("RGB", (width, height), bytes(
            ((left + column) * 7 + (top + row) * 3 + channel * 50) % 256
            for row in range(height) for column in range(width) for channel in range(3)))


class FakeInput:
    def __init__(self, deliver) -> None:
        self.deliver = deliver
        self.running = False

    def start(self) -> None:
        self.running = True

    def stop(self) -> None:
        self.running = False

    def alive(self) -> bool:
        return self.running


class FakeAccessibility:
    """Every window is readable and has no tree worth storing. Its bus can
    be taken away (`drop_bus`) and brought back (`bus_up`); applications
    whose pids are in `hung` do not answer until taken out."""

    def __init__(self) -> None:
        self.target: WindowInfo | None = None
        self.status = "ok"
        self.last_error: str | None = None
        self.starts = 0
        self.bus_up = True
        self.hung: set[int] = set()
        self.hung_since: int | None = None   # the first call a hung application left unanswered
        self.answered_pids: list[int] = []
        self._on_lost = None

    @property
    def initialised(self) -> bool:
        return self.starts > 0

    def start(self) -> bool:
        self.starts += 1
        self.status = "ok"
        return True

    def stop(self) -> None:
        pass

    def lose(self, reason: str) -> None:
        self.status, self.last_error = "lost", reason

    def hung_bus_name(self, pid: int | None) -> str | None:
        return f":1.{pid}" if pid else None   # every application's bus name is known here

    def answered(self, pid: int | None) -> None:
        self.answered_pids.append(pid)

    # -- the bus -------------------------------------------------------------------------
    def watch(self, display: str, on_lost) -> "FakeBusWatch":
        self._on_lost = on_lost
        return FakeBusWatch(self)

    def drop_bus(self) -> None:
        self.bus_up = False
        self._on_lost("the accessibility bus connection closed")

    def set_target(self, window: WindowInfo | None) -> None:
        self.target = window

    def context(self, window: WindowInfo) -> Future:
        if window.pid in self.hung:
            return _answered(A11yContext("hung", since_ms=self.hung_since))
        return _answered(A11yContext("ok"))

    def focused_field(self, window: WindowInfo) -> Future:
        return _answered(None)

    def hit_test(self, window: WindowInfo, x: int, y: int) -> Future:
        return _answered(HitResult(None, "none"))

    def field_masks(self) -> tuple:
        return ()

    def forget_trees(self) -> Future:
        self.forgotten_trees = getattr(self, "forgotten_trees", 0) + 1
        return _answered(None)


class FakeBusWatch:
    def __init__(self, accessibility: FakeAccessibility) -> None:
        self._a11y = accessibility

    async def connect(self) -> str | None:
        return None if self._a11y.bus_up else "the accessibility (AT-SPI) bus is not reachable"

    async def answers(self, bus_name: str, timeout: float) -> bool:
        pid = int(bus_name.rsplit(".", 1)[1])
        if pid in self._a11y.hung:
            await asyncio.sleep(timeout)
            return False
        return self._a11y.bus_up

    async def close(self) -> None:
        pass


def _answered(value) -> Future:
    future: Future = Future()
    future.set_result(value)
    return future
