"""Keeping the accessibility bus, for one capture session: split from the
daemon (it is the one part that decides when the daemon must start again).

Before libatspi touches the bus, the bus is checked (libatspi aborts the
process when it cannot reach it); while capture runs, the session's own
connection to it says the moment it goes (`AccessibilityBus("lost")` to
the rules); while it is down, it is looked for every `BUS_RETRY_S`. When it
is back, a process that already set libatspi up re-executes itself —
libatspi cannot be set up a second time in one process (`Atspi.exit()`
then `Atspi.init()` leaves its tables broken: the next calls fail with
"The application no longer exists") — and one that never did starts its
worker in place. A hung application (`WatchHung`) is asked, over and over,
whether it answers again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from core.clock import now_ms

from .config import Config
from .decide import AccessibilityAnswered, AccessibilityBus, CaptureState, Observation
from .sources.base import AccessibilityBusSource, AccessibilitySource, WindowInfo

log = logging.getLogger(__name__)

# While the accessibility bus is down, it is looked for this often.
BUS_RETRY_S = 2.0
# A hung application is asked whether it answers again with this timeout,
# and again this long after each silence.
HUNG_PROBE_S = 0.25
HUNG_PROBE_PAUSE_S = 0.1


class AccessibilityKeeper:
    """`observe` shows the rules what happened; `state()` is their current
    state; `reexec(reason)` asks the daemon to start again."""

    def __init__(self, worker: AccessibilitySource, make_watch: Callable[..., AccessibilityBusSource],
                 display: str, config: Config, loop: asyncio.AbstractEventLoop, *,
                 observe: Callable[[Observation], None], state: Callable[[], CaptureState],
                 reexec: Callable[[str], None]) -> None:
        self.worker = worker
        self.watch = make_watch(display, self._lost)
        self._config = config
        self._loop = loop
        self._observe = observe
        self._state = state
        self._reexec = reexec
        self._retry_at = 0.0
        self._hung: dict[int, asyncio.Task[None]] = {}

    async def start(self) -> None:
        status = "disabled"
        if self._config.accessibility.enabled:
            problem = await self.watch.connect()
            if problem is None:
                self.worker.start()
                status = self.worker.status
            else:
                self.worker.lose(problem)
                status = "unavailable"
            if status != "ok":
                log.warning("accessibility unavailable: %s", self.worker.last_error)
        else:
            self.worker.start()
        self._observe(AccessibilityBus(now_ms(), status))

    async def tick(self) -> None:
        """While the bus is down, look for it now and then."""
        if not self._state().accessibility_up and self._loop.time() >= self._retry_at:
            await self._look_for_bus()

    def watch_hung(self, window: WindowInfo) -> None:
        if window.pid and window.pid not in self._hung:
            self._hung[window.pid] = asyncio.ensure_future(self._until_answered(window))

    async def close(self) -> None:
        for task in list(self._hung.values()):
            task.cancel()
        self.worker.stop()
        await self.watch.close()

    def _lost(self, reason: str) -> None:
        """The session's own connection to the bus dropped: the bus is gone."""
        log.warning("accessibility bus lost: %s", reason)
        self.worker.lose(reason)
        self._retry_at = self._loop.time() + BUS_RETRY_S / 2
        self._observe(AccessibilityBus(now_ms(), "lost"))

    async def _look_for_bus(self) -> None:
        self._retry_at = self._loop.time() + BUS_RETRY_S
        if await self.watch.connect() is not None:
            return
        if self.worker.initialised:
            self._reexec("the accessibility bus is back")
            return
        await self._loop.run_in_executor(None, self.worker.start)
        log.info("accessibility bus reached: %s", self.worker.status)
        self._observe(AccessibilityBus(now_ms(), self.worker.status))

    async def _until_answered(self, window: WindowInfo) -> None:
        """The moment the application answers, its blind spot ends and the
        worker reads it again."""
        try:
            while self._state().accessibility_up:
                name = self.worker.hung_bus_name(window.pid)
                if name is None:
                    log.debug("hung pid %s: no bus name to ask it by", window.pid)
                    return   # the worker asks it again after its back-off
                if await self.watch.answers(name, HUNG_PROBE_S):
                    log.debug("hung pid %s (%s) answers again", window.pid, name)
                    self.worker.answered(window.pid)
                    self._observe(AccessibilityAnswered(now_ms(), window))
                    return
                await asyncio.sleep(HUNG_PROBE_PAUSE_S)
        finally:
            if window.pid is not None:   # watched only with a pid (`watch_hung`)
                self._hung.pop(window.pid, None)
