"""The accessibility worker: one thread that owns every AT-SPI call.

AT-SPI calls are synchronous D-Bus round trips and a hung application can
stall them until the call timeout, so none of them run on the daemon's loop.
This thread runs the GLib main loop that delivers AT-SPI events, keeps a
cached, bounded walk of the focused window's tree (refreshed on focus and on
children-changed events, debounced — never per keystroke), finds the focused
field once per text burst (one Collection query, not a walk), reads the
browser URL, and answers hit tests.
Requests come in as callables scheduled with `GLib.idle_add`; answers go back
as `concurrent.futures.Future`s the daemon waits on with a short budget.

It writes tree and element rows to the store itself (ids from the shared
allocator) so that a snapshot can reference a tree by id once it exists.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future
from dataclasses import dataclass

from core.clock import now_ms
from ..config import AccessibilitySettings
from ..input_counts import FieldRef
from core.store import ElementRow, StoreWriter, TreeRow
from core.a11y.roles import CONTAINER_ROLES, TEXT_INPUT_ROLES
from core.a11y.tree import Node, Walk, WalkLimits, hit_test, node_for_hit, walk
from .x11 import WindowInfo

log = logging.getLogger(__name__)

ADDRESS_BAR_NAMES = frozenset({"address and search bar", "search or enter address",
                               "address bar", "location", "search with google or enter address"})
HIT_TOLERANCE_PX = 6
FIELD_QUERY_DELAY_MS = 60
HIT_RETRY_S = 0.12
FIELD_QUERY_RETRIES = 3
HUNG_BACKOFF_S = 10.0
CACHED_WINDOWS = 8


@dataclass(frozen=True, slots=True)
class A11yContext:
    """What the worker knows about a window for its snapshot."""

    status: str                  # ok | no_app | hung | unavailable | disabled
    tree_id: int | None = None
    url: str | None = None


@dataclass(frozen=True, slots=True)
class HitResult:
    """The element under a click and how it was resolved."""

    element_id: int | None
    resolution: str              # exact | tolerance | zone | none


@dataclass
class _CachedTree:
    tree_id: int
    walk: Walk
    element_ids: tuple[int, ...]
    by_key: dict[str, int]        # object path -> walk index
    origin: tuple[int, int, int, int]  # window geometry when walked
    stale: bool = False


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
        # Worker-thread state.
        self._apps_by_pid: dict[int, object] = {}
        self._trees: OrderedDict[int, _CachedTree] = OrderedDict()
        self._hung_until: dict[int, float] = {}
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

    def focused_field(self, window: WindowInfo) -> Future:
        """The text field that has keyboard focus in this window (or None).

        Asked a moment after a burst's first key and retried briefly: the
        daemon sees a key as the X server delivers it, which can be before the
        application has moved focus for the key before it (Tab, a click)."""
        return self._submit(self._focused_field, window, delay_ms=FIELD_QUERY_DELAY_MS,
                            retries=FIELD_QUERY_RETRIES)

    def context(self, window: WindowInfo) -> Future:
        return self._submit(self._context, window)

    def hit_test(self, window: WindowInfo, x: int, y: int) -> Future:
        return self._submit(self._hit_test, window, x, y)

    def _submit(self, function, *args, delay_ms: int = 0, retries: int = 0) -> Future:
        future: Future = Future()
        if self.status != "ok" or self._glib is None:
            future.set_result(self._fallback(function, self.status))
            return future

        attempts_left = [retries]

        def run() -> bool:
            try:
                result = function(*args)
            except Exception as exc:  # noqa: BLE001 - reported to the caller as a result
                self._note_failure(exc, args[0] if args else None)
                result = self._fallback(function, self._failure_status(exc))
            if result is None and attempts_left[0] > 0:
                attempts_left[0] -= 1
                return True  # GLib runs the timeout again
            if future.set_running_or_notify_cancel():
                future.set_result(result)
            return False

        if delay_ms:
            self._glib.timeout_add(delay_ms, run)
        else:
            self._glib.idle_add(run)
        return future

    def _fallback(self, function, status: str):
        if function == self._context:
            return A11yContext(status)
        if function == self._hit_test:
            return HitResult(None, "none")
        return None

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
            cached = self._trees.get(target.window_id)
            if cached is not None:
                cached.stale = True
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
                self._tree_for(target)
            except Exception as exc:  # noqa: BLE001
                self._note_failure(exc, target)
        return False

    # -- requests, run on the worker thread --------------------------------------
    def _context(self, window: WindowInfo) -> A11yContext:
        target = self._target
        if target is None or window.window_id != target.window_id:
            return A11yContext("disabled")
        if self._is_hung(window.pid):
            return A11yContext("hung")
        cached = self._tree_for(window)
        if cached is None:
            return A11yContext("no_app")
        url = self._browser_url(window, cached) if window.app in self._browsers else None
        return A11yContext("ok", cached.tree_id, url)

    def _hit_test(self, window: WindowInfo, x: int, y: int) -> HitResult:
        if self._is_hung(window.pid) or window.window_id != getattr(self._target, "window_id", None):
            return HitResult(None, "none")
        frame = self._frame_for(window)
        if frame is None:
            return HitResult(None, "none")
        chain = hit_test(frame, x, y)
        if len(chain) < 2 or _is_container(chain[-1]):
            # Right after a click the application may be re-laying itself out
            # (a label grew, the window resized) and report transient extents;
            # look once more after it has settled.
            time.sleep(HIT_RETRY_S)
            chain = hit_test(frame, x, y)
        cached = self._trees.get(window.window_id)
        deepest = chain[-1]
        named = not _is_container(deepest)
        if len(chain) > 1 and named:
            return HitResult(self._element_id_for(chain, window, cached), "exact")
        if cached is not None:
            near = self._nearest_control(cached, x, y, window)
            if near is not None:
                return HitResult(cached.element_ids[near], "tolerance")
        if len(chain) > 1:
            return HitResult(self._element_id_for(chain, window, cached), "zone")
        return HitResult(None, "none")

    # -- trees ----------------------------------------------------------------------
    def _tree_for(self, window: WindowInfo) -> _CachedTree | None:
        cached = self._trees.get(window.window_id)
        geometry = (window.x, window.y, window.width, window.height)
        if cached is not None and not cached.stale and cached.origin[2:] == geometry[2:]:
            self._trees.move_to_end(window.window_id)
            return cached
        frame = self._frame_for(window)
        if frame is None:
            return None
        result = walk(frame, window.app, self._limits)
        cached = self._store_walk(result, window, geometry)
        self._trees[window.window_id] = cached
        self._trees.move_to_end(window.window_id)
        while len(self._trees) > CACHED_WINDOWS:
            self._trees.popitem(last=False)
        return cached

    def _store_walk(self, result: Walk, window: WindowInfo, geometry) -> _CachedTree:
        ids = self._writer.ids
        tree_id = ids.next("a11y_trees")
        self._writer.submit(TreeRow(tree_id, now_ms(), window.app, len(result.nodes),
                                    result.truncated, result.elapsed_ms))
        element_ids = tuple(ids.next("elements") for _ in result.nodes)
        for node, element_id in zip(result.nodes, element_ids):
            parent_id = element_ids[node.parent] if node.parent is not None else None
            self._writer.submit(_element_row(node, element_id, tree_id, parent_id))
        by_key = {node.key: index for index, node in enumerate(result.nodes)}
        return _CachedTree(tree_id, result, element_ids, by_key, geometry)

    def _frame_for(self, window: WindowInfo):
        """The AT-SPI top-level matching an X window: same pid, then the same
        title, else the active one, else the first showing one."""
        app = self._app_for_pid(window.pid)
        if app is None:
            return None
        pyatspi = self._pyatspi
        count = app.childCount
        if count < 0:  # libatspi reports a failed call as -1
            raise AccessibilityTimeout(f"application pid {window.pid} did not answer")
        candidates = [app.getChildAtIndex(i) for i in range(count)]
        candidates = [c for c in candidates if c is not None]
        for frame in candidates:
            if frame.name == window.title:
                return frame
        for frame in candidates:
            if frame.getState().contains(pyatspi.STATE_ACTIVE):
                return frame
        for frame in candidates:
            if frame.getState().contains(pyatspi.STATE_SHOWING):
                return frame
        return None

    def _app_for_pid(self, pid: int | None):
        if not pid:
            return None
        app = self._apps_by_pid.get(pid)
        if app is not None:
            try:
                if app.get_process_id() == pid:
                    return app
            except Exception:  # noqa: BLE001 - the app went away; look again
                pass
        desktop = self._pyatspi.Registry.getDesktop(0)
        self._apps_by_pid = {}
        for i in range(desktop.childCount):
            candidate = desktop.getChildAtIndex(i)
            if candidate is None:
                continue
            try:
                self._apps_by_pid[candidate.get_process_id()] = candidate
            except Exception:  # noqa: BLE001 - a hung app must not hide the others
                continue
        return self._apps_by_pid.get(pid)

    def _element_id_for(self, chain: list, window: WindowInfo, cached: _CachedTree | None) -> int:
        """The element row for the deepest accessible of a hit chain: the
        cached walk's row when the element is in it, else a new row."""
        deepest = chain[-1]
        if cached is not None:
            index = cached.by_key.get(deepest.path)
            if index is not None:
                return cached.element_ids[index]
        node = node_for_hit(chain, window.app)
        element_id = self._writer.ids.next("elements")
        self._writer.submit(_element_row(node, element_id, None, None))
        return element_id

    def _nearest_control(self, cached: _CachedTree, x: int, y: int, window: WindowInfo) -> int | None:
        """A named control within the tolerance of the point, using the
        cached walk shifted by however far the window moved since."""
        dx = window.x - cached.origin[0]
        dy = window.y - cached.origin[1]
        best, best_distance = None, None
        for index, node in enumerate(cached.walk.nodes):
            if node.role in CONTAINER_ROLES or not (node.name or node.labelled_by):
                continue
            if not node.contains(x - dx, y - dy, HIT_TOLERANCE_PX):
                continue
            cx, cy = node.x + node.w / 2 + dx, node.y + node.h / 2 + dy
            distance = (cx - x) ** 2 + (cy - y) ** 2
            if best_distance is None or distance < best_distance:
                best, best_distance = index, distance
        return best

    # -- focus and URL --------------------------------------------------------------
    def _focused_field(self, window: WindowInfo) -> FieldRef | None:
        """Ask the toolkit (Collection interface, one call) which element has
        focus; fall back to checking the cached walk's text fields."""
        target = self._target
        if target is None or window.window_id != target.window_id or self._is_hung(window.pid):
            return None
        frame = self._frame_for(window)
        if frame is None:
            return None
        focused = _focused_descendant(frame)
        if focused is None:
            return None
        role = focused.getRoleName()
        if role not in TEXT_INPUT_ROLES:
            return None
        cached = self._trees.get(window.window_id)
        element_id = None
        if cached is not None:
            index = cached.by_key.get(focused.path)
            if index is not None:
                element_id = cached.element_ids[index]
        if element_id is None:
            element_id = self._element_id_for(_ancestors(focused), window, None)
        return FieldRef(element_id, role, role == "password text")

    def _browser_url(self, window: WindowInfo, cached: _CachedTree) -> str | None:
        """The page URL from the document's DocURL attribute or the address bar.
        The address bar is not read while it has focus: then it holds what the
        user is typing, not where the browser is."""
        for node, accessible in zip(cached.walk.nodes, cached.walk.accessibles):
            if node.role in ("document web", "document frame"):
                for attribute in accessible.getAttributes() or ():
                    key, _, value = attribute.partition(":")
                    if key == "DocURL" and value:
                        return value
        for node, accessible in zip(cached.walk.nodes, cached.walk.accessibles):
            if node.role in ("entry", "text") and node.name.casefold() in ADDRESS_BAR_NAMES:
                if accessible.getState().contains(self._pyatspi.STATE_FOCUSED):
                    return None
                text = accessible.queryText().getText(0, -1).strip()
                if text and " " not in text and ("." in text or "://" in text):
                    return text
        return None

    # -- failures -------------------------------------------------------------------
    def _is_hung(self, pid: int | None) -> bool:
        until = self._hung_until.get(pid or -1)
        return until is not None and time.monotonic() < until

    def _note_failure(self, exc: Exception, window) -> None:
        self.last_error = f"{exc.__class__.__name__}: {exc}"
        if _is_timeout(exc) and window is not None and getattr(window, "pid", None):
            self._hung_until[window.pid] = time.monotonic() + HUNG_BACKOFF_S
            self._trees.pop(window.window_id, None)
        log.debug("accessibility call failed: %s", self.last_error)

    def _failure_status(self, exc: Exception) -> str:
        return "hung" if _is_timeout(exc) else "unavailable"


_EVENTS = ("object:children-changed", "window:activate")


def _focused_descendant(frame):
    from gi.repository import Atspi

    rule = Atspi.MatchRule.new(
        Atspi.StateSet.new([Atspi.StateType.FOCUSED]), Atspi.CollectionMatchType.ALL, {},
        Atspi.CollectionMatchType.ALL, [], Atspi.CollectionMatchType.ALL, [],
        Atspi.CollectionMatchType.ALL, False)
    matches = Atspi.Collection.get_matches(frame, rule, Atspi.CollectionSortOrder.CANONICAL, 1, True)
    return matches[0] if matches else None


class AccessibilityTimeout(TimeoutError):
    """An application did not answer an AT-SPI call in time."""


def _is_timeout(exc: Exception) -> bool:
    if isinstance(exc, TimeoutError):
        return True
    text = str(exc).lower()
    return "timeout" in text or "timed out" in text or "noreply" in text


def _is_container(accessible) -> bool:
    return not accessible.name and accessible.getRoleName() in CONTAINER_ROLES


def _ancestors(accessible) -> list:
    chain = [accessible]
    current = accessible
    for _ in range(32):
        parent = current.parent
        if parent is None or parent.getRoleName() == "application":
            break
        chain.append(parent)
        current = parent
    return list(reversed(chain))


def _element_row(node: Node, element_id: int, tree_id: int | None, parent_id: int | None) -> ElementRow:
    return ElementRow(id=element_id, tree_id=tree_id, parent_id=parent_id, depth=node.depth,
                      ordinal=node.ordinal, role=node.role, name=node.name,
                      description=node.description, labelled_by=node.labelled_by,
                      states=node.states, x=node.x, y=node.y, w=node.w, h=node.h, path=node.path)
