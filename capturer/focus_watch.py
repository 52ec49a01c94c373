"""Watching focus and titles on the X connection.

X events only say "look again"; what X then reports as focused decides. A
slow poll (`focus_poll_ms`) is the safety net under the events: on this
class of machine every wakeup of the loop costs a third of a millisecond, so
a fast poll alone would cost more than capture itself. Checks are
coalesced: one task at a time works through what piled up, and tells the
rules what it found (`FocusMoved`, `TitleSeen`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from core.clock import now_ms

from .decide import CaptureState, FocusMoved, Observation, TitleSeen, is_new_focus, same_window
from .sources.base import DisplayLost, WindowInfo
from .supervisor import DisplaySupervisor

log = logging.getLogger(__name__)


class FocusWatch:
    """`state()` is the rules' current state; `observe` shows them what
    a check found and performs what they decide."""

    def __init__(self, display: DisplaySupervisor, state: Callable[[], CaptureState],
                 observe: Callable[[Observation], Awaitable[None]]) -> None:
        self._display = display
        self._state = state
        self._observe = observe
        self._pending: set[str] = set()
        self._task: asyncio.Task[None] | None = None

    def readable(self) -> None:
        """The X connection has data: read it and react to what it says."""
        windows = self._display.windows
        if windows is None:
            return
        try:
            changes = windows.drain_events()
        except DisplayLost as exc:
            self._display.lost(str(exc))
            return
        if changes:
            self.request(changes)

    def request(self, changes: set[str]) -> None:
        """Look at focus ('poll', 'focus') or the focused window's title
        ('title') soon; nothing is looked at while paused."""
        if self._display.windows is None or self._state().paused:
            return
        self._pending |= changes
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._check())

    def focused_window(self) -> WindowInfo | None:
        """The focused window as X describes it now (None: none, or no display)."""
        windows = self._display.windows
        if windows is None:
            return None
        window_id = windows.focused_window_id()
        return windows.describe(window_id) if window_id else None

    async def _check(self) -> None:
        while self._pending and self._display.windows is not None and not self._state().paused:
            changes, self._pending = self._pending, set()
            try:
                await self._look(changes)
                windows = self._display.windows
                if windows is not None:
                    # Requests above may have queued events without the
                    # socket becoming readable again.
                    self._pending |= windows.drain_events()
                    self._pending.discard("poll")
            except DisplayLost as exc:
                self._display.lost(str(exc))
            except Exception:  # noqa: BLE001 - one bad check must not end capture
                log.exception("focus check failed")

    async def _look(self, changes: set[str]) -> None:
        """Another window has focus; or — after windows were created or
        destroyed — the focused id now belongs to another client (X reuses
        ids: a password manager may open under the id of a closed editor);
        or the focused window's title changed."""
        windows = self._display.windows
        if windows is None:
            return   # `_check` looks only while the display is up
        window_id = windows.focused_window_id()
        state = self._state()
        focus = state.focus
        if is_new_focus(state, window_id):
            window = windows.describe(window_id) if window_id else None
            await self._observe(FocusMoved(now_ms(), window_id, window))
        elif focus is not None and changes & {"title", "structure"}:
            window = windows.describe(focus.window_id)
            if window is None:
                return
            if not same_window(focus, window):
                await self._observe(FocusMoved(now_ms(), window_id, window))
            elif "title" in changes:
                await self._observe(TitleSeen(now_ms(), window))
