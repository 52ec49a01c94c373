"""Accessibility extents on Wayland: relative to the window, always.

A Wayland client does not know where its window is (there are no global
coordinates), so every toolkit's AT-SPI extents come back relative to its
own surface — the frame at (0, 0) — whatever coordinate type is asked for.
The compositor knows the window's place (sway's tree: `tree.content_origin`),
so the capture side moves extents onto the screen with it: the tree rows,
the text-field masks and hit tests then hold screen coordinates exactly as
on X11, and nothing downstream knows which session wrote them.
"""

from __future__ import annotations

from core.a11y import Accessible
from core.geometry import Rect

from ..base import WindowInfo


def extents_to_screen(extents: Rect, window: WindowInfo) -> Rect:
    """A window-relative rectangle on the screen, through the window's place."""
    x, y, width, height = extents
    return x + window.x, y + window.y, width, height


def wayland_origin(accessible: Accessible, window_x: int, window_y: int) -> tuple[int, int]:
    """What to add to any Wayland client's extents (`core.a11y.toolkit.origin_for`
    on X11 decides per toolkit; here every toolkit is window-relative)."""
    return window_x, window_y
