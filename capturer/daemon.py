"""The capture daemon: the loop that owns threads, timing and the writer.

Sources are small and each may fail alone: the X11 source (focus, titles,
monitors), the screen source (thumbnails, click crops), the input listener
(pynput threads) and the accessibility worker (its own GLib thread). The
daemon runs on one asyncio loop that polls focus, ticks once a second
(heartbeats, idle, bursts, watchdog, reconnects) and receives input events
from the listener threads. Anything that goes wrong in a source becomes a
blind-spot row and a retry with back-off — never an exit.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import os
import signal
import threading
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from pathlib import Path

from .blind_spots import BlindSpots
from .count_writer import CountWriter
from core.clock import now_ms, zone_at
from .config import Config
from .control import CaptureControlError, PauseListeners, check_recording_name
from .input_counts import TEXT_GAP_MS, InputCount, InputCounter
from .notify import Notifier
from .privacy import WindowIdentity, first_matching_rule
from core.store import BlobRow, InputEventRow, RecordingRow, SetEnd, SetMeta, SnapshotRow, StoreWriter
from core.store.connection import open_readonly
from .sources.a11y import A11yContext, AccessibilityWorker, HitResult
from .sources.input_listener import InputListener, RawClick, RawKey, RawScroll
from .sources.x11 import DisplayLost, Monitor, WindowInfo, X11Source

log = logging.getLogger(__name__)

A11Y_CONTEXT_BUDGET_S = 0.08
# Open bursts are written (and rewritten) this often, so a crash loses at
# most this long of input counts plus the writer's commit delay.
CHECKPOINT_INTERVAL_S = 0.5
INPUT_BATCH_S = 0.1
REDACT_CACHE_S = 2.0
HIT_TEST_BUDGET_S = 0.5
RECONNECT_BACKOFF_S = (0.5, 1, 2, 4, 8, 15, 30)
IDLE_HEARTBEAT_FACTOR = 5


@dataclass
class _MonitorState:
    window: WindowInfo | None = None
    last_snapshot_ms: int = 0
    last_thumbnail_ms: int = 0


@dataclass
class _Counters:
    snapshots: int = 0
    clicks: int = 0


@dataclass
class _Recording:
    id: int
    name: str
    start_ms: int


@dataclass
class _State:
    focus: WindowInfo | None = None
    focus_excluded_by: str | None = None
    paused: bool = False
    idle: bool = False
    last_input_ms: int = 0
    recording: _Recording | None = None
    monitors: tuple[Monitor, ...] = ()
    per_monitor: dict[int, _MonitorState] = field(default_factory=dict)


class CaptureDaemon:
    """Run with `asyncio.run(daemon.run())`; stop with `request_stop()`."""

    def __init__(self, db_path: Path, config: Config, *, display: str | None = None,
                 notifier: Notifier | None = None, control_bus: bool = True) -> None:
        self.db_path = Path(db_path)
        self.config = config
        self.display = display if display is not None else os.environ.get("DISPLAY", "")
        self.notifier = notifier or Notifier()
        self.control_bus = control_bus
        self.started_ms = now_ms()
        self.state = _State()
        self.counters = _Counters()
        self.writer: StoreWriter | None = None
        self.blind: BlindSpots | None = None
        self.x11: X11Source | None = None
        self.screen = None
        self.input: InputListener | None = None
        self.a11y: AccessibilityWorker | None = None
        self.counter = InputCounter()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop = asyncio.Event()
        self._reconnect_attempt = 0
        self._next_reconnect = 0.0
        self.counts: CountWriter | None = None
        self._redact_cache: tuple[float, list] | None = None
        self._pending_changes: set[str] = set()
        self._focus_task: asyncio.Task | None = None
        self._raw_inputs: collections.deque = collections.deque()
        self._drain_scheduled = False
        self._last_raw_text_ms: int | None = None
        self._checkpoint_handle: asyncio.TimerHandle | None = None
        self._last_watchdog = 0.0
        self._dbus = None
        self.pause_listeners = PauseListeners()

    # -- lifecycle ------------------------------------------------------------
    async def run(self) -> int:
        self._loop = asyncio.get_running_loop()
        threading.excepthook = _log_thread_death
        for sig in (signal.SIGTERM, signal.SIGINT):
            self._loop.add_signal_handler(sig, self.request_stop)
        self.writer = StoreWriter(self.db_path)
        self.blind = BlindSpots(self.writer)
        self.counts = CountWriter(self.writer, self._count_monitor)
        self.state.paused = self._stored_pause_state()
        now = now_ms()
        self.state.last_input_ms = now
        self.writer.submit(SetMeta("capture_started_ms", str(now)))
        if self.state.paused:
            self.blind.open("paused", "paused by the user", now)
        self._start_accessibility()
        self._connect_display()
        if self.control_bus:
            await self._start_control_bus()
        self.notifier.ready(self.summary_line())
        log.info("capturing into %s", self.db_path)
        try:
            await asyncio.gather(self._focus_loop(), self._tick_loop())
        finally:
            await self._shutdown()
        return 0

    def request_stop(self) -> None:
        self._stop.set()

    async def _shutdown(self) -> None:
        self.notifier.stopping()
        self._drain_inputs()
        self._write_counts(self.counter.close())
        await self.counts.drain()
        now = now_ms()
        if self.state.recording is not None:
            self._end_recording(now)
        self.blind.close_all(now)
        if self._dbus is not None:
            await self._dbus.stop()
        if self.input is not None:
            self.input.stop()
        if self.a11y is not None:
            self.a11y.stop()
        if self.screen is not None:
            self.screen.close()
        self._forget_x11()
        self.writer.close()
        log.info("capture stopped; store flushed")

    # -- loops ------------------------------------------------------------------
    async def _focus_loop(self) -> None:
        """The safety net under the X events: look at focus every
        `focus_poll_ms` even if no event said to. Events do the real work —
        on this class of machine every wakeup of the loop costs a third of a
        millisecond, so a fast poll alone would cost more than capture itself."""
        interval = self.config.capture.focus_poll_ms / 1000
        while not self._stop.is_set():
            await self._sleep_unless_stopped(interval)
            self._request_focus_check({"poll"})

    def _on_x_readable(self) -> None:
        """The X connection has data: read it and react to what it says."""
        if self.x11 is None:
            return
        try:
            changes = self.x11.drain_events()
        except DisplayLost as exc:
            self._display_lost(str(exc))
            return
        if changes:
            self._request_focus_check(changes)

    def _request_focus_check(self, changes: set[str]) -> None:
        """Coalesce checks: one task at a time works through what piled up."""
        if self.x11 is None or self.state.paused:
            return
        self._pending_changes |= changes
        if self._focus_task is None or self._focus_task.done():
            self._focus_task = asyncio.ensure_future(self._check_focus())

    async def _check_focus(self) -> None:
        while self._pending_changes and self.x11 is not None and not self.state.paused:
            changes, self._pending_changes = self._pending_changes, set()
            try:
                change = self._focus_change(changes)
                if change is not None:
                    await self._apply_focus_change(*change)
                if self.x11 is not None:
                    # Requests above may have queued events without the
                    # socket becoming readable again.
                    self._pending_changes |= self.x11.drain_events()
                    self._pending_changes.discard("poll")
            except DisplayLost as exc:
                self._display_lost(str(exc))
            except Exception:  # noqa: BLE001 - one bad check must not end capture
                log.exception("focus check failed")

    async def _tick_loop(self) -> None:
        while not self._stop.is_set():
            try:
                await self._tick()
            except DisplayLost as exc:
                self._display_lost(str(exc))
            except Exception:  # noqa: BLE001 - one bad tick must not end capture
                log.exception("capture tick failed")
            await self._sleep_unless_stopped(1.0)

    async def _sleep_unless_stopped(self, seconds: float) -> None:
        try:
            await asyncio.wait_for(self._stop.wait(), seconds)
        except asyncio.TimeoutError:
            pass

    async def _tick(self) -> None:
        now = now_ms()
        self._send_watchdog()
        if self.x11 is None:
            self._maybe_reconnect()
            return
        if self.input is not None and not self.input.alive():
            # The listeners die with the display connection they hold.
            self._restart_input()
        self.counter.tick(now)
        self._write_counts(self.counter.emit())
        if self.state.paused:
            return
        idle = now - self.state.last_input_ms >= self.config.capture.idle_after_seconds * 1000
        if idle != self.state.idle:
            self.state.idle = idle
            if self.state.focus is not None and self.state.focus_excluded_by is None:
                await self._snapshot(self.state.focus, "idle" if idle else "active")
        await self._heartbeats(now)

    def _focus_change(self, changes: set[str]) -> tuple[str, int | None, WindowInfo | None] | None:
        """('focus', window id, None) when another window has focus,
        ('title', id, info) when the focused window's title changed, else None."""
        window_id = self.x11.focused_window_id()
        current = self.state.focus
        if window_id != (current.window_id if current else None):
            return "focus", window_id, None
        if current is not None and "title" in changes:
            info = self.x11.describe(current.window_id)
            if info is not None and info.title != current.title:
                return "title", current.window_id, info
        return None

    async def _apply_focus_change(self, kind: str, window_id: int | None,
                                  info: WindowInfo | None) -> None:
        if kind == "focus":
            await self._focus_changed(window_id)
        else:
            await self._window_updated(info, "title")

    async def _heartbeats(self, now: int) -> None:
        period = self.config.capture.heartbeat_seconds * 1000
        if self.state.idle:
            period *= IDLE_HEARTBEAT_FACTOR
        for index, monitor_state in sorted(self.state.per_monitor.items()):
            window = monitor_state.window
            if window is None or now - monitor_state.last_snapshot_ms < period:
                continue
            focused = self.state.focus is not None and window.window_id == self.state.focus.window_id
            if focused and self.state.focus_excluded_by is not None:
                continue
            if not focused and not self.x11.window_alive(window.window_id):
                monitor_state.window = None
                continue
            await self._snapshot(window, "heartbeat", focused=focused)

    # -- focus and snapshots ---------------------------------------------------------
    async def _focus_changed(self, window_id: int | None) -> None:
        self._write_counts(self._close_bursts())
        now = now_ms()
        info = self.x11.describe(window_id) if window_id else None
        self.x11.watch_title(info.window_id if info else None)
        self.blind.close("no_accessibility", now)
        if info is None:
            self._set_focus(None, None, now)
            return
        await self._window_updated(info, "focus")

    async def _window_updated(self, info: WindowInfo, trigger: str) -> None:
        now = now_ms()
        rule = first_matching_rule(self.config.exclusions, WindowIdentity(
            info.app, info.wm_class, info.title, info.executable or ""))
        self._set_focus(info, rule.name if rule else None, now)
        if rule is None:
            await self._snapshot(info, trigger)

    def _set_focus(self, info: WindowInfo | None, excluded_by: str | None, now: int) -> None:
        self.state.focus = info
        self.state.focus_excluded_by = excluded_by
        if excluded_by is not None:
            self._write_counts(self._close_bursts())
            self.blind.open("excluded", excluded_by, now)
        else:
            self.blind.close("excluded", now)
        if self.a11y is not None:
            self.a11y.set_target(info if excluded_by is None and not self.state.paused else None)

    async def _snapshot(self, window: WindowInfo, trigger: str, *, focused: bool = True) -> None:
        monitor = self._monitor_of(*window.center)
        context = await self._a11y_context(window) if focused else A11yContext("disabled")
        now = now_ms()
        monitor_state = self.state.per_monitor.setdefault(monitor.index, _MonitorState())
        if focused and context.status in ("no_app", "hung", "unavailable"):
            self.blind.open("no_accessibility", context.status, now)
        elif focused and context.status == "ok":
            self.blind.close("no_accessibility", now)
        screenshot = self._maybe_thumbnail(monitor, monitor_state, now, trigger)
        offset, zone = zone_at(now)
        row = SnapshotRow(
            id=self.writer.ids.next("snapshots"), ts_ms=now, utc_offset_min=offset, tz_name=zone,
            monitor=monitor.index, trigger=trigger, app=window.app, wm_class=window.wm_class,
            pid=window.pid, executable=window.executable, title=window.title, url=context.url,
            idle=int(self.state.idle), focused=int(focused), screenshot=screenshot,
            tree_id=context.tree_id)
        self.writer.submit(row, urgent=trigger in ("focus", "title"))
        self.counters.snapshots += 1
        monitor_state.window = window
        monitor_state.last_snapshot_ms = now

    async def _a11y_context(self, window: WindowInfo) -> A11yContext:
        if self.a11y is None:
            return A11yContext("disabled")
        future = self.a11y.context(window)
        context = await self._await_future(future, A11Y_CONTEXT_BUDGET_S, None)
        if context is not None:
            return context
        # Too slow for this snapshot; if the late answer says the app is hung
        # or inaccessible while it still has focus, that is a blind spot.
        def late(done: Future) -> None:
            result = done.result() if not done.cancelled() else None
            if (result is not None and result.status in ("no_app", "hung", "unavailable")
                    and self.state.focus is not None
                    and self.state.focus.window_id == window.window_id):
                self.blind.open("no_accessibility", result.status, now_ms())
        future.add_done_callback(lambda done: self._loop.call_soon_threadsafe(late, done))
        return A11yContext("slow")

    async def _await_future(self, future: Future, budget: float, fallback):
        """Wait up to `budget` for the worker's answer. Shielded: giving up
        waiting must not cancel the request, whose late answer may matter."""
        try:
            return await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)), budget)
        except Exception:  # noqa: BLE001 - the answer arrives late (a timeout) or never
            return fallback

    def _maybe_thumbnail(self, monitor: Monitor, state: _MonitorState, now: int,
                         trigger: str) -> str | None:
        settings = self.config.capture
        if not settings.screenshots or self.screen is None:
            return None
        due = now - state.last_thumbnail_ms >= settings.screenshot_interval_seconds * 1000
        if not due:
            return None
        try:
            image = self.screen.thumbnail(monitor, self._excluded_rects())
        except DisplayLost:
            raise
        except Exception as exc:  # noqa: BLE001 - a failed grab costs one thumbnail, not capture
            self._source_error("screenshot", exc)
            return None
        state.last_thumbnail_ms = now
        if image is None:
            return None
        self.writer.submit(BlobRow(image.sha256, image.kind, image.media_type, image.width,
                                   image.height, image.data, now))
        return image.sha256

    # -- input -------------------------------------------------------------------------
    def deliver_input(self, raw: object) -> None:
        """Called from the listener threads. Keys and scrolls are queued and
        handled in batches at most `INPUT_BATCH_S` later (they carry their own
        timestamps); a click wakes the loop at once, because its hit test
        must see the screen as it was clicked."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        if isinstance(raw, RawKey):
            raw = self._ask_field_early(raw)
        else:
            self._last_raw_text_ms = None
        self._raw_inputs.append(raw)
        if isinstance(raw, RawClick):
            loop.call_soon_threadsafe(self._drain_inputs)
        elif not self._drain_scheduled:
            self._drain_scheduled = True
            loop.call_soon_threadsafe(loop.call_later, INPUT_BATCH_S, self._drain_inputs)

    def _ask_field_early(self, raw: RawKey) -> RawKey:
        """On a key that may start a text burst, ask which field has focus
        now (from this listener thread; the worker call is thread-safe), not
        when the batch is handled: by then a Tab typed right after could
        already have moved focus to the next field."""
        if not raw.printable:
            self._last_raw_text_ms = None
            return raw
        last = self._last_raw_text_ms
        self._last_raw_text_ms = raw.ts_ms
        focus, worker = self.state.focus, self.a11y
        if (last is not None and raw.ts_ms - last <= TEXT_GAP_MS) or focus is None or worker is None:
            return raw
        return replace(raw, field_query=worker.focused_field(focus))

    def _drain_inputs(self) -> None:
        self._drain_scheduled = False
        while self._raw_inputs:
            try:
                self._on_input(self._raw_inputs.popleft())
            except Exception:  # noqa: BLE001 - one odd event must not stop the rest
                log.exception("input event failed")
        if self.counter.open_counts() and self._checkpoint_handle is None:
            self._checkpoint_handle = self._loop.call_later(CHECKPOINT_INTERVAL_S,
                                                            self._checkpoint_timer)

    def _checkpoint_timer(self) -> None:
        self._checkpoint_handle = None
        self._checkpoint_open_counts()
        if self.counter.open_counts():
            self._checkpoint_handle = self._loop.call_later(CHECKPOINT_INTERVAL_S,
                                                            self._checkpoint_timer)

    def _on_input(self, raw: object) -> None:
        self.state.last_input_ms = raw.ts_ms
        if not self._capturing_input():
            return
        if isinstance(raw, RawKey):
            started = self.counter.key(raw.ts_ms, name=raw.name, char=raw.char,
                                       modifiers=raw.modifiers,
                                       keep_text=self.state.recording is not None)
            if started is not None and self.a11y is not None:
                # Which field is this burst going into? Asked once per burst.
                self.counts.expect_field(started, raw.field_query
                                         or self.a11y.focused_field(self.state.focus))
        elif isinstance(raw, RawScroll):
            self.counter.scroll(raw.ts_ms, raw.x, raw.y, raw.steps)
        elif isinstance(raw, RawClick):
            self.counter.click(raw.ts_ms)
            self.counts.track(asyncio.ensure_future(self._store_click(raw, self.state.focus)))
        self._write_counts(self.counter.emit())

    def _capturing_input(self) -> bool:
        return (not self.state.paused and self.x11 is not None and self.state.focus is not None
                and self.state.focus_excluded_by is None)

    async def _store_click(self, raw: RawClick, window: WindowInfo) -> None:
        monitor = self._monitor_of(raw.x, raw.y)
        crop = None
        if self.config.capture.click_crops and self.screen is not None:
            try:
                image = self.screen.click_crop(raw.x, raw.y, monitor, self._excluded_rects())
                self.writer.submit(BlobRow(image.sha256, image.kind, image.media_type,
                                           image.width, image.height, image.data, raw.ts_ms))
                crop = image.sha256
            except Exception as exc:  # noqa: BLE001
                self._source_error("click crop", exc)
        hit = HitResult(None, "none")
        if self.a11y is not None:
            hit = await self._await_future(self.a11y.hit_test(window, raw.x, raw.y),
                                           HIT_TEST_BUDGET_S, hit)
        recording = self.state.recording
        self.writer.submit(InputEventRow(
            id=self.writer.ids.next("input_events"), ts_ms=raw.ts_ms, end_ms=raw.ts_ms,
            monitor=monitor.index, kind="click", count=1, button=raw.button, x=raw.x, y=raw.y,
            element_id=hit.element_id, resolution=hit.resolution, crop=crop,
            recording_id=recording.id if recording else None))
        self.counters.clicks += 1

    def _close_bursts(self) -> list[InputCount]:
        self.counter.focus_changed()
        return self.counter.emit()

    def _write_counts(self, counts: list[InputCount]) -> None:
        recording = self.state.recording  # as it was when the input happened
        self.counts.write(counts, recording.id if recording else None)

    def _checkpoint_open_counts(self) -> None:
        recording = self.state.recording
        self.counts.checkpoint(self.counter.open_counts(), recording.id if recording else None)

    def _count_monitor(self, count: InputCount) -> int:
        if count.x is not None:
            return self._monitor_of(count.x, count.y).index
        if self.state.focus is not None:
            return self._monitor_of(*self.state.focus.center).index
        return 0

    # -- control (D-Bus and tests) --------------------------------------------------------
    def pause(self) -> bool:
        if self.state.paused:
            return False
        now = now_ms()
        self._write_counts(self.counter.close())
        self.state.paused = True
        if self.a11y is not None:
            self.a11y.set_target(None)
        self.blind.close("excluded", now)
        self.blind.close("no_accessibility", now)
        self.blind.open("paused", "paused by the user", now)
        self.writer.submit(SetMeta("paused", "1"))
        self.state.focus = None
        self._paused_changed()
        return True

    async def resume(self) -> bool:
        """Capture again, starting with a fresh snapshot of whatever has focus
        now, before the caller hears back (so input right after is counted)."""
        if not self.state.paused:
            return False
        self.state.paused = False
        self.blind.close("paused", now_ms())
        self.writer.submit(SetMeta("paused", "0"))
        self._paused_changed()
        if self.x11 is not None:
            try:
                window_id = self.x11.focused_window_id()
                info = self.x11.describe(window_id) if window_id else None
                self.x11.watch_title(info.window_id if info else None)
                if info is not None:
                    await self._window_updated(info, "resume")
            except DisplayLost as exc:
                self._display_lost(str(exc))
        return True

    def start_recording(self, name: str) -> int:
        name = check_recording_name(name)
        if self.state.recording is not None:
            raise CaptureControlError(f"already recording {self.state.recording.name!r}; stop it first",
                                      code="already_recording")
        if self.state.paused:
            raise CaptureControlError("capture is paused; resume before recording", code="paused")
        self._write_counts(self._close_bursts())
        now = now_ms()
        recording = _Recording(self.writer.ids.next("recordings"), name, now)
        self.writer.submit(RecordingRow(recording.id, name, now, None))
        self.state.recording = recording
        self.writer.flush()
        return recording.id

    async def stop_recording(self) -> tuple[int, str]:
        recording = self.state.recording
        if recording is None:
            raise CaptureControlError("no recording is in progress", code="not_recording")
        self._write_counts(self.counter.close())
        await self.counts.drain()
        self._end_recording(now_ms())
        await asyncio.get_running_loop().run_in_executor(None, self.writer.flush)
        return recording.id, recording.name

    def _end_recording(self, now: int) -> None:
        recording = self.state.recording
        self.state.recording = None
        if recording is not None:
            self.writer.submit(SetEnd("recordings", recording.id, now))

    def status(self) -> dict:
        focus = self.state.focus
        if self.state.paused:
            state = "paused"
        elif self.x11 is None:
            state = "display_lost"
        elif self.state.focus_excluded_by is not None:
            state = "excluded"
        else:
            state = "idle" if self.state.idle else "capturing"
        try:
            size = sum(os.path.getsize(str(self.db_path) + s) for s in ("", "-wal")
                       if os.path.exists(str(self.db_path) + s))
        except OSError:
            size = 0
        stats = self.writer.stats() if self.writer else None
        return {
            "state": state,
            "since_ms": self.started_ms,
            "pid": os.getpid(),
            "display": self.display,
            "db": str(self.db_path),
            "db_bytes": size,
            "focused_app": focus.app if focus and not self.state.focus_excluded_by else None,
            "excluded_by": self.state.focus_excluded_by,
            "recording": self.state.recording.name if self.state.recording else None,
            "accessibility": self.a11y.status if self.a11y else "disabled",
            "snapshots": self.counters.snapshots,
            "input_events": self.counts.rows_written + self.counters.clicks,
            "blind_spots_open": self.blind.open_kinds() if self.blind else [],
            "writer_errors": stats.last_error if stats else None,
            "monitors": len(self.state.monitors),
        }

    def summary_line(self) -> str:
        status = self.status()
        return f"{status['state']}: {status['snapshots']} snapshots, {status['input_events']} input rows"

    @property
    def paused(self) -> bool:
        return self.state.paused

    @property
    def recording_name(self) -> str | None:
        return self.state.recording.name if self.state.recording else None

    def _paused_changed(self) -> None:
        self.pause_listeners.notify(self.state.paused)

    def _stored_pause_state(self) -> bool:
        try:
            connection = open_readonly(self.db_path)
            try:
                row = connection.execute("SELECT value FROM meta WHERE key = 'paused'").fetchone()
            finally:
                connection.close()
        except Exception:  # noqa: BLE001 - a fresh store has no pause state
            return False
        return bool(row and row[0] == "1")

    # -- sources: start, failure, reconnect ------------------------------------------------
    def _start_accessibility(self) -> None:
        worker = AccessibilityWorker(self.writer, self.config.accessibility, self.config.browsers)
        worker.start()
        self.a11y = worker
        if worker.status not in ("ok", "disabled"):
            log.warning("accessibility unavailable: %s", worker.last_error)
            self.blind.open("no_accessibility", "accessibility bus unavailable", now_ms())

    def _connect_display(self) -> bool:
        try:
            self.x11 = X11Source(self.display)
            self.state.monitors = self.x11.monitors()
        except DisplayLost as exc:
            self.x11 = None
            self._display_lost(str(exc))
            return False
        self._loop.add_reader(self.x11.fileno(), self._on_x_readable)
        try:
            from .sources.screen import ScreenSource

            self.screen = ScreenSource(self.display,
                                       thumbnail_width=self.config.capture.thumbnail_width,
                                       crop_size=self.config.capture.click_crop_size)
        except Exception as exc:  # noqa: BLE001 - capture goes on without pictures
            self.screen = None
            self._source_error("screen", exc)
        self._restart_input()
        self.state.focus = None
        self._reconnect_attempt = 0
        self.blind.close("display_lost", now_ms())
        return True

    def _restart_input(self) -> None:
        if self.input is not None:
            self.input.stop()
        listener = InputListener(self.deliver_input)
        try:
            listener.start()
            self.input = listener
        except Exception as exc:  # noqa: BLE001 - no input counts, but windows still captured
            self.input = None
            self._source_error("input listener", exc)

    def _display_lost(self, reason: str) -> None:
        if self.x11 is None and self.blind.is_open("display_lost"):
            return
        log.warning("display lost: %s", reason)
        now = now_ms()
        self._write_counts(self.counter.close())
        if self.input is not None:
            self.input.stop()
        self._forget_x11()
        if self.screen is not None:
            self.screen.close()
        self.input = self.screen = None
        if self.a11y is not None:
            self.a11y.set_target(None)
        self.state.focus = None
        self.blind.close("excluded", now)
        self.blind.close("no_accessibility", now)
        self.blind.open("display_lost", "X server unreachable", now)
        self._schedule_reconnect()

    def _forget_x11(self) -> None:
        if self.x11 is not None:
            try:
                self._loop.remove_reader(self.x11.fileno())
            except (ValueError, OSError):
                pass
            self.x11.close()
            self.x11 = None

    def _schedule_reconnect(self) -> None:
        delay = RECONNECT_BACKOFF_S[min(self._reconnect_attempt, len(RECONNECT_BACKOFF_S) - 1)]
        self._reconnect_attempt += 1
        self._next_reconnect = self._loop.time() + delay

    def _maybe_reconnect(self) -> None:
        if self._loop.time() < self._next_reconnect:
            return
        if not self._connect_display():
            self._schedule_reconnect()
        else:
            log.info("display %s is back", self.display)

    def _source_error(self, what: str, exc: Exception) -> None:
        log.warning("%s failed: %s", what, exc)
        now = now_ms()
        self.blind.open("capture_error", f"{what} failed", now)
        # A one-off failure is an instant, not a stretch.
        self.blind.close("capture_error", now)

    def _excluded_rects(self) -> list[tuple[int, int, int, int]]:
        """Rectangles of visible excluded windows, cached briefly: pictures
        must not show what the exclusion rules hide."""
        now = self._loop.time()
        cached = self._redact_cache
        if cached is not None and now - cached[0] < REDACT_CACHE_S:
            return cached[1]
        rects = []
        if self.x11 is not None:
            for window in self.x11.visible_windows():
                if first_matching_rule(self.config.exclusions, WindowIdentity(
                        window.app, window.wm_class, window.title, window.executable or "")):
                    rects.append((window.x, window.y, window.width, window.height))
        self._redact_cache = (now, rects)
        return rects

    def _monitor_of(self, x: int, y: int) -> Monitor:
        for monitor in self.state.monitors:
            if monitor.contains(x, y):
                return monitor
        return self.state.monitors[0] if self.state.monitors else Monitor(0, "screen", 0, 0, 1, 1, True)

    def _send_watchdog(self) -> None:
        interval = self.notifier.watchdog_interval
        if interval is None:
            return
        now = self._loop.time()
        if now - self._last_watchdog >= min(interval, 1.0) or self._last_watchdog == 0:
            self.notifier.watchdog()
            self._last_watchdog = now

    async def _start_control_bus(self) -> None:
        if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
            log.info("no session bus: pause/resume/record over D-Bus are unavailable")
            return
        try:
            from .dbus_service import CaptureBusService

            service = CaptureBusService(self, self.pause_listeners.subscribe)
            await service.start()
            self._dbus = service
        except Exception as exc:  # noqa: BLE001 - capture runs without its control channel
            log.warning("could not export org.phantom.Capture1: %s", exc)


def _log_thread_death(args: threading.ExceptHookArgs) -> None:
    """Listener threads die with the X connection they hold; the tick loop
    restarts them. Say so in one line instead of printing a traceback."""
    name = args.thread.name if args.thread is not None else "?"
    log.warning("thread %s stopped: %s: %s", name, args.exc_type.__name__, args.exc_value)
