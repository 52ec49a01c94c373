"""The capture daemon keeps the search index current, a slice at a time.

Without it the first `phantom search` after weeks of capture indexed every
row since the last search at once (15 s of CPU for 51 days). The daemon
has the rows anyway, and its writer is the one connection that writes: so
now and then the session hands the writer `search_index.index_some` —
after the writer's pending commit, before anything submitted later — with a
small budget, and a search finds at most the last minute unindexed.

How often, and how much: while the person is at work, every
`ACTIVE_EVERY_S` with `ACTIVE_BUDGET_S` (the rows of half a minute index in
a few milliseconds; the daemon stays well inside its share of a core);
while they are idle, every `IDLE_EVERY_S` with `IDLE_BUDGET_S`, which is
when a backlog — a store captured before this existed, or an import —
gets caught up. Never two at once: the next waits for the last to end.
A failure (a busy or full store) is logged and tried again next time:
the index is derived data, capture does not wait on it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Protocol, cast

import apsw

log = logging.getLogger(__name__)

ACTIVE_EVERY_S, ACTIVE_BUDGET_S = 30.0, 0.05
IDLE_EVERY_S, IDLE_BUDGET_S = 2.0, 0.2


class Performs(Protocol):
    """The part of `core.store.StoreWriter` this needs."""

    def perform(self, work: Callable[[apsw.Connection], object]) -> Future[object]: ...


class SearchUpkeep:
    """Called once a capture tick; decides whether to index a slice now."""

    def __init__(self, writer: Performs, clock: Callable[[], float] = time.monotonic) -> None:
        self._writer = writer
        self._clock = clock
        self._last = clock()        # when the last slice was handed over (the start's writes go first)
        self._running: Future[object] | None = None
        self.indexed = 0            # rows indexed this run (for status and tests)
        self.caught_up = False      # whether the last slice left nothing behind

    def tick(self, *, idle: bool) -> bool:
        """Hand the writer a slice if one is due; True when one was."""
        if self._running is not None and not self._running.done():
            return False
        now = self._clock()
        if now < self._last + (IDLE_EVERY_S if idle and not self.caught_up else ACTIVE_EVERY_S):
            return False
        self._last = now
        budget = IDLE_BUDGET_S if idle else ACTIVE_BUDGET_S
        self._running = self._writer.perform(lambda connection: _slice(connection, budget))
        self._running.add_done_callback(self._done)
        return True

    def _done(self, future: Future[object]) -> None:
        error = future.exception()
        if error is not None:
            log.info("the search index was not kept current this time: %s", error)
            return
        rows, caught_up = cast(tuple[int, bool], future.result())
        self.indexed += rows
        self.caught_up = caught_up


def _slice(connection: apsw.Connection, budget_s: float) -> tuple[int, bool]:
    from core.store.search_index import index_some

    return index_some(connection, budget_s)
