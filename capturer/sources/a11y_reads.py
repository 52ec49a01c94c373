"""What the accessibility worker reads, on its own thread: the cached,
bounded walk of the focused window's tree (written to the store as tree and
element rows), the element under a click, the field that has keyboard focus,
and a browser's URL. Also which applications are hung: one that timed out is
left alone for a while instead of stalling every call after it. The
stateless questions these reads ask of single live elements (focus, a
document's URL, a field's length) are in `a11y_queries.py`.

Every method here runs on the worker thread (see `a11y.py`); nothing is
locked because nothing else touches this state.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from dataclasses import dataclass
from types import ModuleType

from core.a11y import Accessible
from core.a11y.roles import CONTAINER_ROLES, TEXT_INPUT_ROLES
from core.a11y.toolkit import OriginRule, origin_for
from core.a11y.tree import Node, Walk, WalkLimits, clicked_element, hit_test, node_for_hit, walk
from core.clock import now_ms
from core.store import StoreWriter, TreeRow

from ..input_counts import FieldRef
from .a11y_queries import (
    ancestors,
    contents,
    document_url,
    focused_descendant,
    focused_field_mask,
    is_container,
    showing_document_url,
)
from .a11y_rows import editable_field_masks, element_row, on_desktop, without_url_secrets
from .base import A11yContext, FieldMask, HitResult, WindowInfo

log = logging.getLogger(__name__)

ADDRESS_BAR_NAMES = frozenset({"address and search bar", "search or enter address",
                               "address bar", "location", "search with google or enter address"})
HIT_TOLERANCE_PX = 6
# A click answered with a container is asked again every HIT_POLL_S until a
# control answers or HIT_SETTLE_S has passed (see `hit_test`).
HIT_POLL_S = 0.008
HIT_SETTLE_S = 0.024
HUNG_BACKOFF_S = 10.0
CACHED_WINDOWS = 8


class AccessibilityTimeout(TimeoutError):
    """An application did not answer an AT-SPI call in time."""


@dataclass
class _CachedTree:
    tree_id: int
    walk: Walk
    element_ids: tuple[int, ...]
    by_key: dict[str, int]        # object path -> walk index
    origin: tuple[int, int, int, int]  # window geometry when walked
    key: tuple[int, int, int | None]   # the window's identity (id, generation, pid)
    stale: bool = False
    masks: tuple[FieldMask, ...] = ()  # its editable fields, for pictures


class TreeReads:
    """The worker thread's reads and caches. `target` is the one window the
    worker may read (None while paused or excluded): every read checks it."""

    def __init__(self, pyatspi: ModuleType, writer: StoreWriter, limits: WalkLimits,
                 browsers: frozenset[str], *, origin: OriginRule = origin_for) -> None:
        self._pyatspi = pyatspi
        # What moves an application's extents onto the desktop: per toolkit
        # on X11, the window's place for every client on Wayland.
        self._origin = origin
        self._writer = writer
        self._limits = limits
        self._browsers = browsers
        self._apps_by_pid: dict[int, Accessible] = {}
        self._trees: OrderedDict[int, _CachedTree] = OrderedDict()
        self._hung_until: dict[int, float] = {}
        self._hung_since: dict[int, int] = {}
        self._exposures: dict[tuple[int, str], str] = {}

    # -- requests ---------------------------------------------------------------
    def context(self, window: WindowInfo, target: WindowInfo | None) -> A11yContext:
        if target is None or window.window_id != target.window_id:
            return A11yContext("disabled")
        if self.is_hung(window.pid):
            return A11yContext("hung", since_ms=self.hung_since(window.pid))
        cached = self.tree_for(window)
        if cached is None:
            return A11yContext("no_app", detail=self._exposure(window))
        url = None
        if window.app in self._browsers:
            # Asked of the live document each time: a page navigated since the
            # walk replaced the document the cached walk holds.
            url = showing_document_url(self._frame_for(window)) or self._browser_url(cached)
        return A11yContext("ok", cached.tree_id, url)

    def hit_test(self, window: WindowInfo, x: int, y: int) -> HitResult:
        """The element under a click in `window` — the window under the
        pointer, which the capture rules allowed (it is not excluded) — asked
        of its own application at that point, so the first click into a
        window is never resolved in the tree of the window that had focus.
        The cached walk of `window` (only its own) serves for ids and the
        tolerance search."""
        if self.is_hung(window.pid):
            return HitResult(None, "none")
        frame = self._frame_for(window)
        if frame is None:
            return HitResult(None, "none")
        origin = self._origin(frame, window.x, window.y)
        chain = clicked_element(hit_test(frame, x, y, origin=origin))
        cached = self._trees.get(window.window_id)
        if cached is not None and cached.key[::2] != window.key[::2]:
            cached = None   # a tree of an earlier window with this id (another process)
        if len(chain) < 2 or is_container(chain[-1]):
            chain = self._settled(frame, x, y, origin, chain, cached, window)
        deepest = chain[-1]
        named = not is_container(deepest)
        if len(chain) > 1 and named:
            return self._hit(chain, window, cached, "exact")
        if cached is None or cached.stale:
            # Walked now: a click answered with a container finds the same control
            cached = self.tree_for(window)
        if cached is not None:
            near = self._nearest_control(cached, x, y, window)
            if near is not None:
                node = cached.walk.nodes[near]
                return HitResult(cached.element_ids[near], "tolerance", node.role, without_url_secrets(node.name),
                                 without_url_secrets(node.path))
        if len(chain) > 1:
            return self._hit(chain, window, cached, "zone")
        return HitResult(None, "none")

    def _settled(self, frame: Accessible, x: int, y: int, origin: tuple[int, int], chain: list[Accessible],
                 cached: _CachedTree | None, window: WindowInfo) -> list[Accessible]:
        """The chain under a click that first landed on a container, asked
        again while the application may still be re-laying itself out after
        the click (a label grew, the window resized: GTK reports transient
        extents for a frame or two). Only when that is plausible: with no
        walk of the window to go by, or when its walk has a control there;
        a click on space a current, complete walk shows empty is answered at
        once. Polled for `HIT_SETTLE_S` after the first answer, so the whole
        stays near a click's 50 ms budget."""
        if (cached is not None and not cached.stale and cached.walk.truncated is None
                and cached.origin[2:] == (window.width, window.height)
                and self._nearest_control(cached, x, y, window, slack=0, named=False) is None):
            return chain     # a current walk shows nothing there
        answered = time.monotonic()
        while time.monotonic() - answered + HIT_POLL_S <= HIT_SETTLE_S:
            time.sleep(HIT_POLL_S)
            chain = clicked_element(hit_test(frame, x, y, origin=origin))
            if len(chain) > 1 and not is_container(chain[-1]):
                break
        return chain

    def _hit(self, chain: list[Accessible], window: WindowInfo, cached: _CachedTree | None,
             resolution: str) -> HitResult:
        element_id, node = self._element_for(chain, window, cached)
        return HitResult(element_id, resolution, node.role,
                         without_url_secrets(node.name or node.labelled_by or ""), without_url_secrets(node.path))

    def focused_field(self, window: WindowInfo) -> FieldRef | None:
        """Ask the toolkit (Collection interface, one call) which element has
        focus in `window` (the window that had the keyboard, which the
        capture rules allowed); also how many characters it holds."""
        if self.is_hung(window.pid):
            return None
        frame = self._frame_for(window)
        if frame is None:
            return None
        focused = focused_descendant(frame)
        if focused is None:
            return None
        role = focused.getRoleName()
        if role not in TEXT_INPUT_ROLES:
            return None
        cached = self._trees.get(window.window_id)
        element_id: int | None = None
        if cached is not None and cached.key == window.key and (index := cached.by_key.get(focused.path)) is not None:
            element_id = cached.element_ids[index]
        if element_id is None:
            element_id = self._element_for(ancestors(focused), window, None)[0]
        secret = role == "password text"
        return FieldRef(element_id, role, secret) if secret else FieldRef(element_id, role, secret,
                                                                          *contents(focused))

    def forget_trees(self) -> None:
        """Drop every cached walk: after a forget their rows are gone, and
        the next snapshot or click must walk afresh rather than name them."""
        self._trees.clear()

    def mark_stale(self, window_id: int) -> None:
        """The window's tree changed: walk it again when next asked."""
        cached = self._trees.get(window_id)
        if cached is not None:
            cached.stale = True

    # -- trees ----------------------------------------------------------------------
    def tree_for(self, window: WindowInfo) -> _CachedTree | None:
        cached = self._trees.get(window.window_id)
        geometry = (window.x, window.y, window.width, window.height)
        if (cached is not None and not cached.stale and cached.key == window.key
                and cached.origin[2:] == geometry[2:]):
            self._trees.move_to_end(window.window_id)
            return cached
        frame = self._frame_for(window)
        if frame is None:
            return None
        result = on_desktop(walk(frame, window.app, self._limits), self._origin(frame, window.x, window.y))
        cached = self._store_walk(result, window, geometry)
        self._trees[window.window_id] = cached
        self._trees.move_to_end(window.window_id)
        while len(self._trees) > CACHED_WINDOWS:
            self._trees.popitem(last=False)
        return cached

    def _store_walk(self, result: Walk, window: WindowInfo, geometry: tuple[int, int, int, int]) -> _CachedTree:
        ids = self._writer.ids
        tree_id = ids.next("a11y_trees")
        self._writer.submit(TreeRow(tree_id, now_ms(), window.app, len(result.nodes),
                                    result.truncated, result.elapsed_ms))
        element_ids = tuple(ids.next("elements") for _ in result.nodes)
        for node, element_id in zip(result.nodes, element_ids):
            parent_id = element_ids[node.parent] if node.parent is not None else None
            self._writer.submit(element_row(node, element_id, tree_id, parent_id))
        by_key = {node.key: index for index, node in enumerate(result.nodes)}
        return _CachedTree(tree_id, result, element_ids, by_key, geometry, window.key,
                           masks=editable_field_masks(result.nodes, window, browser=window.app in self._browsers))

    def field_masks(self) -> tuple[FieldMask, ...]:
        """The editable fields of every cached tree (worker thread)."""
        return tuple(mask for cached in self._trees.values() for mask in cached.masks)

    def focused_mask(self, accessible: Accessible, window: WindowInfo) -> FieldMask | None:
        """The mask of an element that just took keyboard focus, if it takes text."""
        return focused_field_mask(accessible, window, browser=window.app in self._browsers, origin=self._origin)

    def _frame_for(self, window: WindowInfo) -> Accessible | None:
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

    def _app_for_pid(self, pid: int | None) -> Accessible | None:
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

    def _element_for(self, chain: list[Accessible], window: WindowInfo, cached: _CachedTree | None) -> tuple[int, Node]:
        """The element row (and its node) for the deepest accessible of a hit
        chain: the cached walk's row when the element is in it, else a new row."""
        deepest = chain[-1]
        if cached is not None:
            index = cached.by_key.get(deepest.path)
            if index is not None:
                return cached.element_ids[index], cached.walk.nodes[index]
        node = node_for_hit(chain, window.app)
        element_id = self._writer.ids.next("elements")
        self._writer.submit(element_row(node, element_id, None, None))
        return element_id, node

    def _nearest_control(self, cached: _CachedTree, x: int, y: int, window: WindowInfo, *,
                         slack: int = HIT_TOLERANCE_PX, named: bool = True) -> int | None:
        """The control of the cached walk nearest the point within `slack`
        pixels (a named one, unless `named` is False: an icon button then
        counts), the walk shifted by however far the window moved since."""
        dx = window.x - cached.origin[0]
        dy = window.y - cached.origin[1]
        best: int | None = None
        best_distance: float | None = None
        for index, node in enumerate(cached.walk.nodes):
            if node.role in CONTAINER_ROLES or (named and not (node.name or node.labelled_by)):
                continue
            nx, ny, nw, nh = node.x, node.y, node.w, node.h
            if nx is None or ny is None or nw is None or nh is None or not node.contains(x - dx, y - dy, slack):
                continue
            cx, cy = nx + nw / 2 + dx, ny + nh / 2 + dy
            distance = (cx - x) ** 2 + (cy - y) ** 2
            if best_distance is None or distance < best_distance:
                best, best_distance = index, distance
        return best

    def _browser_url(self, cached: _CachedTree) -> str | None:
        """The page URL from the showing document's DocURL (the Document
        interface's attribute; Firefox keeps one document per tab, hidden
        tabs included), or from the address bar. The address bar is not read
        while it has focus: then it holds what the user is typing, not where
        the browser is."""
        showing = self._pyatspi.STATE_SHOWING
        for node, accessible in zip(cached.walk.nodes, cached.walk.accessibles):
            if node.role in ("document web", "document frame") and accessible.getState().contains(showing):
                url = document_url(accessible)
                if url:
                    return url
        for node, accessible in zip(cached.walk.nodes, cached.walk.accessibles):
            if node.role in ("entry", "text") and node.name.casefold() in ADDRESS_BAR_NAMES:
                if accessible.getState().contains(self._pyatspi.STATE_FOCUSED):
                    return None
                text: str = accessible.queryText().getText(0, -1).strip()
                if text and " " not in text and ("." in text or "://" in text):
                    return text
        return None

    def _exposure(self, window: WindowInfo) -> str:
        """Why a window's process has no tree (its toolkit), read once per
        process (keyed with the app, so a reused pid is read again)."""
        if not window.pid:
            return ""
        key = (window.pid, window.app)
        if key not in self._exposures:
            from core.a11y.exposure import of_process

            if len(self._exposures) > 256:
                self._exposures.clear()
            exposure = of_process(window.pid)
            self._exposures[key] = exposure.describe() if exposure is not None else ""
        return self._exposures[key]

    # -- hung applications ------------------------------------------------------------
    def is_hung(self, pid: int | None) -> bool:
        key = pid or -1    # no pid is never hung (note_timeout needs one)
        until = self._hung_until.get(key)
        if until is not None and time.monotonic() >= until:
            self.clear_hung(key)   # nobody said it answers; ask it again
            return False
        return until is not None

    def note_timeout(self, window: WindowInfo | None, asked_ms: int) -> str | None:
        """The window's application did not answer a call made at `asked_ms`:
        leave it alone until it answers again (or for a while, if nobody
        says). Returns its accessibility-bus name, for asking it."""
        pid = window.pid if window is not None else None
        if window is None or not pid:
            return None
        self._hung_until[pid] = time.monotonic() + HUNG_BACKOFF_S
        self._hung_since.setdefault(pid, asked_ms)
        self._trees.pop(window.window_id, None)
        app = self._apps_by_pid.get(pid)
        try:
            # libatspi keeps the application's bus name on its object (no call made).
            return str(app.app.bus_name) if app is not None and app.app is not None else None
        except Exception:  # noqa: BLE001 - the application went away
            return None

    def hung_since(self, pid: int | None) -> int | None:
        """When the first call a hung application left unanswered was made."""
        return self._hung_since.get(pid or -1)

    def clear_hung(self, pid: int) -> None:
        self._hung_until.pop(pid, None)
        self._hung_since.pop(pid, None)


def is_timeout(exc: Exception) -> bool:
    if isinstance(exc, TimeoutError):
        return True
    text = str(exc).lower()
    return "timeout" in text or "timed out" in text or "noreply" in text
