"""The capture daemon: the loop that owns threads, timing and the writer.

A run is one `CaptureSession`: the store writer, the blind spots, the rules'
state (`capturer.decide`) and the parts that act for them — the display
supervisor (windows, screen, input listeners; reconnects with back-off), the
accessibility worker (its own GLib thread), the focus watch, the snapshot
writer and the input path. What the session sees becomes an observation; the
rules return the new state and the operations the session performs. One
asyncio loop polls focus under the display's events, ticks once a second
(heartbeats, idle, bursts, watchdog, reconnects) and receives input from the
listener threads. A failing source becomes a blind spot and a retry, never an exit.

A run first settles what the run before it left open (`handover`), and ends
with everything flushed — saying so only when true (a full disk: an error
line, a non-zero exit). It may end to re-execute the daemon (`request_reexec`):
libatspi cannot be initialised twice in one process, so a returning
accessibility bus is joined by a fresh process that carries on the pause and
the recording in progress.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import threading
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from core.clock import now_ms
from core.store import RecordingRow, SetEnd, SetMeta, StoreWriter
from core.store.crash import ALIVE_KEY, RESUME_BLIND_SPOTS_KEY, RESUME_RECORDING_KEY, STARTED_KEY, STOPPED_KEY
from core.store.forget import ForgetReport

from .accessibility_keeper import AccessibilityKeeper
from .blind_spots import BlindSpots
from .config import Config
from .control import PauseListeners
from .controller import Controller, SessionFigures
from .decide import (
    CaptureState,
    ClockJumped,
    CloseBlindSpot,
    CloseBursts,
    CountInput,
    DisplayBack,
    DisplayGone,
    IdleReported,
    Observation,
    OpenBlindSpot,
    Operation,
    PauseChanged,
    PointAccessibility,
    Rules,
    SourceFailed,
    Started,
    Tick,
    WatchHung,
    WatchTitle,
    WriteSnapshot,
    decide,
)
from .focus_watch import FocusWatch
from .forget import forget_on_writer
from .handover import take_over
from .input_path import InputPath
from .notify import Notifier
from .pictures import Pictures
from .privacy import excluding_rule
from .snapshots import SnapshotWriter
from .sources import Sources
from .sources.base import DisplayLost, Monitor, WindowInfo
from .sources.input_listener import RawInput
from .supervisor import DisplaySupervisor
from .time_truth import NOT_RUNNING, STOPPED_REASON, Reading, Ticks, boot_ms, gap_after_ms

if TYPE_CHECKING:
    from .dbus_service import CaptureBusService

log = logging.getLogger(__name__)

EXIT_UNSAVED = 1   # the run ended with writes the store did not take
# Blind spots a re-executing run hands over to the next (the pause goes on).
CARRIED_KINDS = ("paused",)
# While the display is down, X is asked whether it answers this often.
DISPLAY_PROBE_S = 0.25


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
        self.reexec_reason: str | None = None   # why run() ended to re-execute the daemon
        self._stop = asyncio.Event()
        self._last_watchdog = 0.0

    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        threading.excepthook = _log_thread_death
        if threading.current_thread() is threading.main_thread():   # a loop on another thread cannot
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(sig, self.request_stop)
        session = self.session = CaptureSession(self, loop)
        await session.start(control_bus=self.control_bus)
        self.notifier.ready(session.control.summary_line())
        log.info("capturing into %s", self.db_path)
        saved = False
        try:
            await asyncio.gather(self._focus_loop(session), self._tick_loop(session, loop))
        finally:
            if self.reexec_reason is not None:
                self.notifier.send("RELOADING=1", f"STATUS=re-executing: {self.reexec_reason}")
            else:
                self.notifier.stopping()
            saved = await session.close(carry_on=self.reexec_reason is not None)
            self.session = None
        if not saved:
            self.reexec_reason = None
            return EXIT_UNSAVED
        return 0

    def request_stop(self) -> None:
        self._stop.set()

    def request_reexec(self, reason: str) -> None:
        """End this run so that the caller re-executes the daemon."""
        log.warning("re-executing the capture daemon: %s", reason)
        self.reexec_reason = reason
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
            # While X is gone, ticks come faster: each asks whether it answers.
            await self._sleep_unless_stopped(1.0 if session.display.up else DISPLAY_PROBE_S)

    async def _sleep_unless_stopped(self, seconds: float) -> None:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._stop.wait(), seconds)

    def _send_watchdog(self, now: float) -> None:
        interval = self.notifier.watchdog_interval
        if interval is None:
            return
        if now - self._last_watchdog >= min(interval, 1.0) or self._last_watchdog == 0:
            self.notifier.watchdog()
            self._last_watchdog = now


class CaptureSession:
    """One run: made by `CaptureDaemon.run()`, closed when it ends; its
    `control` is what the D-Bus service is handed. The session is the
    `RunningSession` its controller asks (`capturer.controller`)."""

    def __init__(self, daemon: CaptureDaemon, loop: asyncio.AbstractEventLoop) -> None:
        config = daemon.config
        self.daemon = daemon
        self.rules = replace(Rules.from_config(config),
                             display_lost_reason=f"{daemon.sources.display_kind} unreachable")
        self.state = CaptureState()
        self.control = Controller(self)
        self.pause_listeners = PauseListeners()
        self.writer = StoreWriter(daemon.db_path)
        self.blind = BlindSpots(self.writer)
        self.a11y = daemon.sources.accessibility(self.writer, config)
        self.accessibility = AccessibilityKeeper(
            self.a11y, daemon.sources.accessibility_bus, daemon.display, config, loop,
            observe=self.observe_now, state=lambda: self.state, reexec=daemon.request_reexec)
        self._loop = loop
        self.display = DisplaySupervisor(
            daemon.display, config, daemon.sources, deliver_input=self._deliver_input,
            on_up=self._display_up, on_down=self._display_down, on_source_error=self.source_error,
            watch=lambda fd: loop.add_reader(fd, self.focus.readable), unwatch=loop.remove_reader,
            clock=loop.time, on_idle=self._idle_reported)
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
        self._bus: CaptureBusService | None = None  # once exported (not without a session bus)
        self.ticks = Ticks(gap_after_ms(int(self.rules.heartbeat_ms)))

    # -- lifecycle ------------------------------------------------------------------
    async def start(self, *, control_bus: bool) -> None:
        now = now_ms()
        previous = take_over(self.daemon.db_path, self.writer, now)
        if previous.recording is not None:
            self.control.adopt_recording(previous.recording)
        for spot in previous.blind_spots:
            self.blind.adopt(spot.id, spot.kind, spot.reason, spot.monitor)
        self.writer.submit(SetMeta(STARTED_KEY, str(now)))
        self.observe_now(Started(now, previous.paused))
        for spot in previous.blind_spots:   # handed over, but no longer true (the pause ended meanwhile)
            if self.state.blind_spot(spot.kind) is None:
                self.blind.close(spot.kind, now)
        await self.accessibility.start()
        self.display.connect()
        if control_bus:
            from .dbus_service import start_control_bus  # lazy: dbus-fast only when serving

            self._bus = await start_control_bus(self.control, self.pause_listeners.subscribe)
        # What this start settled and decided (interrupted rows closed, the
        # pause carried on) is on disk before anyone is told capture runs.
        await self._loop.run_in_executor(None, self.writer.flush)

    async def tick(self) -> None:
        now = now_ms()
        # Whether the daemon did not run, or the clock was set, since the last tick (time_truth).
        if self.blind.record_all(self.ticks.next(Reading(now, boot_ms()))):
            await self.observe(ClockJumped(now))
        self.writer.submit(SetMeta(ALIVE_KEY, str(now)))   # what the next run reads after a crash
        await self.accessibility.tick()
        if not self.display.tick():
            return
        self.input.tick(now)
        await self.observe(Tick(now))

    async def close(self, *, carry_on: bool = False) -> bool:
        """End the run; True when everything it captured is in the store.
        `carry_on`: the daemon re-executes, and the next run carries on the
        recording in progress and the pause."""
        self.input.drain()
        await self.input.flush()
        now = now_ms()
        handed = self.control.hand_over_recording() if carry_on else None
        if handed is not None:
            self.writer.submit(SetMeta(RESUME_RECORDING_KEY, str(handed.id)))
        else:
            self.control.end_recording(now)
        kept = self.blind.close_all(now, keep=CARRIED_KINDS if carry_on else ())
        if carry_on:
            self.writer.submit(SetMeta(RESUME_BLIND_SPOTS_KEY, ",".join(map(str, kept))))
        else:   # open until the next start closes it: the last frame's dwell ends here
            self.blind.open(NOT_RUNNING, STOPPED_REASON, now)
        self.writer.submit(SetMeta(STOPPED_KEY, str(now)))
        if self._bus is not None:
            await self._bus.stop()
        self.display.close()
        await self.accessibility.close()
        saved = self.writer.close()
        stats = self.writer.stats()
        if saved:
            log.info("capture stopped; store flushed (%d changes this run)", stats.committed_ops)
        else:
            log.error("capture stopped, but %d changes could not be saved to %s (%s)",
                      stats.pending_ops + stats.dropped_ops, self.daemon.db_path,
                      stats.last_error or "the writer did not finish")
        return saved

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
            case WatchHung(window):
                self.accessibility.watch_hung(window)
            case PauseChanged(paused):
                self.writer.submit(SetMeta("paused", "1" if paused else "0"))
                self.pause_listeners.notify(paused)
            case _:
                raise TypeError(f"{op!r} cannot be performed here")

    # -- what the controller asks (controller.RunningSession) -------------------------------
    def focused_window(self) -> WindowInfo | None:
        return self.focus.focused_window()

    def display_lost(self, reason: str) -> None:
        self.display.lost(reason)

    def close_bursts(self, window: WindowInfo | None) -> None:
        self.input.close_bursts(window)

    async def flush_input(self) -> None:
        await self.input.flush()

    def open_recording_row(self, name: str, start_ms: int) -> int:
        self.writer.submit(RecordingRow(recording_id := self.writer.ids.next("recordings"), name, start_ms, None))
        return recording_id

    def close_recording_row(self, recording_id: int, end_ms: int) -> None:
        self.writer.submit(SetEnd("recordings", recording_id, end_ms))

    def flush(self) -> bool:
        return self.writer.flush()

    def forget_trees(self) -> Future[None]:
        return self.a11y.forget_trees()

    def forget_rows(self, since_ms: int, until_ms: int, now: int) -> Future[ForgetReport]:
        self.snapshots.forget(since_ms, min(until_ms, now))   # no later row names them
        return forget_on_writer(self.writer, since_ms, until_ms, now)

    def figures(self) -> SessionFigures:
        daemon = self.daemon
        return SessionFigures(daemon.db_path, daemon.display, daemon.started_ms, self.snapshots.written,
                              self.input.counts.rows_written + self.input.clicks, tuple(self.blind.open_kinds()),
                              self.writer.stats().last_error, self.a11y.status, self.a11y.last_error)

    def _display_up(self, monitors: tuple[Monitor, ...]) -> None:
        self.observe_now(DisplayBack(now_ms(), monitors))

    def _display_down(self, reason: str) -> None:
        log.warning("display lost: %s", reason)
        self.observe_now(DisplayGone(now_ms()))

    def source_error(self, what: str, exc: Exception) -> None:
        log.warning("%s failed: %s", what, exc)
        self.observe_now(SourceFailed(now_ms(), what))

    def _idle_reported(self, idle: bool) -> None:
        """From the idle source's thread: onto the loop, as an observation."""
        self._loop.call_soon_threadsafe(self.observe_now, IdleReported(now_ms(), idle))

    def _deliver_input(self, raw: RawInput) -> None:
        self.input.deliver(raw)


def _log_thread_death(args: threading.ExceptHookArgs) -> None:
    """A listener thread dies with its display connection (the tick loop restarts it): one line, no traceback."""
    name = args.thread.name if args.thread is not None else "?"
    log.warning("thread %s stopped: %s: %s", name, args.exc_type.__name__, args.exc_value)
