"""Writing the snapshots the rules ask for (`WriteSnapshot`): the focused
window's accessibility context (tree, URL) if the worker answers within
80 ms, a thumbnail when one is due, and the row. What the worker answered
goes back to the rules (an unreadable window is a blind spot), and so does
a window that has gone before its heartbeat. A URL is stored only as
`sanitize_url` leaves it: no credentials, no parameter or fragment that no
page parser reads.

Every input row names the snapshot of the window that received it, so a
snapshot's id is taken the moment the rules ask for it (`reserve`), before
the accessibility wait, and the latest submitted id per window is kept:
an input row never names a snapshot row the writer has not been given."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace

from core.clock import now_ms, zone_at
from core.store import Replace, SnapshotRow, StoreWriter
from core.urls import sanitize_url

from .decide import AccessibilityAnswer, Observation, WindowGone, WriteSnapshot
from .pictures import Pictures
from .sources.base import A11yContext, AccessibilitySource, WindowInfo, await_answer
from .supervisor import DisplaySupervisor

A11Y_CONTEXT_BUDGET_S = 0.08
# Readers should see a change of window within milliseconds, not at the
# writer's next commit.
URGENT_TRIGGERS = ("focus", "title", "input")
# Windows whose latest snapshot id is remembered.
REMEMBERED_WINDOWS = 128
WindowKey = tuple[int, int, "int | None"]   # WindowInfo.key: X id, generation, pid


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
        # window key -> (snapshot id, its time)
        self._submitted: OrderedDict[WindowKey, tuple[int, int]] = OrderedDict()
        self._pending: dict[WindowKey, asyncio.Event] = {}

    def reserve(self, op: WriteSnapshot) -> int:
        """Take the snapshot's id now; `write(op, id)` writes it."""
        self._pending.setdefault(op.window.key, asyncio.Event())
        return self._writer.ids.next("snapshots")

    def submitted_id(self, window: WindowInfo | None) -> int | None:
        """The id of the latest snapshot row of `window` the writer was given."""
        submitted = self._submitted.get(window.key) if window is not None else None
        return submitted[0] if submitted is not None else None

    def forget(self, since_ms: int, until_ms: int) -> None:
        """Snapshots taken in [since, until) are being forgotten: no input
        row may name them from now on (until the window's next snapshot)."""
        for key, (_, ts) in list(self._submitted.items()):
            if since_ms <= ts < until_ms:
                del self._submitted[key]

    async def id_for(self, window: WindowInfo, budget: float) -> int | None:
        """`submitted_id`, after waiting up to `budget` for a snapshot of
        `window` that is being written."""
        pending = self._pending.get(window.key)
        if pending is not None:
            try:
                await asyncio.wait_for(pending.wait(), budget)
            except asyncio.TimeoutError:
                pass
        return self.submitted_id(window)

    async def write(self, op: WriteSnapshot, snapshot_id: int | None = None) -> None:
        if snapshot_id is None:
            snapshot_id = self.reserve(op)
        try:
            await self._write(op, snapshot_id)
        finally:
            event = self._pending.pop(op.window.key, None)
            if event is not None:
                event.set()

    async def _write(self, op: WriteSnapshot, snapshot_id: int) -> None:
        window = op.window
        completion: list[SnapshotRow] = []   # the row, for a late context to complete
        if op.focused:
            context = await self._context(window, completion)
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
            self._observe(AccessibilityAnswer(now, window, context.status, since_ms=context.since_ms,
                                              detail=context.detail))
        screenshot = self._pictures.thumbnail(op.monitor, now, window if op.focused else None)
        offset, zone = zone_at(now)
        row = SnapshotRow(
            id=snapshot_id, ts_ms=now, utc_offset_min=offset, tz_name=zone,
            monitor=op.monitor.index, trigger=op.trigger, app=window.app, wm_class=window.wm_class,
            pid=window.pid, executable=window.executable, title=window.title,
            url=sanitize_url(context.url),
            idle=int(op.idle), focused=int(op.focused), screenshot=screenshot, tree_id=context.tree_id,
            window_id=window.window_id)
        self._writer.submit(row, urgent=op.trigger in URGENT_TRIGGERS)
        completion.append(row)
        self._submitted[window.key] = (snapshot_id, now)
        self._submitted.move_to_end(window.key)
        while len(self._submitted) > REMEMBERED_WINDOWS:
            self._submitted.popitem(last=False)
        self.written += 1

    async def _context(self, window: WindowInfo, completion: list[SnapshotRow]) -> A11yContext:
        future = self._a11y.context(window)
        context = await await_answer(future, A11Y_CONTEXT_BUDGET_S, None)
        if context is not None:
            return context

        # Too slow for this snapshot (a browser's first walk takes 250 ms);
        # the late answer still goes to the rules (a hung or inaccessible
        # window that still has focus is a blind spot), and a late tree or
        # page URL completes the snapshot row it was asked for.
        def late(done: Future[A11yContext]) -> None:
            result = done.result() if not done.cancelled() else None
            if result is None:
                return
            self._observe(AccessibilityAnswer(now_ms(), window, result.status, late=True,
                                              since_ms=result.since_ms, detail=result.detail))
            if result.status == "ok" and completion and (result.url or result.tree_id):
                row = completion[0]
                self._writer.submit(Replace(replace(row, url=sanitize_url(result.url), tree_id=result.tree_id)),
                                    urgent=True)

        future.add_done_callback(lambda done: self._loop.call_soon_threadsafe(late, done))
        return A11yContext("slow")
