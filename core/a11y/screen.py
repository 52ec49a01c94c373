"""Where a window's accessible extents lie on the screen: one conversion,
shared by capture (the walk's rows, the field masks, the click's hit test)
and replay (what it clicks, what lies under a point), on X11 and Wayland.

A window's extents start at its `Placement`: (0, 0) for a toolkit that
answers AT-SPI's desktop coordinates with desktop coordinates, the window's
top-left corner for one that answers relative to its window — GTK 4 on X11
(`toolkit.origin_for`), every client on Wayland, which knows no global
coordinates (`capturer.sources.wayland.extents`). Capture and replay must
move extents the same way: a path recorded with one conversion and clicked
with another lands beside its target, or on nothing.
"""

from __future__ import annotations

from typing import NamedTuple

from core.geometry import Rect


class Placement(NamedTuple):
    """What to add to a window's accessible extents to get screen ones. A
    two-int tuple, so it stands wherever an `(dx, dy)` origin is read."""

    x: int = 0
    y: int = 0


SCREEN = Placement()       # a toolkit whose extents already are screen ones


def extents_to_screen(window: tuple[int, int], extents: Rect) -> Rect:
    """An accessible's extents (x, y, width, height) on the screen, through
    its window's placement."""
    x, y, width, height = extents
    return x + window[0], y + window[1], width, height


def point_to_extents(window: tuple[int, int], x: int, y: int) -> tuple[int, int]:
    """A screen point in the coordinates the window's extents use."""
    return x - window[0], y - window[1]
