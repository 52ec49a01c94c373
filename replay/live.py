"""The live accessibility tree as replay sees it: which application and
window a program targets, and what a recorded path resolves to now.

All AT-SPI calls happen on the thread that runs the replay; they are bounded
by libatspi's call timeout (set once, below) so a hung application turns
into an escalation, not a hang.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from core.a11y.path import PathError, Segment, clip_name, parse
from core.a11y.roles import CONTAINER_ROLES, LABELLED_ROLES, TOP_LEVEL_ROLES
from core.a11y.tree import read_label

from core.errors import PhantomError

CALL_TIMEOUT_MS = 2000
MAX_SEARCH_NODES = 3000


class LiveTreeError(PhantomError):
    """The accessibility bus or the application cannot be reached."""

    code = "unavailable"


@dataclass(frozen=True, slots=True)
class LiveElement:
    """A live accessible with what replay needs to know about it."""

    accessible: object
    role: str
    name: str
    label: str

    @property
    def display(self) -> str:
        return self.name or self.label

    def extents(self) -> tuple[int, int, int, int]:
        import pyatspi

        box = self.accessible.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        return box.x, box.y, box.width, box.height

    def center(self) -> tuple[int, int]:
        x, y, w, h = self.extents()
        return x + w // 2, y + h // 2

    def states(self) -> frozenset[str]:
        import pyatspi

        return frozenset(pyatspi.stateToString(s) for s in self.accessible.getState().getStates())

    def same_as(self, other: "LiveElement") -> bool:
        return self.accessible.path == other.accessible.path


_initialized = False


def init() -> None:
    global _initialized
    if _initialized:
        return
    try:
        import pyatspi  # noqa: F401
        from gi.repository import Atspi
    except Exception as exc:  # noqa: BLE001
        raise LiveTreeError(f"AT-SPI bindings are not available: {exc}") from None
    Atspi.set_timeout(CALL_TIMEOUT_MS, 2 * CALL_TIMEOUT_MS)
    _initialized = True


def describe(accessible) -> LiveElement:
    role = accessible.getRoleName()
    name = clip_name(accessible.name)
    label = read_label(accessible) or "" if not name and role in LABELLED_ROLES else ""
    return LiveElement(accessible, role, name, label or "")


def find_application(app: str):
    """The running AT-SPI application for a program's app name: by the pid
    of an X window with that WM_CLASS, else by the accessible name."""
    init()
    import pyatspi

    try:
        desktop = pyatspi.Registry.getDesktop(0)
        apps = [desktop.getChildAtIndex(i) for i in range(desktop.childCount)]
    except Exception as exc:  # noqa: BLE001
        raise LiveTreeError(f"the accessibility bus is not reachable: {exc}") from None
    apps = [a for a in apps if a is not None]
    pids = _pids_with_class(app)
    for candidate in apps:
        try:
            if candidate.get_process_id() in pids:
                return candidate
        except Exception:  # noqa: BLE001 - a dying app
            continue
    for candidate in apps:
        if (candidate.name or "").casefold() == app.casefold():
            return candidate
    return None


def main_window(application):
    """The application's active top-level window, else its first showing one."""
    import pyatspi

    count = application.childCount
    if count < 0:
        raise LiveTreeError("the application does not answer accessibility calls")
    windows = [application.getChildAtIndex(i) for i in range(count)]
    windows = [w for w in windows if w is not None and w.getRoleName() in TOP_LEVEL_ROLES]
    for window in windows:
        if window.getState().contains(pyatspi.STATE_ACTIVE):
            return window
    for window in windows:
        if window.getState().contains(pyatspi.STATE_SHOWING):
            return window
    return windows[0] if windows else None


def resolve(window, path: str) -> list[LiveElement]:
    """Every live element the recorded path names under this window.

    Names and labels match exactly (case-insensitively): fuzzier matching is
    the embedding step's job, with its margin and verb checks. An index
    segment picks among same-role, same-name siblings; a path recorded
    without an index that now finds several elements returns them all, and
    the caller refuses the ambiguity."""
    try:
        _, segments = parse(path)
    except PathError:
        return []
    if not segments or segments[0].role != window.getRoleName():
        return []
    level = [window]
    for segment in segments[1:]:
        found = []
        for parent in level:
            matches = [child for child in _children(parent) if _matches(child, segment)]
            if segment.index is not None:
                matches = matches[segment.index - 1: segment.index] if segment.index <= len(matches) else []
            found.extend(matches)
        level = found
        if not level:
            return []
    return [describe(accessible) for accessible in level]


def candidates(window, role: str) -> list[LiveElement]:
    """Every showing element of a role in the window (bounded breadth-first)."""
    import pyatspi

    found, queue, seen = [], [window], 0
    while queue and seen < MAX_SEARCH_NODES:
        node = queue.pop(0)
        seen += 1
        for child in _children(node):
            if child.getRoleName() == role and child.getState().contains(pyatspi.STATE_SHOWING):
                found.append(describe(child))
            queue.append(child)
    return found


def element_at(x: int, y: int, window) -> LiveElement | None:
    """The deepest element under a desktop point (GTK answers one level per call)."""
    from core.a11y.tree import hit_test

    chain = hit_test(window, x, y)
    return describe(chain[-1]) if len(chain) > 1 else None


def _children(node) -> list:
    count = node.childCount
    if count < 0:
        raise LiveTreeError("the application stopped answering accessibility calls")
    return [c for c in (node.getChildAtIndex(i) for i in range(count)) if c is not None]


def _matches(accessible, segment: Segment) -> bool:
    if accessible.getRoleName() != segment.role:
        return False
    name = clip_name(accessible.name)
    if segment.name:
        return name.casefold() == segment.name.casefold()
    if segment.label:
        if name:
            return False
        label = read_label(accessible) or ""
        return label.casefold() == segment.label.casefold()
    # A segment recorded without a name: an unnamed element, or a container
    # that has since been given one (containers only group; their names rarely matter).
    return not name or segment.role in CONTAINER_ROLES


_x_connection = None


def _x():
    """One X connection per process, opened on first use and reopened if the
    server went away (opening one costs more than the query itself)."""
    global _x_connection
    from Xlib import display

    if _x_connection is None:
        _x_connection = display.Display(os.environ.get("DISPLAY"))
    return _x_connection


def _pids_with_class(app: str) -> set[int]:
    """Pids of X top-level windows whose WM_CLASS names this app."""
    global _x_connection
    try:
        from Xlib import X, error
    except ImportError:
        return set()
    pids: set[int] = set()
    try:
        connection = _x()
    except Exception:  # noqa: BLE001 - no X: fall back to names
        return pids
    try:
        pid_atom = connection.intern_atom("_NET_WM_PID")
        stack = list(connection.screen().root.query_tree().children)
        depth = {w.id: 0 for w in stack}
        while stack:
            window = stack.pop()
            try:
                wm_class = window.get_wm_class()
                if wm_class and app.casefold() in (c.casefold() for c in wm_class):
                    prop = window.get_full_property(pid_atom, X.AnyPropertyType)
                    if prop is not None and len(prop.value):
                        pids.add(int(prop.value[0]))
                elif depth[window.id] < 1:
                    for child in window.query_tree().children:
                        depth[child.id] = depth[window.id] + 1
                        stack.append(child)
            except error.XError:
                continue
    except (error.ConnectionClosedError, OSError):
        _x_connection = None  # reconnect next time
    return pids
