"""What the daemon tells the rules it saw. Each carries its own time: the
rules never read a clock."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from ..sources.base import Monitor, WindowInfo


@dataclass(frozen=True, slots=True)
class Started:
    """Capture starts; `paused` is the pause state the store remembers."""

    now_ms: int
    paused: bool


@dataclass(frozen=True, slots=True)
class FocusMoved:
    """X reports focus on `window_id` (None: no window), described as
    `window` (None when it vanished before it could be described)."""

    now_ms: int
    window_id: int | None
    window: WindowInfo | None


@dataclass(frozen=True, slots=True)
class TitleSeen:
    """The focused window, described again after a title event."""

    now_ms: int
    window: WindowInfo


@dataclass(frozen=True, slots=True)
class Tick:
    """Once a second: idle, heartbeats."""

    now_ms: int


@dataclass(frozen=True, slots=True)
class InputSeen:
    """A key, click or scroll at `ts_ms`, received by `window` (the window
    that had the keyboard, or the one under the pointer; None when that
    could not be told, then the focused window is assumed)."""

    ts_ms: int
    window: WindowInfo | None = None


@dataclass(frozen=True, slots=True)
class Pause:
    """The user asks capture to pause."""

    now_ms: int


@dataclass(frozen=True, slots=True)
class Resume:
    """The user asks capture to resume; `window` is the focused window now
    (None when there is none or the display is down)."""

    now_ms: int
    window: WindowInfo | None


@dataclass(frozen=True, slots=True)
class DisplayGone:
    """The X server stopped answering (or could not be reached)."""

    now_ms: int


@dataclass(frozen=True, slots=True)
class DisplayBack:
    """X answers again (at `now_ms`, when it first did), and has these monitors."""

    now_ms: int
    monitors: tuple[Monitor, ...]


@dataclass(frozen=True, slots=True)
class AccessibilityBus:
    """The accessibility bus as the daemon found it: `ok`, `disabled` (by
    the settings), `unavailable` (not reachable when capture started or
    tried again), `lost` (the connection to it dropped)."""

    now_ms: int
    status: str


@dataclass(frozen=True, slots=True)
class AccessibilityAnswer:
    """What the accessibility worker said about a focused window's snapshot:
    in time for it, or `late` (after the snapshot went without it). A hung
    application's answer carries when the first call it left unanswered was
    made (`since_ms`)."""

    now_ms: int
    window: WindowInfo
    status: str
    late: bool = False
    since_ms: int | None = None
    detail: str = ""      # why (no_app: the toolkit and what would expose it)


@dataclass(frozen=True, slots=True)
class AccessibilityAnswered:
    """A hung application answered a call again, at `now_ms`."""

    now_ms: int
    window: WindowInfo


@dataclass(frozen=True, slots=True)
class WindowGone:
    """A window due for a heartbeat no longer exists."""

    now_ms: int
    window: WindowInfo


@dataclass(frozen=True, slots=True)
class SourceFailed:
    """One call to a source failed (a screenshot, a crop, starting the
    input listener); capture goes on."""

    now_ms: int
    what: str


@dataclass(frozen=True, slots=True)
class Forgot:
    """A stretch up to now was forgotten: the snapshots input rows name may
    have gone with it."""

    now_ms: int


@dataclass(frozen=True, slots=True)
class ClockJumped:
    """The wall clock was set: times the rules remember are of the old one."""

    now_ms: int


@dataclass(frozen=True, slots=True)
class IdleReported:
    """The compositor says the person has been away from keyboard and
    pointer for the idle threshold (`idle`), or is back (not `idle`). Where a
    compositor says so (Wayland's `org_kde_kwin_idle`, where no input can be
    observed) its word decides idle from then on, not input-less time."""

    now_ms: int
    idle: bool


Observation = Union[Started, FocusMoved, TitleSeen, Tick, InputSeen, Pause, Resume, DisplayGone,
                    DisplayBack, AccessibilityBus, AccessibilityAnswer, AccessibilityAnswered, WindowGone,
                    SourceFailed, Forgot, ClockJumped, IdleReported]
