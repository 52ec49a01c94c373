"""Which window receives a piece of input, asked the moment it arrives.

The rules' view of focus follows X events a few milliseconds behind the
input itself, and a key typed just before a click into another window is
handled in a batch after the click: the window that received each event must
be read when the event arrives, not when its batch is handled. The input
listener asks this probe from its own threads: for a key, the window that
has the keyboard (the window manager's `_NET_ACTIVE_WINDOW`, else the X
input focus climbed to its top-level client; the one under the pointer when
focus follows it); for a click or a scroll, the top-level window under the
event's point. One X connection with no event subscriptions (nothing
queues up on it) and a lock: pynput's keyboard and mouse listeners are two
threads. Each answer costs one or two round trips (well under a millisecond
on a local display, but a few hundred microseconds of Python each); the
climb from a focused child window to its top-level client is remembered for
`FRAME_CACHE_S`, since it is asked again for every key typed into it. A
window gone mid-question answers None.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from core.x11 import Atoms, XDisplay, XWindow, client_of

from .base import WindowInfo
from .x11 import window_info

# Frames (root children) map to the client window inside them for this long:
# a window manager keeps a client in one frame for the frame's life.
FRAME_CACHE_S = 5.0
# With no window manager the root has no _NET_ACTIVE_WINDOW; asking for it
# before every key is a wasted round trip, so its absence is believed this
# long (a window manager started meanwhile also moves the X input focus,
# which is read instead).
NO_WM_RECHECK_S = 2.0


def _remembered(cache: dict[int, tuple[float, int | None]], window_id: int,
                find: Callable[[], int | None]) -> int | None:
    """`find()`'s answer for a window, kept for `FRAME_CACHE_S` (at most
    256 windows; past that the cache starts again)."""
    now = time.monotonic()
    cached = cache.get(window_id)
    if cached is not None and now - cached[0] < FRAME_CACHE_S:
        return cached[1]
    found = find()
    if len(cache) > 256:
        cache.clear()
    cache[window_id] = (now, found)
    return found


class ReceiverProbe:
    def __init__(self, display_name: str | None = None) -> None:
        from Xlib import display

        self._display: XDisplay = display.Display(display_name)
        self._root = self._display.screen().root
        self._atoms = Atoms(self._display)
        self._lock = threading.Lock()
        self._frames: dict[int, tuple[float, int | None]] = {}
        self._climbs: dict[int, tuple[float, int | None]] = {}
        self._no_wm_since: float | None = None

    def close(self) -> None:
        with self._lock:
            try:
                self._display.close()
            except Exception:  # noqa: BLE001 - closing a dead connection
                pass

    def keyboard_window(self) -> int | None:
        """The client window that has the keyboard now."""
        from Xlib import X

        with self._lock:
            try:
                now = time.monotonic()
                prop = None
                if self._no_wm_since is None or now - self._no_wm_since >= NO_WM_RECHECK_S:
                    prop = self._root.get_full_property(self._atoms["_NET_ACTIVE_WINDOW"], X.AnyPropertyType)
                    self._no_wm_since = now if prop is None else None
                if prop is not None:       # a window manager says which window is active
                    return int(prop.value[0]) if len(prop.value) and prop.value[0] else None
                focus = self._display.get_input_focus().focus
                if isinstance(focus, int) or focus.id == self._root.id:
                    # PointerRoot, or the root window focus fell back to: the
                    # keyboard goes to the window under the pointer.
                    if isinstance(focus, int) and focus != X.PointerRoot:
                        return None
                    frame = self._root.query_pointer().child
                    return self._client_in(frame) if frame else None
                return self._climbed(focus)
            except Exception:  # noqa: BLE001 - a window gone mid-question, a lost display
                return None

    def window_at(self, x: int, y: int) -> int | None:
        """The client window shown at a root point (the topmost there)."""
        with self._lock:
            try:
                frame = self._root.translate_coords(self._root, int(x), int(y)).child
                return self._client_in(frame) if frame else None
            except Exception:  # noqa: BLE001
                return None

    def describe(self, window_id: int) -> WindowInfo | None:
        """What a click's hit test needs of the window under it, read at once
        (its generation is not known here: 0)."""
        with self._lock:
            try:
                window = self._display.create_resource_object("window", window_id)
                return window_info(window, self._root, self._atoms)
            except Exception:  # noqa: BLE001 - gone mid-question
                return None

    def _client_in(self, frame: XWindow) -> int | None:
        def find() -> int | None:
            client = client_of(frame)
            return int(client.id) if client is not None else None

        return _remembered(self._frames, frame.id, find)

    def _climbed(self, focus: XWindow) -> int | None:
        """`_climb`, remembered per focus window (a child window stays
        inside its top-level for its life; the time bound covers an id
        reused after it was destroyed)."""
        return _remembered(self._climbs, focus.id, lambda: self._climb(focus))

    def _climb(self, window: XWindow) -> int | None:
        """From a focus window (often a child) up to its top-level client."""
        for _ in range(32):
            if window.get_wm_class() is not None:
                return int(window.id)
            parent = window.query_tree().parent
            if not parent or parent.id == self._root.id:
                return self._client_in(window)
            window = parent
        return None
