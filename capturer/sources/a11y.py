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
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future

from core.a11y.tree import WalkLimits
from core.store import StoreWriter

from ..config import AccessibilitySettings
from .a11y_reads import TreeReads, is_timeout
from .base import A11yContext, FieldMask, HitResult, WindowInfo

log = logging.getLogger(__name__)

FIELD_QUERY_DELAY_MS = 60
FIELD_QUERY_RETRIES = 3
_EVENTS = ("object:children-changed", "window:activate", "object:state-changed:focused")


class AccessibilityWorker:
    """See the module docstring. All public methods are thread-safe."""

    def __init__(self, writer: StoreWriter, settings: AccessibilitySettings,
                 browsers: tuple[str, ...]) -> None:
        self._writer = writer
        self._settings = settings
        self._limits = WalkLimits(settings.max_nodes, settings.max_depth, settings.walk_budget_ms)
        self._browsers = frozenset(browsers)
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self.status = "starting"
        self.last_error: str | None = None
        # Written by the daemon thread, read by the worker: plain attribute
        # assignment is atomic, so no lock is needed.
        self._target: WindowInfo | None = None
        # Written by the worker, read by the daemon's pictures: replaced whole.
        self._masks: tuple[FieldMask, ...] = ()
        self._focused_mask: FieldMask | None = None
        # Worker-thread state.
        self._reads: TreeReads | None = None
        self._refresh_pending = False
        self._pyatspi = None
        self._glib = None

    # -- lifecycle ------------------------------------------------------------
    def start(self, timeout: float = 10.0) -> bool:
        if not self._settings.enabled:
            self.status = "disabled"
            return False
        self._thread = threading.Thread(target=self._run, name="phantom-a11y", daemon=True)
        self._thread.start()
        self._ready.wait(timeout)
        return self.status == "ok"

    def stop(self, timeout: float = 3.0) -> None:
        if self._thread is None or not self._thread.is_alive() or self._glib is None:
            return
        self._glib.idle_add(self._quit)
        self._thread.join(timeout)

    # -- requests (any thread) ----------------------------------------------------
    def set_target(self, window: WindowInfo | None) -> None:
        """The one window the worker may read; None while paused or excluded."""
        self._target = window

    def field_masks(self) -> tuple[FieldMask, ...]:
        """Editable fields to mask in pictures (any thread; see the protocol)."""
        focused = self._focused_mask
        return self._masks + ((focused,) if focused is not None else ())

    def focused_field(self, window: WindowInfo) -> Future:
        """The text field that has keyboard focus in this window (or None).

        Asked a moment after a burst's first key and retried briefly: the
        daemon sees a key as the X server delivers it, which can be before the
        application has moved focus for the key before it (Tab, a click)."""
        return self._submit(lambda: self._reads.focused_field(window), window,
                            lambda status: None, delay_ms=FIELD_QUERY_DELAY_MS,
                            retries=FIELD_QUERY_RETRIES)

    def context(self, window: WindowInfo) -> Future:
        def read() -> A11yContext:
            context = self._reads.context(window, self._target)
            self._masks = self._reads.field_masks()   # the walk may have read new fields
            return context

        return self._submit(read, window, A11yContext)

    def hit_test(self, window: WindowInfo, x: int, y: int) -> Future:
        return self._submit(lambda: self._reads.hit_test(window, x, y), window,
                            lambda status: HitResult(None, "none"), urgent=True)

    def forget_trees(self) -> Future:
        """Drop the cached walks (their rows are being forgotten); done when
        the worker has."""
        future: Future = Future()
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

    def _submit(self, read: Callable[[], object], window: WindowInfo,
                fallback: Callable[[str], object], *, delay_ms: int = 0, retries: int = 0,
                urgent: bool = False) -> Future:
        """Run `read` on the worker thread; a failed read answers
        `fallback(status)`, and a read that found nothing is tried again
        up to `retries` times. An `urgent` read (a click's hit test, which
        must see the screen as it was clicked) goes ahead of queued walks."""
        future: Future = Future()
        if self.status != "ok" or self._glib is None:
            future.set_result(fallback(self.status))
            return future

        attempts_left = [retries]

        def run() -> bool:
            try:
                result = read()
            except Exception as exc:  # noqa: BLE001 - reported to the caller as a result
                self._note_failure(exc, window)
                result = fallback("hung" if is_timeout(exc) else "unavailable")
            if result is None and attempts_left[0] > 0:
                attempts_left[0] -= 1
                return True  # GLib runs the timeout again
            if future.set_running_or_notify_cancel():
                future.set_result(result)
            return False

        if delay_ms:
            self._glib.timeout_add(delay_ms, run)
        else:
            self._glib.idle_add(run, priority=self._glib.PRIORITY_HIGH if urgent
                                else self._glib.PRIORITY_DEFAULT_IDLE)
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
        self._reads = TreeReads(pyatspi, self._writer, self._limits, self._browsers)
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
        try:
            self._pyatspi.Registry.deregisterEventListener(self._on_event, *_EVENTS)
        except Exception:  # noqa: BLE001 - bus may be gone already
            pass
        self._pyatspi.Registry.stop()
        return False

    def _on_event(self, event) -> None:
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
                    self._focused_mask = self._reads.focused_mask(source, target)
                return
            self._reads.mark_stale(target.window_id)
            self._schedule_refresh()
        except Exception as exc:  # noqa: BLE001 - a dying app can fail any call
            self._note_failure(exc, target)

    def _schedule_refresh(self) -> None:
        if self._refresh_pending:
            return
        self._refresh_pending = True
        self._glib.timeout_add(self._settings.refresh_debounce_ms, self._refresh_target)

    def _refresh_target(self) -> bool:
        self._refresh_pending = False
        target = self._target
        if target is not None:
            try:
                self._reads.tree_for(target)
                self._masks = self._reads.field_masks()
            except Exception as exc:  # noqa: BLE001
                self._note_failure(exc, target)
        return False

    def _note_failure(self, exc: Exception, window: WindowInfo | None) -> None:
        self.last_error = f"{exc.__class__.__name__}: {exc}"
        if is_timeout(exc):
            self._reads.note_timeout(window)
        log.debug("accessibility call failed: %s", self.last_error)
