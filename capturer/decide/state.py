"""The capture state the rules decide over, and the settings they read.

Frozen records: every decision returns a new state. The daemon keeps the
current one and hands it to `decide` with each observation; threads that
only read it (the input listeners) see one whole state or the next.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from core.capture_timing import HEARTBEAT_MS, IDLE_AFTER_MS

from ..config import Config
from ..privacy import DEFAULT_EXCLUSIONS, ExclusionRule
from ..sources.base import Monitor, WindowInfo

# Where no monitor is known (no RandR answer yet), everything is on monitor 0.
NO_MONITOR = Monitor(0, "screen", 0, 0, 1, 1, True)
# Windows remembered as having a snapshot (input to one without gets one first).
SEEN_WINDOWS = 64


@dataclass(frozen=True, slots=True)
class Rules:
    """What the rules read from the configuration."""

    exclusions: tuple[ExclusionRule, ...] = DEFAULT_EXCLUSIONS
    heartbeat_ms: float = HEARTBEAT_MS
    idle_after_ms: float = IDLE_AFTER_MS
    # What a `display_lost` blind spot says went away (sway on Wayland).
    display_lost_reason: str = "X server unreachable"

    @classmethod
    def from_config(cls, config: Config) -> Rules:
        return cls(config.exclusions, config.capture.heartbeat_seconds * 1000,
                   config.capture.idle_after_seconds * 1000)


@dataclass(frozen=True, slots=True)
class Screen:
    """What capture last showed of one monitor: its heartbeat is due
    `heartbeat_ms` after `last_snapshot_ms`."""

    monitor: int
    window: WindowInfo | None
    last_snapshot_ms: int


@dataclass(frozen=True, slots=True)
class BlindSpot:
    """An open stretch the capture does not cover, and why."""

    kind: str
    reason: str


@dataclass(frozen=True, slots=True)
class CaptureState:
    """Everything the rules remember between observations."""

    paused: bool = False
    display_up: bool = False            # connected to the X server
    accessibility: str = "ok"           # the bus: ok | disabled | unavailable | lost
    focus: WindowInfo | None = None     # the focused window as last described
    focus_ms: int = 0                   # when it got focus (or capture resumed on it)
    idle: bool = False
    last_input_ms: int = 0
    reported_idle: bool | None = None   # the compositor's word on idle, once it has said it
    monitors: tuple[Monitor, ...] = ()
    screens: tuple[Screen, ...] = ()    # monitors that have had a snapshot, by index
    blind_spots: tuple[BlindSpot, ...] = ()  # the open ones, in the order they opened
    seen: tuple[tuple[int, int, int | None], ...] = ()   # keys of windows with a snapshot, latest last
    input_window: WindowInfo | None = None  # the window the open input bursts go to

    def blind_spot(self, kind: str) -> BlindSpot | None:
        return next((spot for spot in self.blind_spots if spot.kind == kind), None)

    @property
    def excluded_by(self) -> str | None:
        """The exclusion rule hiding the focused window, if one does."""
        spot = self.blind_spot("excluded")
        return spot.reason if spot else None

    @property
    def accessibility_up(self) -> bool:
        return self.accessibility in ("ok", "disabled")

    @property
    def capturing_input(self) -> bool:
        return (not self.paused and self.display_up and self.focus is not None
                and self.excluded_by is None)

    def screen(self, monitor: int) -> Screen | None:
        return next((screen for screen in self.screens if screen.monitor == monitor), None)

    def with_seen(self, window: WindowInfo) -> CaptureState:
        seen = tuple(key for key in self.seen if key != window.key)[-(SEEN_WINDOWS - 1):]
        return replace(self, seen=(*seen, window.key))

    def with_screen(self, screen: Screen) -> CaptureState:
        others = [s for s in self.screens if s.monitor != screen.monitor]
        screens = tuple(sorted([*others, screen], key=lambda s: s.monitor))
        return replace(self, screens=screens)


def same_window(a: WindowInfo | None, b: WindowInfo | None) -> bool:
    """Whether two descriptions are of one window: the same X id, of the
    same generation, owned by the same process (a new client that reused
    an id is another window)."""
    return a is not None and b is not None and a.key == b.key


def is_new_focus(state: CaptureState, window_id: int | None, window: WindowInfo | None = None) -> bool:
    """Whether X reporting focus on `window_id` (described as `window`, when
    it was) is a focus change: another id, or the same id now belonging to
    another client."""
    if window_id != (state.focus.window_id if state.focus else None):
        return True
    return window is not None and not same_window(state.focus, window)


def monitor_of(monitors: tuple[Monitor, ...], x: int, y: int) -> Monitor:
    """The monitor showing the point; the first one when none does."""
    for monitor in monitors:
        if monitor.contains(x, y):
            return monitor
    return monitors[0] if monitors else NO_MONITOR
