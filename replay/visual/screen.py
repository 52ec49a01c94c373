"""Seeing the program's window as it is now: its visible part grabbed with
mss (about a millisecond for a whole 1280×800 screen), in BGR as the
matcher takes it, with where it lies, how large the whole window and the
screen are.

A picture that would not be the window's is never matched: a window that
lies off-screen, or that another top-level window lies over (the X server
paints what is on top), or a screen that cannot be grabbed, is `Unseen`
with a one-line reason — the step escalates, nothing is clicked
(docs/VISUAL.md §4).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from core.errors import PhantomError
from core.geometry import Rect, intersect
from core.x11 import Atoms, TopLevel, XDisplay, top_levels


class Unseen(PhantomError):
    """The window's picture cannot be had; `covered` when another window lies over it."""

    def __init__(self, message: str, *, covered: bool = False) -> None:
        super().__init__(message)
        self.covered = covered


@dataclass(frozen=True, slots=True)
class Shot:
    """The visible part of a window (`pixels`, BGR) lying at `at` on the
    desktop; the whole window's and the screen's rectangles."""

    at: Rect
    window: Rect
    screen: Rect
    pixels: np.ndarray = field(compare=False, repr=False)


def grab(window: TopLevel, above: Sequence[TopLevel] = ()) -> Shot:
    """The window's picture now; `above` are the top-levels stacked over it."""
    import mss

    rect = (window.x, window.y, window.width, window.height)
    try:
        with mss.MSS() as grabber:
            root = grabber.monitors[0]
            screen = (root["left"], root["top"], root["width"], root["height"])
            visible = intersect(rect, screen)
            if visible is None:
                raise Unseen(f"{window.describe()} lies off-screen: there is nothing to look at")
            for other in above:
                if intersect((other.x, other.y, other.width, other.height), visible) is not None:
                    raise Unseen(f"{other.describe()} lies over {window.describe()}: its picture "
                                 "would not be the window's", covered=True)
            raw = grabber.grab({"left": visible[0], "top": visible[1], "width": visible[2],
                                "height": visible[3]})
    except Unseen:
        raise
    except Exception as exc:  # noqa: BLE001 - mss raises its own and XCB protocol errors
        raise Unseen(f"the screen cannot be grabbed ({exc.__class__.__name__}: {exc})") from None
    pixels = np.ascontiguousarray(np.asarray(raw)[:, :, :3])
    return Shot(visible, rect, screen, pixels)


def windows_above(connection: XDisplay, atoms: Atoms, window: TopLevel) -> list[TopLevel]:
    """The mapped top-levels stacked over `window` (X lists them bottom first)."""
    stack = top_levels(connection, atoms)
    ids = [w.window_id for w in stack]
    if window.window_id not in ids:
        return []
    return stack[ids.index(window.window_id) + 1:]


