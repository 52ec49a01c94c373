"""Where a window's accessible extents lie on the screen: one conversion,
shared by capture (the walk's rows, the field masks, the click's hit test)
and replay (what it clicks, what lies under a point).

Most toolkits answer AT-SPI's desktop coordinates with desktop coordinates.
GTK 4 answers them relative to its window (`toolkit.window_relative`), so
its extents are moved by the X window's origin — and a desktop point is
moved back before it is compared with them. Capture and replay must move
them the same way: a path recorded with one conversion and clicked with
another lands beside its target, or on nothing.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

from . import Accessible
from .toolkit import window_relative

Rect = tuple[int, int, int, int]


class Placement(NamedTuple):
    """What to add to a window's accessible extents to get screen ones:
    the X window's origin for a window-relative toolkit, else (0, 0). A
    two-int tuple, so it stands wherever an `(dx, dy)` origin is read."""

    x: int = 0
    y: int = 0


SCREEN = Placement()       # a toolkit whose extents already are screen ones


class Placed(Protocol):
    """A top-level window as the display reports it (an X `TopLevel`, the
    capture's `WindowInfo`): where it is on the screen."""

    @property
    def x(self) -> int: ...

    @property
    def y(self) -> int: ...


def placement(accessible: Accessible, window: Placed) -> Placement:
    """The placement of `window`'s extents, read once from the toolkit of
    `accessible` (the window's accessible or any element of its
    application)."""
    return Placement(window.x, window.y) if window_relative(accessible) else SCREEN


def extents_to_screen(window: Placement, extents: Rect) -> Rect:
    """An accessible's extents (x, y, width, height) on the screen."""
    x, y, width, height = extents
    return x + window.x, y + window.y, width, height


def point_to_extents(window: Placement, x: int, y: int) -> tuple[int, int]:
    """A screen point in the coordinates the window's extents use."""
    return x - window.x, y - window.y
