"""The accessibility worker: one thread that owns every AT-SPI call.

AT-SPI calls are synchronous D-Bus round trips and a hung application can
stall them until the call timeout, so none of them run on the daemon's loop.
This thread runs the GLib main loop that delivers AT-SPI events, keeps a
cached, bounded walk of the focused window's tree (refreshed on focus and on
children-changed events, debounced — never per keystroke), finds the focused
field once per text burst (one Collection query, not a walk), reads the
browser URL, and answers hit tests (the reads themselves: `a11y_reads.py`).
Requests come in as callables scheduled with `GLib.idle_add`; answers go back
as `concurrent.futures.Future`s the daemon waits on with a short budget.

It writes tree and element rows to the store itself (ids from the shared
allocator) so that a snapshot can reference a tree by id once it exists.

The daemon checks the bus before this worker starts (libatspi aborts the
process when its bus does not answer) and watches it while it runs; when it
goes, `lose()` stops every call into libatspi. libatspi cannot be set up a
second time in one process, so a returning bus is the daemon's to handle
(it re-executes itself). An application that leaves a call unanswered is
hung from the moment that call was made (`since_ms` of the answers) until
the daemon sees it answer again (`answered`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future
from types import ModuleType
from typing import Any, TypeVar

from core.a11y.toolkit import OriginRule, origin_for
from core.a11y.tree import WalkLimits
from core.clock import now_ms
from core.store import StoreWriter

from ..config import AccessibilitySettings
from ..input_counts import FieldRef
from .a11y_reads import TreeReads, is_timeout
from .base import A11yContext, FieldMask, HitResult, WindowInfo

log = logging.getLogger(__name__)

# PyGObject's GLib module (gi.repository.GLib, imported on the worker thread):
# PyGObject ships no type information, so the name says what is held.
GLibModule = Any
R = TypeVar("R")

FIELD_QUERY_DELAY_MS = 60
FIELD_QUERY_RETRIES = 3
_EVENTS = ("object:children-changed", "window:activate", "object:state-changed:focused")


class AccessibilityWorker:
    """See the module docstring. All public methods are thread-safe."""

    def __init__(self, writer: StoreWriter, settings: AccessibilitySettings,
                 browsers: tuple[str, ...], *, origin: OriginRule = origin_for) -> None:
        self._writer = writer
        self._origin = origin
        self._settings = settings
        self._limits = WalkLimits(settings.max_nodes, settings.max_depth, settings.walk_budget_ms)
        self._browsers = frozenset(browsers)
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self.status = "starting"
        self.last_error: str | None = None
        self._initialised = False
        # Accessibility-bus names of applications found hung, by pid: written
        # on the worker thread, read by the daemon's (a dict under the GIL).
        self._hung_names: dict[int, str] = {}
        # Written by the daemon thread, read by the worker: plain attribute
        # assignment is atomic, so no lock is needed.
        self._target: WindowInfo | None = None
        # Written by the worker, read by the daemon's pictures: replaced whole.
        self._masks: tuple[FieldMask, ...] = ()
        self._focused_mask: FieldMask | None = None
        # Worker-thread state.
        self._reads: TreeReads | None = None
        self._refresh_pending = False
        self._pyatspi: ModuleType | None = None
        self._glib: GLibModule | None = None

    # -- lifecycle ------------------------------------------------------------
    @property
    def initialised(self) -> bool:
        return self._initialised

    def start(self, timeout: float = 10.0) -> bool:
        if not self._settings.enabled:
            self.status = "disabled"
            return False
        self._ready.clear()
        self._thread = threading.Thread(target=self._run, name="phantom-a11y", daemon=True)
        self._thread.start()
        self._ready.wait(timeout)
        return self.status == "ok"

    def stop(self, timeout: float = 3.0) -> None:
        if self._thread is None or not self._thread.is_alive() or self._glib is None:
            return
        self._glib.idle_add(self._quit)
        self._thread.join(timeout)

    def lose(self, reason: str) -> None:
        """The bus is gone: answer everything at once, call nothing."""
        self.status, self.last_error = "lost", reason

    def hung_bus_name(self, pid: int | None) -> str | None:
        return self._hung_names.get(pid or -1)

    def answered(self, pid: int | None) -> None:
        """The application answers again: read it on the next request."""
        if pid and self._glib is not None and self.status == "ok":
            self._glib.idle_add(self._clear_hung, pid, priority=self._glib.PRIORITY_HIGH)

    @property
    def _tree_reads(self) -> TreeReads:
        """The worker thread's reads: set before the status turns ok, and
        every read is scheduled only while it is ok."""
        reads = self._reads
        assert reads is not None, "an accessibility read before the worker thread started"
        return reads

    def _clear_hung(self, pid: int) -> bool:
        self._tree_reads.clear_hung(pid)
        self._hung_names.pop(pid, None)
        return False

    # -- requests (any thread) ----------------------------------------------------
    def set_target(self, window: WindowInfo | None) -> None:
        """The one window the worker may read; None while paused or excluded."""
        self._target = window

    def field_masks(self) -> tuple[FieldMask, ...]:
        """Editable fields to mask in pictures (any thread; see the protocol)."""
        focused = self._focused_mask
        return self._masks + ((focused,) if focused is not None else ())

    def focused_field(self, window: WindowInfo) -> Future[FieldRef | None]:
        """The text field that has keyboard focus in this window (or None).

        Asked a moment after a burst's first key and retried briefly: the
        daemon sees a key as the X server delivers it, which can be before the
        application has moved focus for the key before it (Tab, a click)."""
        return self._submit(lambda: self._tree_reads.focused_field(window), window,
                            lambda status: None, delay_ms=FIELD_QUERY_DELAY_MS,
                            retries=FIELD_QUERY_RETRIES)

    def context(self, window: WindowInfo) -> Future[A11yContext]:
        def read() -> A11yContext:
            context = self._tree_reads.context(window, self._target)
            self._masks = self._tree_reads.field_masks()   # the walk may have read new fields
            return context

        def failed(status: str) -> A11yContext:
            if status == "hung":   # since the call it left unanswered (noted before this answer)
                return A11yContext(status, since_ms=self._tree_reads.hung_since(window.pid))
            return A11yContext(status)

        return self._submit(read, window, failed)

    def hit_test(self, window: WindowInfo, x: int, y: int) -> Future[HitResult]:
        return self._submit(lambda: self._tree_reads.hit_test(window, x, y), window,
                            lambda status: HitResult(None, "none"), urgent=True)

    def forget_trees(self) -> Future[None]:
        """Drop the cached walks (their rows are being forgotten); done when
        the worker has."""
        future: Future[None] = Future()
        thread, reads = self._thread, self._reads
        if self._glib is None or reads is None or thread is None or not thread.is_alive():
            future.set_result(None)  # no worker, no cached walks
            return future

        def run() -> bool:
            reads.forget_trees()
            if future.set_running_or_notify_cancel():
                future.set_result(None)
            return False

        self._glib.idle_add(run)
        return future

    def _submit(self, read: Callable[[], R], window: WindowInfo,
                fallback: Callable[[str], R], *, delay_ms: int = 0, retries: int = 0,
                urgent: bool = False) -> Future[R]:
        """Run `read` on the worker thread; a failed read answers
        `fallback(status)`, and a read that found nothing is tried again
        up to `retries` times. An `urgent` read (a click's hit test, which
        must see the screen as it was clicked) goes ahead of queued walks."""
        future: Future[R] = Future()
        glib = self._glib
        if self.status != "ok" or glib is None:
            future.set_result(fallback(self.status))
            return future

        attempts_left = [retries]

        def run() -> bool:
            if self.status != "ok":   # the bus went while this waited its turn
                result = fallback("unavailable")
                if future.set_running_or_notify_cancel():
                    future.set_result(result)
                return False
            asked = now_ms()
            try:
                result = read()
            except Exception as exc:  # noqa: BLE001 - reported to the caller as a result
                self._note_failure(exc, window, asked)
                result = fallback("hung" if is_timeout(exc) else "unavailable")
            if result is None and attempts_left[0] > 0:
                attempts_left[0] -= 1
                return True  # GLib runs the timeout again
            if future.set_running_or_notify_cancel():
                future.set_result(result)
            return False

        if delay_ms:
            glib.timeout_add(delay_ms, run)
        else:
            glib.idle_add(run, priority=glib.PRIORITY_HIGH if urgent else glib.PRIORITY_DEFAULT_IDLE)
        return future

    # -- worker thread -----------------------------------------------------------
    def _run(self) -> None:
        try:
            import pyatspi
            from gi.repository import Atspi, GLib
        except Exception as exc:  # noqa: BLE001 - missing bindings: capture goes on without a11y
            self.status, self.last_error = "unavailable", f"pyatspi not importable: {exc}"
            self._ready.set()
            return
        self._pyatspi, self._glib = pyatspi, GLib
        self._reads = TreeReads(pyatspi, self._writer, self._limits, self._browsers, origin=self._origin)
        self._initialised = True
        try:
            # The second value applies to an application's first calls; left at
            # libatspi's 15 s default, one hung app seen for the first time
            # would stall this thread that long.
            timeout = self._settings.call_timeout_ms
            Atspi.set_timeout(timeout, 2 * timeout)
            pyatspi.Registry.getDesktop(0).childCount  # noqa: B018 - probes the bus
            pyatspi.Registry.registerEventListener(
                self._on_event, *_EVENTS)
        except Exception as exc:  # noqa: BLE001
            self.status, self.last_error = "unavailable", f"AT-SPI bus unreachable: {exc}"
            self._ready.set()
            return
        self.status = "ok"
        self._ready.set()
        try:
            # gil=False: pyatspi's default adds a 10 ms idle callback that keeps
            # the process awake forever; PyGObject releases the GIL anyway.
            pyatspi.Registry.start(gil=False)
        finally:
            self.status = "stopped"

    def _quit(self) -> bool:
        pyatspi = self._pyatspi
        assert pyatspi is not None, "quit is scheduled only once the worker thread runs GLib"
        try:
            pyatspi.Registry.deregisterEventListener(self._on_event, *_EVENTS)
        except Exception:  # noqa: BLE001 - bus may be gone already
            pass
        pyatspi.Registry.stop()
        return False

    def _on_event(self, event: Any) -> None:   # a pyatspi event (untyped)
        target = self._target
        if target is None:
            return
        try:
            source = event.source
            if source is None:
                return
            if source.get_process_id() != target.pid:
                return
            if event.type.startswith("object:state-changed:focused"):
                if event.detail1:
                    # Known from the event even when a walk stopped short of it.
                    self._focused_mask = self._tree_reads.focused_mask(source, target)
                return
            self._tree_reads.mark_stale(target.window_id)
            self._schedule_refresh()
        except Exception as exc:  # noqa: BLE001 - a dying app can fail any call
            self._note_failure(exc, target, now_ms())

    def _schedule_refresh(self) -> None:
        if self._refresh_pending:
            return
        self._refresh_pending = True
        assert self._glib is not None, "events are delivered only once the worker thread runs GLib"
        self._glib.timeout_add(self._settings.refresh_debounce_ms, self._refresh_target)

    def _refresh_target(self) -> bool:
        self._refresh_pending = False
        target = self._target
        if target is not None and self.status == "ok":
            asked = now_ms()
            try:
                self._tree_reads.tree_for(target)
                self._masks = self._tree_reads.field_masks()
            except Exception as exc:  # noqa: BLE001
                self._note_failure(exc, target, asked)
        return False

    def _note_failure(self, exc: Exception, window: WindowInfo | None, asked_ms: int) -> None:
        self.last_error = f"{exc.__class__.__name__}: {exc}"
        if is_timeout(exc) and window is not None:
            name = self._tree_reads.note_timeout(window, asked_ms)
            if name and window.pid:
                self._hung_names[window.pid] = name
        log.debug("accessibility call failed: %s", self.last_error)
