"""What differs between toolkits in how they answer AT-SPI, in one place.

GTK 4 (gnome-calculator 43, gtk4-widget-factory; 4.8 on Debian 12) reports a
widget's extents relative to its window whatever coordinate type is asked
for, and marks its widgets `visible` but not `showing`. A point on the
desktop is therefore moved into the window's coordinates before it is
compared with GTK 4 extents, extents are moved back onto the desktop before
anything is clicked (both in `screen`), and `visible` stands in for
`showing` — for GTK 4 only:
in GTK 3 an inactive notebook page is visible and not showing, and must not
be hit.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from . import Accessible
from .screen import SCREEN, Placement

# What to add to an accessible's extents, given its window's top-left corner,
# to get desktop coordinates (`origin_for` on X11; every client's window
# corner on Wayland, `capturer.sources.wayland.extents`).
OriginRule = Callable[[Accessible, int, int], tuple[int, int]]


def toolkit_of(accessible: Accessible) -> tuple[str, str]:
    """(toolkit name, version) of the application an accessible belongs to."""
    try:
        application = accessible.get_application()
        return (application.get_toolkit_name() or "", application.get_toolkit_version() or "")
    except Exception:  # noqa: BLE001 - a dying application answers nothing
        return "", ""


def window_relative(accessible: Accessible) -> bool:
    """Whether the accessible's application reports window-relative extents."""
    name, version = toolkit_of(accessible)
    return _window_relative(name, version)


@lru_cache(maxsize=64)
def _window_relative(name: str, version: str) -> bool:
    return name.upper() == "GTK" and version.split(".", 1)[0] == "4"


def origin_for(accessible: Accessible, window_x: int, window_y: int) -> Placement:
    """Where this application's extents start on the desktop (X11): the
    X window's origin for a window-relative toolkit, else SCREEN."""
    return Placement(window_x, window_y) if window_relative(accessible) else SCREEN


def on_screen(accessible: Accessible, relaxed: bool) -> bool:
    """`showing`, or — for a toolkit that never sets it (`relaxed`) — `visible`."""
    import pyatspi

    states = accessible.getState()
    return states.contains(pyatspi.STATE_SHOWING) or (relaxed and states.contains(pyatspi.STATE_VISIBLE))
