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
from core.a11y.screen import Placement


def wayland_origin(accessible: Accessible, window_x: int, window_y: int) -> Placement:
    """What to add to any Wayland client's extents (`core.a11y.toolkit.origin_for`
    on X11 decides per toolkit; here every toolkit is window-relative); the
    move itself is `core.a11y.screen.extents_to_screen`, as on X11."""
    return Placement(window_x, window_y)
