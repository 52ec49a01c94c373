"""The live accessibility tree as replay sees it: the application behind an
X window, that window's accessible, the elements a step may act on, and
what lies under a point.

All AT-SPI calls happen on the thread that runs the replay; they are bounded
by libatspi's call timeout (set once, below) so a hung application turns
into an escalation, not a hang. Resolving recorded paths is `tree_view`'s
job, over a cached view of one moment.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.a11y import Accessible
from core.a11y.screen import SCREEN, Placement, extents_to_screen
from core.a11y.toolkit import origin_for
from core.x11 import TopLevel

from .tree_view import LiveTreeError, TreeView

CALL_TIMEOUT_MS = 2000

# An accessible's Text interface (`queryText()`); untyped, as pyatspi is.
AtspiText = Any

__all__ = ["LiveElement", "LiveTreeError", "TreeView", "accessible_window", "application_of",
           "candidates", "describe", "element_at", "find_application", "full_text", "init",
           "main_window", "placement_of", "view_of"]


@dataclass(frozen=True, slots=True)
class LiveElement:
    """A live accessible with what replay needs to know about it."""

    accessible: Accessible
    role: str
    name: str
    label: str
    origin: Placement = SCREEN   # where its window's extents lie on the screen

    @property
    def display(self) -> str:
        return self.name or self.label

    def extents(self) -> tuple[int, int, int, int]:
        """Its rectangle on the screen."""
        import pyatspi

        box = self.accessible.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        return extents_to_screen(self.origin, (box.x, box.y, box.width, box.height))

    def center(self) -> tuple[int, int]:
        x, y, w, h = self.extents()
        return x + w // 2, y + h // 2

    def states(self) -> frozenset[str]:
        import pyatspi

        return frozenset(pyatspi.stateToString(s) for s in self.accessible.getState().getStates())

    def same_as(self, other: "LiveElement") -> bool:
        same: bool = self.accessible.path == other.accessible.path
        return same


_initialized = False


def init() -> None:
    """Set libatspi up for this process — after checking that its bus
    answers (libatspi kills the process with SIGTRAP when it does not, as
    after a bus launcher killed with -9): a one-line error instead."""
    global _initialized
    if _initialized:
        return
    from core.a11y.bus import AccessibilityBusError, ensure

    try:
        ensure()
    except AccessibilityBusError as exc:
        raise LiveTreeError(f"nothing was sent: {exc}") from None
    try:
        import pyatspi  # noqa: F401
        from gi.repository import Atspi
    except Exception as exc:  # noqa: BLE001
        raise LiveTreeError(f"AT-SPI bindings are not available: {exc}") from None
    Atspi.set_timeout(CALL_TIMEOUT_MS, 2 * CALL_TIMEOUT_MS)
    _initialized = True


def describe(accessible: Accessible, view: TreeView | None = None) -> LiveElement:
    view = view or TreeView(accessible)
    role, name, label = view.facts(accessible)
    return LiveElement(accessible, role, name, label, view.origin)


def _applications() -> list[Accessible]:
    init()
    import pyatspi

    try:
        desktop = pyatspi.Registry.getDesktop(0)
        apps = [desktop.getChildAtIndex(i) for i in range(desktop.childCount)]
    except Exception as exc:  # noqa: BLE001
        raise LiveTreeError(f"the accessibility bus is not reachable: {exc}") from None
    return [a for a in apps if a is not None]


def application_pids() -> set[int]:
    """The process ids of every application on the accessibility bus."""
    pids: set[int] = set()
    for app in _applications():
        try:
            pids.add(app.get_process_id())
        except Exception:  # noqa: BLE001 - a dying app
            continue
    return pids


def application_of(pid: int | None, name: str = "") -> Accessible | None:
    """The AT-SPI application of a process (else, when the window gave no
    pid, the one whose accessible name is `name`)."""
    apps = _applications()
    for candidate in apps:
        try:
            if pid is not None and candidate.get_process_id() == pid:
                return candidate
        except Exception:  # noqa: BLE001 - a dying app
            continue
    if pid is None and name:
        return next((a for a in apps if (a.name or "").casefold() == name.casefold()), None)
    return None


def find_application(app: str) -> Accessible | None:
    """The running AT-SPI application for an app name: by the pid of an X
    window with that WM_CLASS, else by the accessible name."""
    from .windows import XSession

    session = XSession()
    try:
        pids = {w.pid for w in session.app_windows(app) if w.pid is not None}
    finally:
        session.close()
    for pid in sorted(pids):
        application = application_of(pid)
        if application is not None:
            return application
    return application_of(None, app)


def main_window(application: Accessible) -> Accessible | None:
    """The application's active top-level window, else its first showing one."""
    import pyatspi

    windows = _top_levels(application)
    for window in windows:
        if window.getState().contains(pyatspi.STATE_ACTIVE):
            return window
    for window in windows:
        if window.getState().contains(pyatspi.STATE_SHOWING):
            return window
    return windows[0] if windows else None


def accessible_window(window: TopLevel) -> Accessible | None:
    """The accessible of an X top-level among its process's showing top-level
    accessibles: the only one; else the one named as the window is titled
    (GTK names a window's accessible after its title, unless a header bar
    shows another); else the one whose place and size are nearest the X
    window's."""
    import pyatspi

    application = application_of(window.pid, window.app)
    if application is None:
        return None
    windows = _top_levels(application)
    showing = [w for w in windows if w.getState().contains(pyatspi.STATE_SHOWING)] or windows
    if len(showing) <= 1:
        return showing[0] if showing else None
    named = [w for w in showing if (w.name or "") == window.title]
    if len(named) == 1:
        return named[0]

    def distance(accessible: Accessible) -> int:
        box = accessible.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        x, y, width, height = extents_to_screen(origin_for(accessible, window.x, window.y),
                                                (box.x, box.y, box.width, box.height))
        return abs(x - window.x) + abs(y - window.y) + abs(width - window.width) + abs(height - window.height)

    return min(named or showing, key=distance)


def full_text(text: AtspiText) -> str:
    """All of a Text interface's characters. The end offset is the character
    count, not -1: GTK 4 answers `getText(0, -1)` with an empty string."""
    characters: str = text.getText(0, max(text.characterCount, 0))
    return characters


def candidates(view: TreeView, role: str) -> list[LiveElement]:
    """Every showing element of a role in the view's window."""
    return [describe(accessible, view) for accessible in view.of_role(role)]


def element_at(x: int, y: int, window: Accessible, origin: Placement | None = None) -> LiveElement | None:
    """The element a click at a desktop point acts on (GTK answers one
    level per call; a label inside a button stands for the button).
    `origin` is the window's placement (`view_of`); without it, it is found
    — and when it cannot be, nothing is vouched to lie under the point."""
    from core.a11y.tree import clicked_element, hit_test

    if origin is None:
        origin = placement_of(window)
        if origin is None:
            return None
    chain = clicked_element(hit_test(window, x, y, origin=origin))
    if len(chain) < 2:
        return None
    return describe(chain[-1], TreeView(window, origin))


def view_of(window: TopLevel, accessible: Accessible) -> TreeView:
    """A view of an X window's accessible, placed on the screen as its
    toolkit needs (see core/a11y/screen.py)."""
    return TreeView(accessible, origin_for(accessible, window.x, window.y))


def placement_of(window: Accessible) -> Placement | None:
    """The placement of a top-level accessible's extents when only the
    accessible is at hand: SCREEN for a toolkit that reports screen
    extents, else the origin of the X window it shows in — its process's
    only one, else the one titled as it is named, else the one nearest its
    size; None when its process shows none."""
    import pyatspi

    from core.a11y.toolkit import window_relative

    from .windows import XSession

    if not window_relative(window):
        return SCREEN
    try:
        pid = window.get_application().get_process_id()
        name, box = window.name or "", window.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    except Exception:  # noqa: BLE001 - a dying application answers nothing
        return None
    session = XSession()
    try:
        mine = [w for w in session.top_levels() if w.pid == pid and not w.popup]
    finally:
        session.close()
    if not mine:
        return None
    titled = [w for w in mine if w.title == name] or mine
    nearest = min(titled, key=lambda w: abs(w.width - box.width) + abs(w.height - box.height))
    return Placement(nearest.x, nearest.y)


def _top_levels(application: Accessible) -> list[Accessible]:
    """An application's children are its top-level windows (a frame, a
    dialog — or, in Qt, a filler)."""
    count = application.childCount
    if count < 0:
        raise LiveTreeError("the application does not answer accessibility calls")
    windows = [application.getChildAtIndex(i) for i in range(count)]
    return [w for w in windows if w is not None]
