"""Keeping the display-bound sources connected.

The X connection (windows, focus, titles), the screen grabber and the input
listeners live and die with the X server. The supervisor connects them and
drops them all when the server goes. While it is gone, every tick (a
quarter second then) asks whether X answers — a connect to its socket,
about a tenth of a millisecond — and reconnects the moment it does, so a
`display_lost` blind spot ends when X answers, not at the next step of a
back-off schedule. Back-off (0.5 s, then 1, 2, 4, 8, 15 and every 30 s)
is kept for full connections that fail although X answers (a server still
starting up). Input listeners that died on their own (they hold a display
connection of their own) are restarted on the next tick. A screen grabber
or input listener that cannot start is reported as a source error; capture
goes on without it.

Time comes from an injected clock (the loop's), so the schedule can be
tested without waiting for it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from .config import Config
from .sources import Sources
from .sources.base import DisplayLost, IdleSource, InputSource, Monitor, ScreenGrabber, WindowSource
from .sources.input_listener import RawInput

log = logging.getLogger(__name__)

RECONNECT_BACKOFF_S = (0.5, 1, 2, 4, 8, 15, 30)


class Backoff:
    """When to try again after failures in a row: the n-th failure waits
    `delays[n]` seconds (the last delay repeats); a success starts over."""

    def __init__(self, clock: Callable[[], float], delays: tuple[float, ...] = RECONNECT_BACKOFF_S) -> None:
        self._clock = clock
        self._delays = delays
        self._failures = 0
        self._next = 0.0

    def failed(self) -> float:
        delay = self._delays[min(self._failures, len(self._delays) - 1)]
        self._failures += 1
        self._next = self._clock() + delay
        return delay

    def succeeded(self) -> None:
        self._failures = 0

    def due(self) -> bool:
        return self._clock() >= self._next


class DisplaySupervisor:
    """Owns the display-bound sources (`windows`, `screen`, `input`: each
    None while it is not running). `on_up(monitors)` and `on_down(reason)`
    tell the daemon when the display came or went; `watch(fd)` and
    `unwatch(fd)` add and remove the X connection on the event loop."""

    def __init__(self, display: str, config: Config, sources: Sources, *,
                 deliver_input: Callable[[RawInput], None],
                 on_up: Callable[[tuple[Monitor, ...]], None], on_down: Callable[[str], None],
                 on_source_error: Callable[[str, Exception], None],
                 watch: Callable[[int], None], unwatch: Callable[[int], object],
                 clock: Callable[[], float], backoff: tuple[float, ...] = RECONNECT_BACKOFF_S,
                 on_idle: Callable[[bool], None] | None = None) -> None:
        self.display = display
        self._config = config
        self._sources = sources
        self._deliver_input = deliver_input
        self._on_idle = on_idle
        self._on_up, self._on_down, self._on_source_error = on_up, on_down, on_source_error
        self._watch, self._unwatch = watch, unwatch
        self._backoff = Backoff(clock, backoff)
        self._down = False
        self.windows: WindowSource | None = None
        self.screen: ScreenGrabber | None = None
        self.input: InputSource | None = None
        self.idle: IdleSource | None = None

    def connect(self) -> bool:
        """Connect everything; False (and `on_down`) when the display is unreachable."""
        windows = None
        try:
            windows = self._sources.windows(self.display)
            monitors = windows.monitors()
        except DisplayLost as exc:
            if windows is not None:
                windows.close()
            self.lost(str(exc))
            return False
        self.windows = windows
        self._watch(windows.fileno())
        try:
            self.screen = self._sources.screen(self.display, self._config)
        except Exception as exc:  # noqa: BLE001 - capture goes on without pictures
            self.screen = None
            self._on_source_error("screen", exc)
        self._restart_input()
        self._restart_idle()
        self._backoff.succeeded()
        self._down = False
        self._on_up(monitors)
        return True

    def lost(self, reason: str) -> None:
        """The X server went away: drop what depended on it and try again
        when it answers. Said again while still down, it changes nothing."""
        if self._down:
            return
        self._down = True
        self._on_down(reason)
        self.close()
        self._backoff.succeeded()   # the first full connection once X answers is not delayed

    @property
    def up(self) -> bool:
        return self.windows is not None

    def tick(self) -> bool:
        """Each tick: True when the display is up (then dead input listeners
        are restarted); else reconnect if X answers (and a failed attempt's
        back-off has passed)."""
        if self.windows is None:
            if self._sources.answers(self.display) and self._backoff.due():
                if self.connect():
                    log.info("display %s is back", self.display)
                else:
                    self._backoff.failed()
            return False
        if self.input is not None and not self.input.alive():
            # The listeners die with the display connection they hold.
            self._restart_input()
        if self.idle is not None and not self.idle.alive():
            self._restart_idle()
        return True

    def close(self) -> None:
        """Stop and close every display-bound source."""
        if self.input is not None:
            self.input.stop()
        if self.idle is not None:
            self.idle.stop()
        if self.windows is not None:
            try:
                self._unwatch(self.windows.fileno())
            except (ValueError, OSError):
                pass
            self.windows.close()
        if self.screen is not None:
            self.screen.close()
        self.windows = self.screen = self.input = None
        self.idle = None

    def _restart_input(self) -> None:
        if self.input is not None:
            self.input.stop()
        try:
            listener = self._sources.input(self._deliver_input)
            listener.start()
            self.input = listener
        except Exception as exc:  # noqa: BLE001 - no input counts, but windows still captured
            self.input = None
            self._on_source_error("input listener", exc)

    def _restart_idle(self) -> None:
        """The compositor's idle source, where the session has one (Wayland)."""
        if self.idle is not None:
            self.idle.stop()
            self.idle = None
        if self._on_idle is None:
            return
        try:
            source = self._sources.idle(self._on_idle, self._config)
            if source is not None:
                source.start()
            self.idle = source
        except Exception as exc:  # noqa: BLE001 - idle falls back to input-less time
            self.idle = None
            self._on_source_error("idle source", exc)
