"""Rectangles on the desktop, as capture, the crops and replay all use them:
(x, y, width, height) in desktop pixels."""

from __future__ import annotations

Rect = tuple[int, int, int, int]


def intersect(a: Rect, b: Rect) -> Rect | None:
    """The part two rectangles share, or None when they do not overlap."""
    left, top = max(a[0], b[0]), max(a[1], b[1])
    right, bottom = min(a[0] + a[2], b[0] + b[2]), min(a[1] + a[3], b[1] + b[3])
    return (left, top, right - left, bottom - top) if right > left and bottom > top else None
