"""Windows, focus, titles and monitors of a sway session, from its IPC.

sway says everything capture needs as events on a subscribed connection
(`window` focus/title/new/close, `workspace` focus, `output`), whose
descriptor the capture loop watches as it watches the X connection; an
event only says "look again", and a GET_TREE answer is what decides. That
answer is kept until the next event (or for at most `TREE_MAX_AGE_S`, for
the daemon's safety-net poll), so a burst of questions about one moment
costs one round trip. sway closing its socket (it exited) is `DisplayLost`,
as the X server going is: the supervisor waits for it to answer again.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from core.geometry import Rect, intersect
from core.wayland.ipc import SwayEvents, SwayIpc, SwayUnavailable

from ..base import DisplayLost, Monitor, WindowInfo
from . import tree as sway_tree

TREE_MAX_AGE_S = 0.5
# sway 1.7 refuses to subscribe to `output` events (a changed layout is read at reconnect).
SUBSCRIBED = ("window", "workspace", "shutdown")
_FOCUS_CHANGES = frozenset({"focus", "new", "close", "move", "floating", "fullscreen_mode", "urgent"})


class SwaySource:
    """Two IPC connections (requests, events), used only from the loop thread."""

    def __init__(self, swaysock: str, *, clock: Any = time.monotonic) -> None:
        self.display_name = swaysock
        self._clock = clock
        try:
            self._ipc = SwayIpc(swaysock)
            try:
                self._events = SwayEvents(SUBSCRIBED, swaysock)
            except SwayUnavailable:
                self._ipc.close()
                raise
        except SwayUnavailable as exc:
            raise DisplayLost(str(exc)) from None
        self._fd = self._events.fileno()
        self._tree: dict[str, Any] | None = None
        self._tree_at = 0.0

    def fileno(self) -> int:
        return self._fd

    def close(self) -> None:
        self._ipc.close()
        self._events.close()

    # -- focus ------------------------------------------------------------------
    def focused_window_id(self) -> int | None:
        view = sway_tree.focused(self._current_tree())
        return view.info.window_id if view is not None else None

    def describe(self, window_id: int) -> WindowInfo | None:
        view = self._view(window_id)
        return view.info if view is not None else None

    def watch_title(self, window_id: int | None) -> None:
        """Nothing to ask for: every window's title changes arrive as events."""

    def drain_events(self) -> set[str]:
        try:
            events = self._events.read()
        except SwayUnavailable as exc:
            raise DisplayLost(str(exc)) from None
        changes: set[str] = set()
        for name, body in events:
            change = str(body.get("change") or "")
            if name == "shutdown":
                raise DisplayLost("sway is shutting down")
            if name == "window" and change == "title":
                changes.add("title")
            elif name == "window" and change in _FOCUS_CHANGES:
                changes.add("focus")
                if change in ("new", "close"):
                    changes.add("structure")
            elif name == "workspace" and change in ("focus", "init", "empty", "move"):
                changes.add("focus")
            elif name == "output":
                changes.update(("focus", "structure"))
        if events:
            self._tree = None   # what was known is older than what was said
        return changes

    def visible_windows(self, within: Rect | None = None) -> list[WindowInfo]:
        """Windows sway shows now, each with its title bar and border (what a
        picture must hide of an excluded one), on visible workspaces only."""
        found = []
        for view in sway_tree.views(self._current_tree()):
            if not view.visible or view.output == sway_tree.SCRATCHPAD:
                continue
            if within is not None and intersect(within, view.outer) is None:
                continue
            # The outer rectangle, as X11's frames: sway's title bar shows the title.
            x, y, width, height = view.outer
            found.append(replace(view.info, x=x, y=y, width=width, height=height))
        return found

    def window_alive(self, window_id: int) -> bool:
        return self._view(window_id, fresh=True) is not None

    # -- monitors -----------------------------------------------------------------
    def monitors(self) -> tuple[Monitor, ...]:
        found = sway_tree.monitors(self._ask(self._ipc.outputs))
        if not found:
            raise DisplayLost("sway reports no active output")
        return found

    def output_of(self, window_id: int) -> str | None:
        view = self._view(window_id)
        return view.output if view is not None else None

    # -- internals ----------------------------------------------------------------
    def _view(self, window_id: int, *, fresh: bool = False) -> sway_tree.View | None:
        if fresh:
            self._tree = None
        return next((v for v in sway_tree.views(self._current_tree()) if v.info.window_id == window_id), None)

    def _current_tree(self) -> dict[str, Any]:
        now = self._clock()
        if self._tree is None or now - self._tree_at > TREE_MAX_AGE_S:
            self._tree = self._ask(self._ipc.tree)
            self._tree_at = now
        return self._tree

    def _ask(self, request: Any) -> Any:
        try:
            return request()
        except SwayUnavailable as exc:
            raise DisplayLost(str(exc)) from None


def answers(swaysock: str) -> bool:
    """Whether sway's IPC socket takes a connection (cheap: one connect)."""
    import socket

    if not swaysock:
        return False
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(0.5)
    try:
        probe.connect(swaysock)
        return True
    except OSError:
        return False
    finally:
        probe.close()
