"""The focused window, its title and the monitor layout, from python-xlib.

Focus changes are watched as X events, not polled: FocusIn/FocusOut and
EnterNotify (focus follows the pointer when no window manager runs) on every
top-level window, new top-levels through SubstructureNotify on the root, and
`_NET_ACTIVE_WINDOW` when a window manager provides it. An event only says
"look again"; `focused_window_id` is what decides. The daemon still checks
slowly as a safety net. Title changes of the focused window arrive as
PropertyNotify. Any sign that the X server went away is raised as
`DisplayLost`; a window that vanishes mid-query is simply "no window".
"""

from __future__ import annotations

import os
from dataclasses import replace
from types import TracebackType
from typing import Literal

from Xlib import X, Xatom, display, error

from core.geometry import Rect, intersect
from core.x11 import Atoms, XDisplay, XWindow, app_name, client_of, executable_of, owner_app, pid_of, title_of

from .base import DisplayLost, Monitor, WindowInfo

__all__ = ["DisplayLost", "Monitor", "WindowInfo", "X11Source"]


_FOCUS_MASK = X.FocusChangeMask | X.EnterWindowMask
_X_ERRORS = (error.BadWindow, error.BadDrawable, error.BadMatch, error.BadValue, error.BadAtom)


class X11Source:
    """One connection to the X server, used only from the daemon's loop thread."""

    def __init__(self, display_name: str | None = None) -> None:
        name = display_name if display_name is not None else os.environ.get("DISPLAY")
        if not name:
            raise DisplayLost("DISPLAY is not set; Phantom captures an X11 session")
        try:
            self._display: XDisplay = display.Display(name)
        except (error.DisplayError, error.ConnectionClosedError, OSError) as exc:
            raise DisplayLost(f"cannot connect to X display {name}: {exc}") from None
        self.display_name = name
        # Kept: python-xlib raises from fileno() once the server is gone, and
        # the loop still needs the number to stop watching it.
        self._fd: int = self._display.fileno()
        self._root = self._display.screen().root
        self._atoms = Atoms(self._display)
        self._watched: int | None = None
        self._client_cache: dict[int, int] = {}
        # Root child (a window manager's frame, or the client itself) -> the
        # client in it: a frame holds one client for its life. Only found
        # clients are kept (a frame may be asked before its client is put in).
        self._frame_clients: dict[int, int] = {}
        # X reuses window ids: each id's generation goes up when a window with
        # that id is created or destroyed (clients are created as children of
        # the root, before any window manager reparents them).
        self._generations: dict[int, int] = {}
        self._masks: dict[int, int] = {}
        self._root.change_attributes(event_mask=X.PropertyChangeMask | X.SubstructureNotifyMask)
        with self._guard():
            for top in self._root.query_tree().children:
                self._add_mask(top.id, _FOCUS_MASK)
        self._display.flush()
        # With a window manager, `_NET_ACTIVE_WINDOW` is authoritative and
        # arrives as an event; without one, input focus is polled.
        self._wm_active = self._root.get_full_property(
            self._atoms["_NET_ACTIVE_WINDOW"], X.AnyPropertyType) is not None

    def fileno(self) -> int:
        return self._fd

    def close(self) -> None:
        try:
            self._display.close()
        except Exception:  # noqa: BLE001 - closing a dead connection may fail; nothing to do
            pass

    # -- focus ------------------------------------------------------------------
    def focused_window_id(self) -> int | None:
        """Id of the client window holding input focus (or the WM's active
        window). One round trip in the common case: the climb from a focus
        child to its top-level is cached, so polling this stays cheap."""
        with self._guard():
            if self._wm_active:
                return self._active_window_id()
            focus = self._display.get_input_focus().focus
            if (isinstance(focus, int) and focus == X.PointerRoot) or getattr(focus, "id", None) == self._root.id:
                # Focus follows the pointer (X's default without a window
                # manager), or focus fell back to the root window when its
                # window went: either way the keyboard goes to the window under it.
                focus = self._display.screen().root.query_pointer().child
                if not focus:
                    return None
            elif isinstance(focus, int) or focus is None:  # None
                return None
            cached = self._client_cache.get(focus.id)
            if cached is None:
                client = self._client_of(focus)
                cached = client.id if client is not None else 0
                if len(self._client_cache) > 512:
                    self._client_cache.clear()
                self._client_cache[focus.id] = cached
            return cached or None

    def describe(self, window_id: int) -> WindowInfo | None:
        """Class, title, pid and geometry of a client window (None if it vanished)."""
        with self._guard():
            try:
                return self._describe(self._display.create_resource_object("window", window_id))
            except _X_ERRORS:
                self._client_cache.clear()
                return None

    def focused_window(self) -> WindowInfo | None:
        window_id = self.focused_window_id()
        return self.describe(window_id) if window_id else None

    def watch_title(self, window_id: int | None) -> None:
        """Receive PropertyNotify for this window's title (and stop for the last one)."""
        if window_id == self._watched:
            return
        with self._guard():
            if self._watched is not None:
                self._remove_mask(self._watched, X.PropertyChangeMask)
            if window_id is not None:
                self._add_mask(window_id, X.PropertyChangeMask)
            self._display.flush()
        self._watched = window_id

    def _add_mask(self, window_id: int, mask: int) -> None:
        self._set_mask(window_id, self._masks.get(window_id, 0) | mask)

    def _remove_mask(self, window_id: int, mask: int) -> None:
        self._set_mask(window_id, self._masks.get(window_id, 0) & ~mask)

    def _set_mask(self, window_id: int, mask: int) -> None:
        """Event masks are per client and per window; keep ours in one place
        so watching a title does not stop watching focus, or the reverse."""
        try:
            self._display.create_resource_object("window", window_id).change_attributes(
                event_mask=mask)
            self._masks[window_id] = mask
        except _X_ERRORS:
            self._masks.pop(window_id, None)

    def has_events(self) -> bool:
        """True when the X connection has bytes or queued events to read;
        a cheap check that avoids python-xlib's locking on the common path."""
        import select

        if self._display.display.event_queue:
            return True
        with self._guard():
            readable, _, _ = select.select([self._display.fileno()], [], [], 0)
        return bool(readable)

    def drain_events(self) -> set[str]:
        """Read pending events; return which kinds of change they signal:
        'focus' (focus may have moved), 'title' (the watched window's title)."""
        changes: set[str] = set()
        with self._guard():
            while self._display.pending_events():
                event = self._display.next_event()
                kind = event.type
                if kind in (X.FocusIn, X.FocusOut, X.EnterNotify):
                    changes.add("focus")
                elif kind == X.PropertyNotify:
                    if event.atom == self._atoms["_NET_ACTIVE_WINDOW"]:
                        changes.add("focus")
                    elif event.atom in (self._atoms["_NET_WM_NAME"], Xatom.WM_NAME):
                        changes.add("title")
                elif kind in (X.CreateNotify, X.MapNotify, X.ReparentNotify):
                    if kind == X.ReparentNotify:
                        self._frame_clients.clear()
                    if getattr(event, "parent", self._root).id == self._root.id:
                        self._add_mask(event.window.id, _FOCUS_MASK)
                    if kind == X.CreateNotify:
                        self._new_generation(event.window.id)
                        changes.add("structure")
                    changes.add("focus")
                elif kind in (X.DestroyNotify, X.UnmapNotify):
                    self._masks.pop(event.window.id, None)
                    self._client_cache.pop(event.window.id, None)
                    self._frame_clients.pop(event.window.id, None)
                    if kind == X.DestroyNotify:
                        self._new_generation(event.window.id)
                    changes.update(("focus", "structure"))
        return changes

    def visible_windows(self, within: Rect | None = None) -> list[WindowInfo]:
        """Every mapped top-level client window (for redacting excluded ones
        out of screenshots), or only those overlapping `within` (a click's
        crop region): a window elsewhere on the desktop is not described at
        all, which saves the several round trips a description costs."""
        found = []
        with self._guard():
            for top in self._root.query_tree().children:
                try:
                    # Geometry first: most root children (toolkits' hidden
                    # helper windows among them) lie outside a click's grab.
                    geometry = top.get_geometry()
                    # The outer rectangle: a window manager that draws X
                    # borders instead of frames (dwm, bspwm) puts the border
                    # outside width × height, and the content inside it.
                    border = 2 * geometry.border_width
                    outer = (geometry.x, geometry.y, geometry.width + border, geometry.height + border)
                    if within is not None and intersect(within, outer) is None:
                        continue
                    if top.get_attributes().map_state != X.IsViewable:
                        continue
                    client = self._frame_client(top)
                    if client is None:
                        continue
                    info = self._describe(client)
                    found.append(replace(info, x=outer[0], y=outer[1], width=outer[2], height=outer[3]))
                except _X_ERRORS:
                    continue
        return found

    def window_alive(self, window_id: int) -> bool:
        with self._guard():
            try:
                self._display.create_resource_object("window", window_id).get_attributes()
                return True
            except _X_ERRORS:
                return False

    # -- monitors -----------------------------------------------------------------
    def monitors(self) -> tuple[Monitor, ...]:
        """RandR monitors, or the whole screen when RandR has none to offer."""
        with self._guard():
            try:
                reply = self._root.xrandr_get_monitors(is_active=True)
                found = []
                for index, info in enumerate(sorted(reply.monitors, key=lambda m: (m.x, m.y))):
                    name = self._display.get_atom_name(info.name) if info.name else f"monitor-{index}"
                    found.append(Monitor(index, name, info.x, info.y, info.width_in_pixels,
                                         info.height_in_pixels, bool(info.primary)))
                if found:
                    return tuple(found)
            except (AttributeError, error.XError):
                pass
            screen = self._display.screen()
            return (Monitor(0, "screen", 0, 0, screen.width_in_pixels, screen.height_in_pixels, True),)

    # -- internals ----------------------------------------------------------------
    def _guard(self) -> _ConnectionGuard:
        return _ConnectionGuard(self.display_name)

    def _active_window_id(self) -> int | None:
        prop = self._root.get_full_property(self._atoms["_NET_ACTIVE_WINDOW"], X.AnyPropertyType)
        if prop is None or not prop.value or not prop.value[0]:
            return None
        return int(prop.value[0])

    def _frame_client(self, top: XWindow) -> XWindow | None:
        """The client window in a root child (cached: see `_frame_clients`)."""
        cached = self._frame_clients.get(top.id)
        if cached is not None:
            return self._display.create_resource_object("window", cached)
        client = client_of(top)
        if client is not None:
            if len(self._frame_clients) > 512:
                self._frame_clients.clear()
            self._frame_clients[top.id] = client.id
        return client

    def _client_of(self, window: XWindow) -> XWindow | None:
        """Climb from a (possibly child) window to the top-level with WM_CLASS."""
        try:
            for _ in range(32):
                if window.get_wm_class() is not None:
                    return window
                parent = window.query_tree().parent
                # The root window's parent comes back as the number 0, not a window.
                if getattr(parent, "id", 0) in (0, self._root.id):
                    return None
                window = parent
        except _X_ERRORS:
            return None
        return None

    def _new_generation(self, window_id: int) -> None:
        if len(self._generations) > 4096:   # forget the oldest ids first
            for old in list(self._generations)[:1024]:
                del self._generations[old]
        self._generations[window_id] = self._generations.get(window_id, 0) + 1

    def _describe(self, window: XWindow) -> WindowInfo:
        return window_info(window, self._root, self._atoms, self._generations.get(window.id, 0))


def window_info(window: XWindow, root: XWindow, atoms: Atoms, generation: int = 0) -> WindowInfo:
    """A client window as capture records it: class, title, process and place
    (read at once; the caller turns a window gone mid-read into no window)."""
    instance, klass = window.get_wm_class() or ("", "")
    title = title_of(window, atoms)
    pid = pid_of(window, atoms)
    executable = executable_of(pid)
    geometry = window.get_geometry()
    origin = window.translate_coords(root, 0, 0)
    app = owner_app(window, atoms, pid) or app_name(instance, klass, executable)
    return WindowInfo(window_id=window.id, app=app,
                      wm_class=f"{instance}.{klass}", pid=pid, executable=executable, title=title,
                      x=-origin.x, y=-origin.y, width=geometry.width, height=geometry.height,
                      generation=generation)


class _ConnectionGuard:
    """Turns the ways python-xlib reports a dead server into DisplayLost."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 _tb: TracebackType | None) -> Literal[False]:
        if kind is None:
            return False
        if issubclass(kind, (error.ConnectionClosedError, BrokenPipeError, ConnectionResetError,
                             EOFError)) or (issubclass(kind, OSError) and not issubclass(kind, TimeoutError)):
            raise DisplayLost(f"lost the X display {self._name}: {value}") from None
        return False
