"""Writing the snapshots the rules ask for (`WriteSnapshot`): the focused
window's accessibility context (tree, URL) if the worker answers within
80 ms, a thumbnail when one is due, and the row. What the worker answered
goes back to the rules (an unreadable window is a blind spot), and so does
a window that has gone before its heartbeat. A URL is stored only as
`sanitize_url` leaves it: no credentials, no parameter or fragment that no
page parser reads."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Future

from core.clock import now_ms, zone_at
from core.store import SnapshotRow, StoreWriter
from core.urls import sanitize_url

from .decide import AccessibilityAnswer, Observation, WindowGone, WriteSnapshot
from .pictures import Pictures
from .sources.base import A11yContext, AccessibilitySource, WindowInfo, await_answer
from .supervisor import DisplaySupervisor

A11Y_CONTEXT_BUDGET_S = 0.08
# Readers should see a change of window within milliseconds, not at the
# writer's next commit.
URGENT_TRIGGERS = ("focus", "title")


class SnapshotWriter:
    """`observe(observation)` hands what a snapshot learned back to the rules."""

    def __init__(self, writer: StoreWriter, display: DisplaySupervisor, a11y: AccessibilitySource,
                 pictures: Pictures, observe: Callable[[Observation], None],
                 loop: asyncio.AbstractEventLoop) -> None:
        self._writer = writer
        self._display = display
        self._a11y = a11y
        self._pictures = pictures
        self._observe = observe
        self._loop = loop
        self.written = 0

    async def write(self, op: WriteSnapshot) -> None:
        window = op.window
        if op.focused:
            context = await self._context(window)
        else:
            windows = self._display.windows
            if windows is None:
                return  # the display went while this waited its turn
            if not windows.window_alive(window.window_id):
                self._observe(WindowGone(now_ms(), window))
                return
            context = A11yContext("disabled")
        now = now_ms()
        if op.focused:
            self._observe(AccessibilityAnswer(now, window, context.status))
        screenshot = self._pictures.thumbnail(op.monitor, now)
        offset, zone = zone_at(now)
        row = SnapshotRow(
            id=self._writer.ids.next("snapshots"), ts_ms=now, utc_offset_min=offset, tz_name=zone,
            monitor=op.monitor.index, trigger=op.trigger, app=window.app, wm_class=window.wm_class,
            pid=window.pid, executable=window.executable, title=window.title,
            url=sanitize_url(context.url),
            idle=int(op.idle), focused=int(op.focused), screenshot=screenshot, tree_id=context.tree_id)
        self._writer.submit(row, urgent=op.trigger in URGENT_TRIGGERS)
        self.written += 1

    async def _context(self, window: WindowInfo) -> A11yContext:
        future = self._a11y.context(window)
        context = await await_answer(future, A11Y_CONTEXT_BUDGET_S, None)
        if context is not None:
            return context

        # Too slow for this snapshot; the late answer still goes to the rules
        # (a hung or inaccessible window that still has focus is a blind spot).
        def late(done: Future) -> None:
            result = done.result() if not done.cancelled() else None
            if result is not None:
                self._observe(AccessibilityAnswer(now_ms(), window, result.status, late=True))

        future.add_done_callback(lambda done: self._loop.call_soon_threadsafe(late, done))
        return A11yContext("slow")
