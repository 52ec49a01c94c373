"""Writing input counts to the store: one row per burst or run, written
while it grows (checkpoints under a stable row id, so a crash loses at most
half a second) and finally when it closes. A text burst waits, briefly, for
the answer to "which field did this go into?" before its final row; its
text is kept only inside a recording and only for a known, non-password
field. A burst into a password field stores no count: its row says only
that something was typed there (count 1, no duration), so neither the row
nor a checkpoint written before the field was known shows a password's
length. A closed row is committed within `INPUT_COMMIT_S`; one that waits
for its field is first written without it (a crash must not lose it while
the answer comes). Each call says where a count belongs (`Where`: its monitor and the
snapshot of the window that received it): the caller knows which window the
input went to. Inside a recording, a text burst also keeps how many
characters its field held when the burst began (replay replaces a field's
content only where every demonstration typed into an empty one)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Future

from core.store import InputEventRow, Replace, StoreWriter

from .input_counts import FieldRef, InputCount

# A burst waits this long to learn which field it went into; without the
# answer a demonstration's typed text is not kept, and on a loaded machine
# the accessibility thread answers in seconds, not milliseconds.
FIELD_ANSWER_BUDGET_S = 2.0
# Input rows that are not checkpoints are committed at most this late (the
# input path's one-second promise: capturer/input_path.py).
INPUT_COMMIT_S = 0.2
Where = Callable[[InputCount], "tuple[int, int | None]"]   # count -> (monitor, snapshot id)


class CountWriter:
    def __init__(self, writer: StoreWriter) -> None:
        self._writer = writer
        self._fields: dict[int, Future[FieldRef | None]] = {}   # burst seq -> pending field answer
        self._rows: dict[int, int] = {}           # burst seq -> input_events row id
        self._written: dict[int, tuple[int, int]] = {}   # burst seq -> (count, end) last written
        self._pending: set[asyncio.Task[None]] = set()
        self.rows_written = 0
        self.keys_written = 0

    def expect_field(self, seq: int, answer: Future[FieldRef | None]) -> None:
        """The field a text burst went into will be answered by `answer`."""
        self._fields[seq] = answer

    def write(self, counts: list[InputCount], recording_id: int | None, where: Where) -> None:
        """Final rows for closed bursts and runs."""
        for count in counts:
            seq = count.burst
            answer = self._fields.pop(seq, None) if count.kind == "text" and seq is not None else None
            monitor = where(count)
            if answer is None or answer.done():
                self._store(count, answer.result() if answer is not None else None, recording_id,
                            monitor, final=True)
                continue
            if self._last_written(seq) != (count.count, count.end_ms):
                self._store(count, None, recording_id, monitor, final=False)
            task = asyncio.ensure_future(self._store_when_answered(count, answer, recording_id, where))
            self.track(task)

    def checkpoint(self, growing: list[InputCount], recording_id: int | None, where: Where) -> None:
        """Rows for bursts still growing, rewritten only when they changed. A
        text burst waits for its field to be known: it may be a password's."""
        for count in growing:
            seq = count.burst
            answer = self._fields.get(seq) if count.kind == "text" and seq is not None else None
            if answer is not None and not answer.done():
                continue
            field = answer.result() if answer is not None else None
            if self._last_written(seq) == stored_shape(count, field):
                continue
            self._store(count, field, recording_id, where(count), final=False)

    def _last_written(self, seq: int | None) -> tuple[int, int] | None:
        """(count, end) of the row last written for a burst or run, if any."""
        return self._written.get(seq) if seq is not None else None

    def track(self, task: asyncio.Task[None]) -> None:
        """Keep a task that will write a row, so shutdown can wait for it."""
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def drain(self) -> None:
        """Wait (boundedly) for rows still waiting on their targets."""
        for task in list(self._pending):
            try:
                await asyncio.wait_for(asyncio.shield(task), FIELD_ANSWER_BUDGET_S * 2)
            except Exception:  # noqa: BLE001 - a late answer is not worth hanging shutdown
                task.cancel()

    async def _store_when_answered(self, count: InputCount, answer: Future[FieldRef | None],
                                   recording_id: int | None, where: Where) -> None:
        try:
            field = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(answer)),
                                           FIELD_ANSWER_BUDGET_S)
        except Exception:  # noqa: BLE001 - no answer in time: the field stays unknown
            field = None
        self._store(count, field, recording_id, where(count), final=True)

    def _store(self, count: InputCount, field: FieldRef | None, recording_id: int | None,
               place: tuple[int, int | None], *, final: bool) -> None:
        monitor, snapshot_id = place
        keep = recording_id is not None and field is not None and not field.secret
        keys, end_ms = stored_shape(count, field)
        seq = count.burst
        row_id = self._rows.get(seq) if seq is not None else None
        rewrite = row_id is not None
        if row_id is None:
            row_id = self._writer.ids.next("input_events")
        row = InputEventRow(
            id=row_id, ts_ms=count.start_ms, end_ms=end_ms, monitor=monitor,
            kind=count.kind, count=keys, key=count.key, x=count.x, y=count.y,
            element_id=field.element_id if field else None, recording_id=recording_id,
            text=count.text if keep else None, snapshot_id=snapshot_id,
            field_chars=field.held_before(count.text) if keep and field is not None and count.kind == "text"
            else None)
        op = Replace(row) if rewrite else row
        if final:
            self._writer.submit(op, within=INPUT_COMMIT_S)
        else:
            self._writer.submit(op, urgent=True)
        if final:
            if seq is not None:
                self._rows.pop(seq, None)
                self._written.pop(seq, None)
            self.rows_written += 1
            if count.kind in ("key", "text", "copy"):
                self.keys_written += keys
        elif seq is not None:
            self._rows[seq] = row_id
            self._written[seq] = (keys, end_ms)


def stored_shape(count: InputCount, field: FieldRef | None) -> tuple[int, int]:
    """(count, end_ms) as stored: as counted, except for a burst into a
    password field — one key at its start, whatever was typed."""
    if count.kind == "text" and field is not None and field.secret:
        return 1, count.start_ms
    return count.count, count.end_ms
