"""The store's single writer.

Every capture-side write goes through one `StoreWriter`: producers (the
focus tracker, input listeners, the AT-SPI worker) hand it frozen records and
never wait; one thread owns the only write connection and commits the buffered
records in one short transaction at most `commit_interval` seconds after the
first of them arrived, sooner for ops submitted with a shorter `within`
(input rows: the capture promises that a `kill -9` loses at most one second
of input) and at once for `urgent` ones. Readers never wait on a long-held
write lock.

A commit that fails for a reason that passes (a full disk, a lock held
elsewhere, a store made read-only under it) keeps its ops and is tried again
a second later; the stats say how many ops wait unsaved, and `flush` and
`close` answer whether everything submitted reached the disk — nobody may
claim a flush that did not happen.

Ids are allocated here, up front, from counters seeded with each table's
MAX(id): a snapshot can name the tree walked for it, and a click the element
under it, in the same batch. That is safe because one writer at a time adds
capture rows: the daemon's, or an import's or a forget's that holds the
daemon's lock (the other writes — programs, telemetry, the search index,
retention — add no capture rows).
"""

from __future__ import annotations

import itertools
import logging
import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

import apsw

from .connection import open_store
from .errors import StoreError
from .fence import Fence, Forgotten
from .records import ID_TABLES, WRITE_OPS, Replace, Row, RowBatch, SetEnd, SetMeta, insert_sql

log = logging.getLogger(__name__)

DEFAULT_COMMIT_INTERVAL = 1.0
# Past this many buffered ops a commit happens at once, bounding memory and
# the length of the write transaction.
MAX_BATCH = 5000
# When the disk is full or the database is locked for long, keep at most this
# many ops; older ones are dropped and counted rather than exhausting memory.
MAX_BACKLOG = 200_000
_CLOSABLE_TABLES = frozenset({"blind_spots", "recordings"})
_TRANSIENT = (apsw.BusyError, apsw.LockedError, apsw.FullError, apsw.IOError, apsw.CantOpenError,
              apsw.ReadOnlyError)


@dataclass(frozen=True, slots=True)
class WriterStats:
    """What `phantom status` reports about the writer."""

    committed_ops: int
    dropped_ops: int
    commits: int
    last_commit_monotonic: float | None
    last_error: str | None      # cleared by the next commit that succeeds
    pending_ops: int = 0        # held after a failed commit, waiting for the retry


class _Flush:
    __slots__ = ("done", "saved")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.saved = False


class _Within:
    """Commit the ops before this marker within `seconds`."""

    __slots__ = ("seconds",)

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds


class _Perform:
    __slots__ = ("work", "future")

    def __init__(self, work: Callable[[apsw.Connection], object]) -> None:
        self.work = work
        self.future: Future[object] = Future()


_STOP = object()
_COMMIT_NOW = object()


class IdAllocator:
    """Hands out increasing row ids per table; thread-safe through
    `itertools.count`, whose `next` is atomic under the GIL."""

    def __init__(self, connection: apsw.Connection) -> None:
        self._counters = {}
        for table in ID_TABLES:
            highest = connection.execute(f"SELECT coalesce(max(id), 0) FROM {table}").get
            self._counters[table] = itertools.count(int(highest) + 1)

    def next(self, table: str) -> int:
        return next(self._counters[table])


class StoreWriter:
    """One thread, one connection, batched commits. See the module docstring."""

    def __init__(self, path: str | Path, *, commit_interval: float | None = DEFAULT_COMMIT_INTERVAL,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """`commit_interval=None` commits only on `flush()`: the corpus
        generator uses that so transaction boundaries, and hence the file's
        bytes, do not depend on timing."""
        self.path = Path(path)
        self._connection = open_store(self.path)
        self.ids = IdAllocator(self._connection)
        self._interval = commit_interval
        self._clock = clock
        self._queue: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._buffer: list[object] = []
        self._deadline: float | None = None
        self._committed = 0
        self._dropped = 0
        self._commits = 0
        self._last_commit: float | None = None
        self._last_error: str | None = None
        self._unsaved = 0
        self._fence = Fence()   # what forgets on this writer leave out of later commits
        self._thread = threading.Thread(target=self._run, name="phantom-store-writer", daemon=True)
        self._thread.start()

    # -- producer side -------------------------------------------------------
    def submit(self, op: object, *, urgent: bool = False, within: float | None = None) -> None:
        """Queue one record or operation; never blocks. `urgent` commits the
        batch as soon as the writer reaches this op (a focus change should be
        visible to readers within milliseconds, not at the next tick);
        `within` commits it at most that many seconds after it arrives."""
        if not isinstance(op, WRITE_OPS):
            raise TypeError(f"not a store write: {op!r}")
        if isinstance(op, SetEnd) and op.table not in _CLOSABLE_TABLES:
            raise ValueError(f"cannot close rows of {op.table}")
        if isinstance(op, RowBatch):
            op.check()
        self._queue.put(op)
        if urgent:
            self._queue.put(_COMMIT_NOW)
        elif within is not None:
            self._queue.put(_Within(within))

    def submit_many(self, ops: Iterable[object]) -> None:
        for op in ops:
            self.submit(op)

    def flush(self, timeout: float | None = 10.0) -> bool:
        """Commit everything submitted so far; True only once all of it is
        on disk (False when the commit failed or did not finish in time)."""
        marker = _Flush()
        self._queue.put(marker)
        return marker.done.wait(timeout) and marker.saved

    def perform(self, work: Callable[[apsw.Connection], object]) -> Future[object]:
        """Commit everything submitted so far, then run `work(connection)` on
        the writer's thread — the one that writes — before anything
        submitted later. A forget runs so: it sees, and removes, whatever was
        buffered. The future holds the result or the exception; if the
        buffered rows cannot be committed, `work` does not run."""
        request = _Perform(work)
        self._queue.put(request)
        return request.future

    def forgotten(self, forgotten: Forgotten) -> None:
        """A forget `perform`ed on this writer removed these rows: every op
        committed after it passes the fence (`core.store.fence`). Called on
        the writer's thread, from the forget's work."""
        self._fence = self._fence.add(forgotten)

    def close(self, timeout: float = 10.0) -> bool:
        """Commit what is left, stop the thread and close the connection;
        True when every op ever submitted was saved (none dropped, none left
        unsaved by a failing last commit)."""
        if self._thread.is_alive():
            self._queue.put(_STOP)
            self._thread.join(timeout)
        return not self._thread.is_alive() and self._unsaved == 0 and self._dropped == 0

    def stats(self) -> WriterStats:
        return WriterStats(self._committed, self._dropped, self._commits,
                           self._last_commit, self._last_error, self._unsaved)

    # -- writer thread -------------------------------------------------------
    def _run(self) -> None:
        try:
            while True:
                item = self._next_item()
                if item is _STOP:
                    self._commit()
                    return
                if isinstance(item, _Flush):
                    item.saved = self._commit()
                    item.done.set()
                    continue
                if isinstance(item, _Perform):
                    self._perform(item)
                    continue
                if item is _COMMIT_NOW:
                    self._commit()
                    continue
                if isinstance(item, _Within):
                    soon = self._clock() + item.seconds
                    if self._buffer and (self._deadline is None or soon < self._deadline):
                        self._deadline = soon
                    continue
                if item is not None:
                    self._buffer.append(item)
                    if self._deadline is None and self._interval is not None:
                        self._deadline = self._clock() + self._interval
                if len(self._buffer) >= MAX_BATCH or self._deadline_passed():
                    self._commit()
        finally:
            self._connection.close()

    def _perform(self, request: _Perform) -> None:
        self._commit()
        if not request.future.set_running_or_notify_cancel():
            return
        if self._buffer:
            request.future.set_exception(StoreError(
                f"the store is busy or full ({self._last_error}); nothing was done", path=str(self.path)))
            return
        try:
            request.future.set_result(request.work(self._connection))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            request.future.set_exception(exc)

    def _next_item(self) -> object:
        if self._deadline is None:
            return self._queue.get()
        try:
            return self._queue.get(timeout=max(0.0, self._deadline - self._clock()))
        except queue.Empty:
            return None

    def _deadline_passed(self) -> bool:
        return self._deadline is not None and self._clock() >= self._deadline

    def _commit(self) -> bool:
        """Commit the buffer; True when nothing is left unsaved."""
        if not self._buffer:
            self._deadline = None
            return True
        try:
            self._transaction(self._buffer)
        except _TRANSIENT as exc:
            # Busy, full disk, I/O error: keep the batch and retry on the next
            # tick; capture must not die because the disk hiccuped.
            error = f"{exc.__class__.__name__}: {exc}"
            if error != self._last_error:   # said once, not every second
                log.warning("store commit failed, will retry: %s", error)
            self._last_error = error
            if len(self._buffer) > MAX_BACKLOG:
                excess = len(self._buffer) - MAX_BACKLOG
                del self._buffer[:excess]
                self._dropped += excess
            self._unsaved = len(self._buffer)
            self._deadline = self._clock() + (self._interval or 1.0)
            return False
        except Exception as exc:  # noqa: BLE001 - a bad record must not poison the batch
            self._last_error = f"{exc.__class__.__name__}: {exc}"
            log.error("store commit failed on a bad record: %s", self._last_error)
            self._commit_one_by_one()
            return True
        if self._unsaved:
            log.warning("store writable again: %d waiting ops saved", len(self._buffer))
        self._committed += len(self._buffer)
        self._commits += 1
        self._last_commit = self._clock()
        self._last_error = None
        self._unsaved = 0
        self._buffer.clear()
        self._deadline = None
        return True

    def _commit_one_by_one(self) -> None:
        """Apply each op in its own transaction, dropping (and counting) the
        ones that fail, so one bad record costs one row, not a second of capture."""
        for op in self._buffer:
            try:
                self._transaction((op,))
                self._committed += 1
            except Exception as exc:  # noqa: BLE001
                self._dropped += 1
                self._last_error = f"{exc.__class__.__name__}: {exc}"
        self._commits += 1
        self._last_commit = self._clock()
        self._buffer.clear()
        self._deadline = None

    def _transaction(self, ops: Iterable[object]) -> None:
        """Apply `ops` in one transaction. Not `with connection:` — SQLite
        rolls a transaction back by itself on some errors (a full disk among
        them), and the context manager's own ROLLBACK would then fail and
        hide the error that matters behind "no transaction is active"."""
        connection = self._connection
        connection.execute("BEGIN")
        try:
            for op in ops:
                self._apply(op)
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise

    def _apply(self, op: object) -> None:
        if self._fence.forgets:
            admitted = self._fence.admit(op)
            if admitted is None:
                return
            op = admitted
        if isinstance(op, Row):
            # mypy takes a row class for unhashable (python/mypy#11470): the three ignores.
            self._connection.execute(insert_sql(type(op)), op.values())  # type: ignore[arg-type]
        elif isinstance(op, Replace):
            self._connection.execute(insert_sql(type(op.row), True), op.row.values())  # type: ignore[arg-type]
        elif isinstance(op, RowBatch):
            self._connection.executemany(insert_sql(op.row_type), op.padded_rows())  # type: ignore[arg-type]
        elif isinstance(op, SetEnd):
            self._connection.execute(f"UPDATE {op.table} SET end_ms = ? WHERE id = ?",
                                     (op.end_ms, op.id))
        elif isinstance(op, SetMeta):
            self._connection.execute(
                "INSERT INTO meta(key, value) VALUES(?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (op.key, op.value))
