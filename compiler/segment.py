"""Segmentation: per monitor, snapshots into sessions and runs of one
(app, site), with dwell credit (activity-frames §4).

- Each snapshot earns `min(Δt, 90 s)` where Δt is the time to the next
  snapshot on the same monitor; no credit across a gap over 300 s, and none
  for an idle snapshot (the capture knew nobody was there — better than the
  paper, which credits screen presence regardless).
- A gap over 300 s between snapshots, or an idle stretch over 300 s, ends the
  session: no run continues across it.
- Consecutive snapshots with the same key form one run.
"""

from __future__ import annotations

from dataclasses import dataclass

from .pages import site_of
from .records import Snapshot

DWELL_CAP_MS = 90_000
SESSION_GAP_MS = 300_000


@dataclass(frozen=True, slots=True)
class Run:
    """Consecutive snapshots on one monitor with one (app, site) key.

    `end_ms` is when the run stopped holding attention: its last credited
    moment (idle snapshots show the screen was on, not that anyone was there)."""

    monitor: int
    session: int
    app: str
    site: str | None
    snapshots: tuple[Snapshot, ...]
    credits: tuple[int, ...]          # dwell credit per snapshot, ms
    end_ms: int
    active_ms: int

    @classmethod
    def of(cls, monitor: int, session: int, app: str, site: str | None,
           snapshots: tuple[Snapshot, ...], credits: tuple[int, ...]) -> "Run":
        active = [s.ts_ms + c for s, c in zip(snapshots, credits) if not s.idle]
        return cls(monitor, session, app, site, snapshots, credits,
                   max(active) if active else snapshots[0].ts_ms, sum(credits))

    @property
    def start_ms(self) -> int:
        return self.snapshots[0].ts_ms

    @property
    def key(self) -> tuple[str, str | None]:
        return self.app, self.site


def frame_key(snapshot: Snapshot) -> tuple[str, str | None]:
    return snapshot.app, (site_of(snapshot.url) or None) if snapshot.url else None


def by_monitor(snapshots: tuple[Snapshot, ...]) -> dict[int, tuple[Snapshot, ...]]:
    streams: dict[int, list[Snapshot]] = {}
    for snapshot in snapshots:
        streams.setdefault(snapshot.monitor, []).append(snapshot)
    return {monitor: tuple(sorted(stream, key=lambda s: (s.ts_ms, s.id)))
            for monitor, stream in sorted(streams.items())}


def credits(stream: tuple[Snapshot, ...]) -> tuple[int, ...]:
    """Dwell credit of each snapshot in one monitor's time-ordered stream."""
    result = []
    for index, snapshot in enumerate(stream):
        if snapshot.idle or index + 1 == len(stream):
            result.append(0)
            continue
        gap = stream[index + 1].ts_ms - snapshot.ts_ms
        result.append(0 if gap > SESSION_GAP_MS else min(gap, DWELL_CAP_MS))
    return tuple(result)


def session_breaks(stream: tuple[Snapshot, ...]) -> tuple[bool, ...]:
    """breaks[i] is True when a new session starts at snapshot i."""
    breaks = []
    idle_since: int | None = None
    for index, snapshot in enumerate(stream):
        brk = index == 0
        if index:
            previous = stream[index - 1]
            if snapshot.ts_ms - previous.ts_ms > SESSION_GAP_MS:
                brk = True
            if not snapshot.idle and idle_since is not None and snapshot.ts_ms - idle_since > SESSION_GAP_MS:
                brk = True
        if snapshot.idle:
            idle_since = snapshot.ts_ms if idle_since is None else idle_since
        else:
            idle_since = None
        breaks.append(brk)
    return tuple(breaks)


def runs(snapshots: tuple[Snapshot, ...]) -> tuple[Run, ...]:
    """All runs of all monitors, each monitor's in time order."""
    result: list[Run] = []
    for monitor, stream in by_monitor(snapshots).items():
        dwell = credits(stream)
        breaks = session_breaks(stream)
        session = -1
        current: list[int] = []

        def close() -> None:
            if current:
                first = stream[current[0]]
                app, site = frame_key(first)
                result.append(Run.of(monitor, session, app, site, tuple(stream[i] for i in current),
                                     tuple(dwell[i] for i in current)))
                current.clear()

        keys = [frame_key(snapshot) for snapshot in stream]
        for index in range(len(stream)):
            if breaks[index]:
                close()
                session += 1
            elif current and keys[current[0]] != keys[index]:
                close()
            current.append(index)
        close()
    return tuple(result)
