"""Whether time went by as the capture saw it: the daemon's ticks read two
clocks, the wall clock its rows are stamped with and the boot clock
(`CLOCK_BOOTTIME`: monotonic, never set, and — unlike `CLOCK_MONOTONIC` —
counting while the machine is suspended). Between two ticks, a second or
so goes by on both. When much more went by on the boot clock, the daemon
did not run in between (SIGSTOP, a suspended laptop, a hung main loop):
a `not_running` blind spot from the last tick to this one. When the wall
clock moved by much more or less than the boot clock, it was set (by hand,
NTP stepping it, a virtual machine resumed): a `clock_jump` blind spot over
the wall time skipped (forward) or lived twice (back), its reason naming the
size; the daemon closes its bursts there, so no row runs across it.

`judge` decides from two readings; the daemon reads the clocks and
writes the rows (issue 28: a stopped daemon must leave a trace, and time
must tell the truth).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

NOT_RUNNING = "not_running"
CLOCK_JUMP = "clock_jump"
SUSPENDED_REASON = "capture was suspended"
STOPPED_REASON = "capture stopped"
# Wall and boot clock may drift apart this much between ticks before it is a
# jump (NTP slews by at most 0.5 ms a second; a step is a jump).
JUMP_MS = 2_000
# A tick this late (on the boot clock) means the daemon did not run, at least.
MIN_GAP_MS = 2_000
# At most: a tick later than this is a gap whatever the heartbeat.
MAX_GAP_MS = 10_000


@dataclass(frozen=True, slots=True)
class Reading:
    """One tick's clocks, in milliseconds."""

    wall_ms: int
    boot_ms: int


@dataclass(frozen=True, slots=True)
class Stretch:
    """A blind spot to write: [start_ms, end_ms] in wall time."""

    kind: str
    start_ms: int
    end_ms: int
    reason: str


def boot_ms() -> int:
    """The boot clock now (the one clock read here; `judge` reads none)."""
    return time.clock_gettime_ns(time.CLOCK_BOOTTIME) // 1_000_000


def gap_after_ms(heartbeat_ms: int) -> int:
    """How late a tick may be before the daemon counts as not having run:
    a missed heartbeat, within [MIN_GAP_MS, MAX_GAP_MS]."""
    return max(MIN_GAP_MS, min(MAX_GAP_MS, heartbeat_ms))


def judge(previous: Reading, current: Reading, *, gap_after: int) -> tuple[Stretch, ...]:
    """The blind spots between two ticks (none when time went by as it should)."""
    boot = current.boot_ms - previous.boot_ms
    wall = current.wall_ms - previous.wall_ms
    skew = wall - boot
    stretches: list[Stretch] = []
    jumped = abs(skew) > JUMP_MS
    if jumped:
        # Where the old clock would read now, and where the new one does: the
        # wall time between was skipped (forward) or is lived twice (back).
        expected = previous.wall_ms + boot
        stretches.append(Stretch(CLOCK_JUMP, min(expected, current.wall_ms), max(expected, current.wall_ms),
                                 jump_reason(skew)))
    if boot > gap_after:
        # Not running since the last tick, measured on the boot clock; after
        # a jump it is placed on the new clock, ending now.
        start = current.wall_ms - boot if jumped else previous.wall_ms
        stretches.append(Stretch(NOT_RUNNING, start, current.wall_ms, SUSPENDED_REASON))
    return tuple(stretches)


class Ticks:
    """The daemon's ticks, judged each against the one before."""

    def __init__(self, gap_after: int) -> None:
        self._gap_after = gap_after
        self._last: Reading | None = None

    def next(self, clocks: Reading) -> tuple[Stretch, ...]:
        previous, self._last = self._last, clocks
        return () if previous is None else judge(previous, clocks, gap_after=self._gap_after)


def jump_reason(skew_ms: int) -> str:
    """'clock moved back 3 h', 'clock moved forward 2 d', '… 2.5 s'."""
    size = abs(skew_ms)
    unit, unit_ms = next(((name, ms) for name, ms in _UNITS if size >= ms), ("ms", 1))
    amount = size / unit_ms
    text = f"{amount:.0f}" if amount >= 10 else f"{amount:.1f}".removesuffix(".0")
    return f"clock moved {'back' if skew_ms < 0 else 'forward'} {text} {unit}"


_UNITS = (("d", 86_400_000), ("h", 3_600_000), ("min", 60_000), ("s", 1_000))
