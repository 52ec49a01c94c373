"""Bounded polling with back-off: every wait in the harness, tests and replay
has a deadline and says what it was waiting for when it gives up."""

from __future__ import annotations

import time
from typing import Callable, TypeVar

from core.errors import PhantomError

T = TypeVar("T")


class WaitTimeout(PhantomError, TimeoutError):
    """Raised when a bounded wait ends without its condition holding (in the
    family, so `phantom demo` reports it in one line like any failure)."""


def wait_until(probe: Callable[[], T], *, timeout: float, what: str,
               interval: float = 0.02, max_interval: float = 0.25) -> T:
    """Call `probe` until it returns something truthy; return that value.

    The interval doubles up to `max_interval`, so short waits stay responsive
    and long ones stay cheap. Exceptions from `probe` count as "not yet" until
    the deadline, then the last one is chained to the timeout.
    """
    deadline = time.monotonic() + timeout
    last_error: BaseException | None = None
    while True:
        try:
            value = probe()
            if value:
                return value
        except Exception as exc:  # noqa: BLE001 - reported on timeout
            last_error = exc
        if time.monotonic() >= deadline:
            raise WaitTimeout(f"timed out after {timeout:.1f}s waiting for {what}") from last_error
        time.sleep(interval)
        interval = min(interval * 2, max_interval)
