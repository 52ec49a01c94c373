"""The capture daemon: the loop that owns threads, timing and the writer.

A run is one `CaptureSession`: the store writer, the blind spots, the rules'
state (`capturer.decide`) and the parts that act for them — the display
supervisor (X windows, screen, input listeners; reconnects with back-off),
the accessibility worker (its own GLib thread), the focus watch, the
snapshot writer and the input path. What the session sees becomes an
observation; the rules return the new state and the operations the session
performs. One asyncio loop polls focus as a safety net under the X events,
ticks once a second (heartbeats, idle, bursts, watchdog, reconnects) and
receives input events from the listener threads. Anything that goes wrong in
a source becomes a blind-spot row and a retry with back-off — never an exit.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
from pathlib import Path

from core.clock import now_ms
from core.store import SetMeta, StoreWriter
from core.store.connection import open_readonly

from .blind_spots import BlindSpots
from .config import Config
from .control import PauseListeners
from .controller import Controller
from .decide import (
    AccessibilityBus,
    CaptureState,
    CloseBlindSpot,
    CloseBursts,
    CountInput,
    DisplayBack,
    DisplayGone,
    Observation,
    OpenBlindSpot,
    Operation,
    PauseChanged,
    PointAccessibility,
    Rules,
    SourceFailed,
    Started,
    Tick,
    WatchTitle,
    WriteSnapshot,
    decide,
)
from .focus_watch import FocusWatch
from .input_path import InputPath
from .notify import Notifier
from .pictures import Pictures
from .privacy import excluding_rule
from .snapshots import SnapshotWriter
from .sources import Sources
from .sources.base import DisplayLost, Monitor, WindowInfo
from .supervisor import DisplaySupervisor

log = logging.getLogger(__name__)


class CaptureDaemon:
    """Run with `asyncio.run(daemon.run())`; stop with `request_stop()`.
    `sources` makes the desktop's sources (the real ones by default)."""

    def __init__(self, db_path: Path, config: Config, *, display: str | None = None,
                 notifier: Notifier | None = None, control_bus: bool = True,
                 sources: Sources | None = None) -> None:
        self.db_path = Path(db_path)
        self.config = config
        self.display = display if display is not None else os.environ.get("DISPLAY", "")
        self.notifier = notifier or Notifier()
        self.control_bus = control_bus
        self.sources = sources or Sources()
        self.started_ms = now_ms()
        self.session: CaptureSession | None = None  # while run() runs
        self._stop = asyncio.Event()
        self._last_watchdog = 0.0

    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        threading.excepthook = _log_thread_death
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self.request_stop)
        session = self.session = CaptureSession(self, loop)
        await session.start(control_bus=self.control_bus)
        self.notifier.ready(session.control.summary_line())
        log.info("capturing into %s", self.db_path)
        try:
            await asyncio.gather(self._focus_loop(session), self._tick_loop(session, loop))
        finally:
            self.notifier.stopping()
            await session.close()
            self.session = None
        return 0

    def request_stop(self) -> None:
        self._stop.set()

    async def _focus_loop(self, session: CaptureSession) -> None:
        interval = self.config.capture.focus_poll_ms / 1000
        while not self._stop.is_set():
            await self._sleep_unless_stopped(interval)
            session.focus.request({"poll"})

    async def _tick_loop(self, session: CaptureSession, loop: asyncio.AbstractEventLoop) -> None:
        while not self._stop.is_set():
            self._send_watchdog(loop.time())
            try:
                await session.tick()
            except DisplayLost as exc:
                session.display.lost(str(exc))
            except Exception:  # noqa: BLE001 - one bad tick must not end capture
                log.exception("capture tick failed")
            await self._sleep_unless_stopped(1.0)

    async def _sleep_unless_stopped(self, seconds: float) -> None:
        try:
            await asyncio.wait_for(self._stop.wait(), seconds)
        except asyncio.TimeoutError:
            pass

    def _send_watchdog(self, now: float) -> None:
        interval = self.notifier.watchdog_interval
        if interval is None:
            return
        if now - self._last_watchdog >= min(interval, 1.0) or self._last_watchdog == 0:
            self.notifier.watchdog()
            self._last_watchdog = now


class CaptureSession:
    """One run: made by `CaptureDaemon.run()`, closed when it ends; its
    `control` is what the D-Bus service is handed."""

    def __init__(self, daemon: CaptureDaemon, loop: asyncio.AbstractEventLoop) -> None:
        config = daemon.config
        self.daemon = daemon
        self.rules = Rules.from_config(config)
        self.state = CaptureState()
        self.control = Controller(self)
        self.pause_listeners = PauseListeners()
        self.writer = StoreWriter(daemon.db_path)
        self.blind = BlindSpots(self.writer)
        self.a11y = daemon.sources.accessibility(self.writer, config)
        self.display = DisplaySupervisor(
            daemon.display, config, daemon.sources, deliver_input=self._deliver_input,
            on_up=self._display_up, on_down=self._display_down, on_source_error=self.source_error,
            watch=lambda fd: loop.add_reader(fd, self.focus.readable), unwatch=loop.remove_reader,
            clock=loop.time)
        self.focus = FocusWatch(self.display, lambda: self.state, self.observe)
        self.pictures = Pictures(self.writer, config, self.display, self.a11y,
                                 lambda: self.control.recording_id is not None, self.source_error)
        self.snapshots = SnapshotWriter(self.writer, self.display, self.a11y, self.pictures,
                                        self.observe_now, loop)
        self.input = InputPath(loop, self.writer, self.a11y, self.pictures, self.snapshots,
                               state=lambda: self.state, observe=self._decide_input,
                               recording_id=lambda: self.control.recording_id,
                               describe=self._describe,
                               excluded=lambda window: excluding_rule(self.rules.exclusions, window) is not None)
        self._bus = None  # the D-Bus service, once exported (not without a session bus)

    # -- lifecycle ------------------------------------------------------------------
    async def start(self, *, control_bus: bool) -> None:
        now = now_ms()
        paused = self._stored_pause_state()
        self.writer.submit(SetMeta("capture_started_ms", str(now)))
        self.observe_now(Started(now, paused))
        self.a11y.start()
        if self.a11y.status not in ("ok", "disabled"):
            log.warning("accessibility unavailable: %s", self.a11y.last_error)
        self.observe_now(AccessibilityBus(now_ms(), self.a11y.status))
        self.display.connect()
        if control_bus:
            await self._start_control_bus()

    async def tick(self) -> None:
        now = now_ms()
        if not self.display.tick():
            return
        self.input.tick(now)
        await self.observe(Tick(now))

    async def close(self) -> None:
        self.input.drain()
        await self.input.flush()
        now = now_ms()
        self.control.end_recording(now)
        self.blind.close_all(now)
        if self._bus is not None:
            await self._bus.stop()
        self.display.close()
        self.a11y.stop()
        self.writer.close()
        log.info("capture stopped; store flushed")

    # -- the rules and their operations ----------------------------------------------------
    def _decide(self, observation: Observation) -> tuple[Operation, ...]:
        self.state, operations = decide(self.state, observation, self.rules)
        return operations

    def _decide_input(self, observation: Observation) -> tuple[Operation, ...]:
        """Input is handled synchronously, in batches: a snapshot the rules
        ask for (of a window that got input before it had one) takes its id
        now and is written in the background; counting is the caller's."""
        operations = self._decide(observation)
        for op in operations:
            if isinstance(op, WriteSnapshot):
                snapshot_id = self.snapshots.reserve(op)
                self.input.counts.track(asyncio.ensure_future(self.snapshots.write(op, snapshot_id)))
            elif not isinstance(op, CountInput):
                self._perform(op)
        return operations

    def _describe(self, window_id: int) -> WindowInfo | None:
        windows = self.display.windows
        if windows is None:
            return None
        try:
            return windows.describe(window_id)
        except DisplayLost:
            return None

    async def observe(self, observation: Observation) -> None:
        for op in self._decide(observation):
            if isinstance(op, WriteSnapshot):
                await self.snapshots.write(op)
            else:
                self._perform(op)

    def observe_now(self, observation: Observation) -> None:
        """For observations whose rules never ask for a snapshot."""
        for op in self._decide(observation):
            self._perform(op)

    def _perform(self, op: Operation) -> None:
        match op:
            case OpenBlindSpot(kind, reason, at_ms):
                self.blind.open(kind, reason, at_ms)
            case CloseBlindSpot(kind, at_ms):
                self.blind.close(kind, at_ms)
            case CloseBursts(window):
                self.input.close_bursts(window)
            case PointAccessibility(window):
                self.a11y.set_target(window)
            case WatchTitle(window_id):
                if self.display.windows is not None:
                    self.display.windows.watch_title(window_id)
            case PauseChanged(paused):
                self.writer.submit(SetMeta("paused", "1" if paused else "0"))
                self.pause_listeners.notify(paused)
            case _:
                raise TypeError(f"{op!r} cannot be performed here")

    def _display_up(self, monitors: tuple[Monitor, ...]) -> None:
        self.observe_now(DisplayBack(now_ms(), monitors))

    def _display_down(self, reason: str) -> None:
        log.warning("display lost: %s", reason)
        self.observe_now(DisplayGone(now_ms()))

    def source_error(self, what: str, exc: Exception) -> None:
        log.warning("%s failed: %s", what, exc)
        self.observe_now(SourceFailed(now_ms(), what))

    def _deliver_input(self, raw: object) -> None:
        self.input.deliver(raw)

    def _stored_pause_state(self) -> bool:
        try:
            connection = open_readonly(self.daemon.db_path)
            try:
                row = connection.execute("SELECT value FROM meta WHERE key = 'paused'").fetchone()
            finally:
                connection.close()
        except Exception:  # noqa: BLE001 - a fresh store has no pause state
            return False
        return bool(row and row[0] == "1")

    async def _start_control_bus(self) -> None:
        if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
            log.info("no session bus: pause/resume/record over D-Bus are unavailable")
            return
        try:
            from .dbus_service import CaptureBusService

            service = CaptureBusService(self.control, self.pause_listeners.subscribe)
            await service.start()
            self._bus = service
        except Exception as exc:  # noqa: BLE001 - capture runs without its control channel
            log.warning("could not export org.phantom.Capture1: %s", exc)


def _log_thread_death(args: threading.ExceptHookArgs) -> None:
    """Listener threads die with the X connection they hold; the tick loop
    restarts them. Say so in one line instead of printing a traceback."""
    name = args.thread.name if args.thread is not None else "?"
    log.warning("thread %s stopped: %s: %s", name, args.exc_type.__name__, args.exc_value)
