"""The input path: from the listener threads' raw events to input rows.

Keys and scrolls are queued and handled in batches at most `INPUT_BATCH_S`
later (they carry their own timestamps and the window that received them,
read by the listener the moment they arrived); a click wakes the loop at
once, because its hit test must see the screen as it was clicked. Each event
is shown to the rules (`InputSeen`), which say whether it is counted, as
input to which window (`CountInput`), and whether that window needs a
snapshot first. The input counter turns counted events into bursts and runs;
they are written while they grow (checkpoints) and when they close, each
naming its window's snapshot. A click is a row of its own, with crops of
the screen around it (its visual evidence, `pictures.py`, in the window
under the pointer) and the element under it — hit-tested in the tree of the
application that owns that window, never in another window's cached tree —
inline.

A `kill -9` loses at most one second of input, always: a key waits at most
`INPUT_BATCH_S` to be counted, a growing burst is checkpointed every
`CHECKPOINT_INTERVAL_S` (committed at once), a closed one is committed
within `INPUT_COMMIT_S` (before its field is known, if that takes long),
and a click's row is written the moment it is handled and rewritten when
its hit test answers — 0.1 + 0.4 + a commit, measured at 0.6–0.8 s.
"""

from __future__ import annotations

import asyncio
import collections
import logging
from collections.abc import Callable
from dataclasses import replace

from core.store import InputEventRow, Replace, StoreWriter

from .count_writer import INPUT_COMMIT_S, CountWriter, Where
from .decide import CaptureState, CountInput, InputSeen, Operation, monitor_of
from .input_counts import TEXT_GAP_MS, InputCount, InputCounter
from .pictures import Pictures
from .snapshots import SnapshotWriter
from .sources.base import AccessibilitySource, HitResult, WindowInfo, await_answer
from .sources.input_listener import RawClick, RawInput, RawKey, RawScroll

log = logging.getLogger(__name__)

# Open bursts are written (and rewritten) this often, so a crash loses at
# most this long of input counts plus the batch delay and a commit.
CHECKPOINT_INTERVAL_S = 0.4
INPUT_BATCH_S = 0.1
# A click's row waits this long for its hit test: a tree walk already running
# on the accessibility thread (bounded at 300 ms) finishes first, and an app
# busy redrawing what the click did answers late on a loaded machine (the
# row is written unresolved at once, so waiting costs nothing but the wait).
HIT_TEST_BUDGET_S = 4.0
# A click's row waits this long for its window's first snapshot to be written.
SNAPSHOT_BUDGET_S = 0.25
# A described window is reused for this long (describing costs round trips).
DESCRIBED_S = 0.5


class InputPath:
    """`state()` is the rules' current state, `observe(InputSeen)` shows
    them an event, performs what they decide besides counting and returns
    their operations, `recording_id()` names the explicit recording in
    progress (None outside one), `describe(window_id)` describes a window,
    `snapshots` knows each window's latest snapshot."""

    def __init__(self, loop: asyncio.AbstractEventLoop, writer: StoreWriter, a11y: AccessibilitySource,
                 pictures: Pictures, snapshots: SnapshotWriter, *, state: Callable[[], CaptureState],
                 observe: Callable[[InputSeen], tuple[Operation, ...]],
                 recording_id: Callable[[], int | None],
                 describe: Callable[[int], WindowInfo | None],
                 excluded: Callable[[WindowInfo], bool]) -> None:
        self._loop = loop
        self._writer = writer
        self._a11y = a11y
        self._pictures = pictures
        self._snapshots = snapshots
        self._state = state
        self._observe = observe
        self._recording_id = recording_id
        self._describe = describe
        self._excluded = excluded
        self._described: dict[int, tuple[float, WindowInfo | None]] = {}
        self.counter = InputCounter()
        self.counts = CountWriter(writer)
        self.clicks = 0
        self._raw: collections.deque[RawInput] = collections.deque()
        self._drain_scheduled = False
        self._last_raw_text_ms: int | None = None
        self._checkpoint_handle: asyncio.TimerHandle | None = None

    # -- listener threads ---------------------------------------------------------
    def deliver(self, raw: RawInput) -> None:
        """Called from the listener threads with a RawKey, RawClick or RawScroll."""
        loop = self._loop
        if loop.is_closed():
            return
        if isinstance(raw, RawKey):
            raw = self._ask_field_early(raw)
        else:
            self._last_raw_text_ms = None
            if isinstance(raw, RawClick):
                raw = self._ask_hit_early(raw)
        self._raw.append(raw)
        if isinstance(raw, RawClick):
            loop.call_soon_threadsafe(self.drain)
        elif not self._drain_scheduled:
            self._drain_scheduled = True
            loop.call_soon_threadsafe(loop.call_later, INPUT_BATCH_S, self.drain)

    def _ask_field_early(self, raw: RawKey) -> RawKey:
        """On a key that may start a text burst, ask which field has focus
        now (from this listener thread; the worker call is thread-safe), not
        when the batch is handled: by then a Tab typed right after could
        already have moved focus to the next field."""
        if not raw.printable:
            self._last_raw_text_ms = None
            return raw
        last = self._last_raw_text_ms
        self._last_raw_text_ms = raw.ts_ms
        state = self._state()
        focus = state.focus
        if (last is not None and raw.ts_ms - last <= TEXT_GAP_MS) or focus is None or not state.capturing_input:
            return raw  # nothing is read of an excluded (or paused) window, not even which field
        if raw.window_id is not None and raw.window_id != focus.window_id:
            return raw  # another window has the keyboard: asked when the batch knows which
        return replace(raw, field_query=self._a11y.focused_field(focus))

    def _ask_hit_early(self, raw: RawClick) -> RawClick:
        """Ask what is under a click the moment it arrives (from this listener
        thread), not when the loop gets to it: a link's click navigates, a
        button's opens a dialog, and by then the point shows something else.
        Asked only of a window capture may read (not while paused or with the
        display down, never of an excluded window)."""
        state = self._state()
        window = raw.window
        if window is None or state.paused or not state.display_up or self._excluded(window):
            return raw
        return replace(raw, hit_query=self._a11y.hit_test(window, raw.x, raw.y))

    # -- the loop -------------------------------------------------------------------
    def drain(self) -> None:
        """Handle every queued event."""
        self._drain_scheduled = False
        while self._raw:
            try:
                self._on_input(self._raw.popleft())
            except Exception:  # noqa: BLE001 - one odd event must not stop the rest
                log.exception("input event failed")
        if self.counter.open_counts() and self._checkpoint_handle is None:
            self._checkpoint_handle = self._loop.call_later(CHECKPOINT_INTERVAL_S, self._checkpoint)

    def tick(self, now: int) -> None:
        """Write the bursts and runs that have been quiet long enough."""
        self.counter.tick(now)
        self.write(self.counter.emit())

    def close_bursts(self, window: WindowInfo | None) -> None:
        """Close every open burst and run; they went to `window`."""
        self._write(self.counter.close(), window)

    async def flush(self) -> None:
        """Handle what the listeners queued, close everything and wait
        (boundedly) for rows still waiting on the field they went into: a
        recording that stops right after its last click keeps the click."""
        self.drain()
        self.write(self.counter.close())
        await self.counts.drain()

    def write(self, counts: list[InputCount]) -> None:
        """Rows for closed counts of input to the window the open bursts went to."""
        state = self._state()
        self._write(counts, state.input_window or state.focus)

    def _write(self, counts: list[InputCount], window: WindowInfo | None) -> None:
        self.counts.write(counts, self._recording_id(), self._where(window))

    def _checkpoint(self) -> None:
        self._checkpoint_handle = None
        state = self._state()
        self.counts.checkpoint(self.counter.open_counts(), self._recording_id(),
                               self._where(state.input_window or state.focus))
        if self.counter.open_counts():
            self._checkpoint_handle = self._loop.call_later(CHECKPOINT_INTERVAL_S, self._checkpoint)

    def _where(self, window: WindowInfo | None) -> Where:
        """Where counts of input to `window` belong: its monitor and its
        latest written snapshot — asked when each row is written, not when
        its burst began (a forget in between takes that snapshot away)."""
        monitors = self._state().monitors

        def where(count: InputCount) -> tuple[int, int | None]:
            snapshot_id = self._snapshots.submitted_id(window)
            if count.x is not None and count.y is not None:   # a click or a scroll
                return monitor_of(monitors, count.x, count.y).index, snapshot_id
            if window is not None:
                return monitor_of(monitors, *window.center).index, snapshot_id
            return 0, snapshot_id

        return where

    def _receiver(self, window_id: int | None) -> WindowInfo | None:
        """The window a listener said received an event, described (briefly cached)."""
        if window_id is None:
            return None
        focus = self._state().focus
        if focus is not None and focus.window_id == window_id:
            return focus
        now = self._loop.time()
        cached = self._described.get(window_id)
        if cached is not None and now - cached[0] < DESCRIBED_S:
            return cached[1]
        window = self._describe(window_id)
        if len(self._described) > 64:
            self._described.clear()
        self._described[window_id] = (now, window)
        return window

    def _on_input(self, raw: RawInput) -> None:
        seen = InputSeen(raw.ts_ms, self._receiver(raw.window_id))
        window = next((op.window for op in self._observe(seen) if isinstance(op, CountInput)), None)
        if window is None:
            return
        if isinstance(raw, RawKey):
            started = self.counter.key(raw.ts_ms, name=raw.name, char=raw.char, modifiers=raw.modifiers,
                                       keep_text=self._recording_id() is not None)
            if started is not None:
                # Which field is this burst going into? Asked once per burst.
                self.counts.expect_field(started, raw.field_query or self._a11y.focused_field(window))
        elif isinstance(raw, RawScroll):
            self.counter.scroll(raw.ts_ms, raw.x, raw.y, raw.steps)
        elif isinstance(raw, RawClick):
            self.counter.click(raw.ts_ms)
            self.counts.track(asyncio.ensure_future(self._store_click(raw, window)))
        self.write(self.counter.emit())

    async def _store_click(self, raw: RawClick, window: WindowInfo) -> None:
        """The click's row at once (unresolved: a crash must not lose the
        click while its hit test runs), then again with what it hit."""
        monitor = monitor_of(self._state().monitors, raw.x, raw.y)
        pictures = self._pictures.click_evidence(raw.x, raw.y, monitor, raw.ts_ms, window)
        row = InputEventRow(
            id=self._writer.ids.next("input_events"), ts_ms=raw.ts_ms, end_ms=raw.ts_ms,
            monitor=monitor.index, kind="click", count=1, button=raw.button, x=raw.x, y=raw.y,
            resolution="none", crop=pictures.target if pictures is not None else None,
            recording_id=self._recording_id(), snapshot_id=self._snapshots.submitted_id(window))
        self._writer.submit(row, within=INPUT_COMMIT_S)
        if pictures is not None:        # after the row they refer to
            self._writer.submit_many(pictures.rows(row.id))
        early = raw.hit_query if raw.window is not None and raw.window.window_id == window.window_id else None
        hit = await await_answer(early or self._a11y.hit_test(window, raw.x, raw.y), HIT_TEST_BUDGET_S,
                                 HitResult(None, "none"))
        snapshot_id = await self._snapshots.id_for(window, SNAPSHOT_BUDGET_S)
        self._writer.submit(Replace(replace(
            row, element_id=hit.element_id, resolution=hit.resolution, snapshot_id=snapshot_id,
            target_role=hit.role, target_name=hit.name, target_path=hit.path)), within=INPUT_COMMIT_S)
        self.clicks += 1
