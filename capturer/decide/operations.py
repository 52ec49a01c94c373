"""What the rules ask the daemon to do. The daemon performs them in order;
only `WriteSnapshot` waits (for the accessibility worker's answer)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from ..sources.base import Monitor, WindowInfo


@dataclass(frozen=True, slots=True)
class WriteSnapshot:
    """A snapshot row of `window` on `monitor` (with the accessibility
    context and a thumbnail when due, if `focused`)."""

    window: WindowInfo
    trigger: str          # focus | title | resume | idle | active | heartbeat | input
    focused: bool
    monitor: Monitor
    idle: bool


@dataclass(frozen=True, slots=True)
class OpenBlindSpot:
    kind: str             # paused | excluded | no_accessibility | display_lost | capture_error
    reason: str
    at_ms: int


@dataclass(frozen=True, slots=True)
class CloseBlindSpot:
    kind: str
    at_ms: int


@dataclass(frozen=True, slots=True)
class CloseBursts:
    """Close the open input bursts and runs; they went to `window`."""

    window: WindowInfo | None


@dataclass(frozen=True, slots=True)
class CountInput:
    """Count the input just seen, as input to `window`."""

    window: WindowInfo


@dataclass(frozen=True, slots=True)
class PointAccessibility:
    """The one window the accessibility worker may read (None: none)."""

    window: WindowInfo | None


@dataclass(frozen=True, slots=True)
class WatchTitle:
    """Receive title events for this window only (None: for none)."""

    window_id: int | None


@dataclass(frozen=True, slots=True)
class PauseChanged:
    """Remember the pause state in the store and tell the listeners."""

    paused: bool


Operation = Union[WriteSnapshot, OpenBlindSpot, CloseBlindSpot, CloseBursts, CountInput,
                  PointAccessibility, WatchTitle, PauseChanged]
