"""Segmentation: per monitor, snapshots into sessions and runs of one
(app, site), with dwell credit (activity-frames §4).

- Each snapshot earns `min(Δt, 90 s)` where Δt is the time to the next
  snapshot on the same monitor; no credit across a gap over 300 s, and none
  for an idle snapshot (the capture knew nobody was there — better than the
  paper, which credits screen presence regardless).
- A gap over 300 s between snapshots, or an idle stretch over 300 s, ends the
  session: no run continues across it.
- Consecutive snapshots with the same key form one run.

Per monitor these rules run as list passes (a day is thousands of
snapshots: numpy's import would cost a whole process more than it saves
there), and as numpy array operations from LONG_WINDOW snapshots on
(arrays.py); tests/compiler/test_segment_reference.py holds them to a plain
snapshot-by-snapshot loop on random streams.
"""

from __future__ import annotations

from itertools import accumulate
from operator import attrgetter, ne, sub
from typing import NamedTuple

from compiler.pages import site_of
from compiler.records import CHRONOLOGICAL, IDLE, TS_MS, URL, Snapshot

DWELL_CAP_MS = 90_000
SESSION_GAP_MS = 300_000
# From this many rows on, a pass runs its numpy version (arrays.py): there it
# saves more than numpy's import costs a process that had not loaded it.
LONG_WINDOW = 10_000


class Run(NamedTuple):
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

    @property
    def start_ms(self) -> int:
        return self.snapshots[0].ts_ms

    @property
    def key(self) -> tuple[str, str | None]:
        return self.app, self.site


_APP = attrgetter("app")


def by_monitor(snapshots: tuple[Snapshot, ...]) -> dict[int, tuple[Snapshot, ...]]:
    streams: dict[int, list[Snapshot]] = {}
    for snapshot in snapshots:
        streams.setdefault(snapshot.monitor, []).append(snapshot)
    return {monitor: tuple(sorted(stream, key=CHRONOLOGICAL)) for monitor, stream in sorted(streams.items())}


def credits(ts: list[int], idle: list[bool]) -> list[int]:
    """Dwell credit (ms) of each snapshot in one monitor's time-ordered
    stream, given its times (ms) and idle flags: the time to the next
    snapshot, capped at 90 s; nothing across a gap of more than 300 s, for
    an idle snapshot, or for the last one."""
    gaps = list(map(sub, ts[1:], ts[:-1]))
    return [0 if quiet or gap > SESSION_GAP_MS else min(gap, DWELL_CAP_MS)
            for gap, quiet in zip(gaps, idle)] + [0]


def session_breaks(ts: list[int], idle: list[bool]) -> list[bool]:
    """For one monitor's stream (times in ms, idle flags): breaks[i] is True
    when a new session starts at snapshot i: the first snapshot, one more
    than 300 s after the previous, or the first active one after an idle
    stretch that began more than 300 s before it."""
    breaks = [True]
    idle_since = ts[0]          # start of the idle stretch the previous snapshot is in
    for i in range(1, len(ts)):
        if idle[i] and not idle[i - 1]:
            idle_since = ts[i]
        breaks.append(ts[i] - ts[i - 1] > SESSION_GAP_MS
                      or (not idle[i] and idle[i - 1] and ts[i] - idle_since > SESSION_GAP_MS))
    return breaks


def runs(snapshots: tuple[Snapshot, ...]) -> tuple[Run, ...]:
    """All runs of all monitors, each monitor's in time order."""
    if len(snapshots) >= LONG_WINDOW:
        from .arrays import runs as array_runs

        return array_runs(snapshots)
    result: list[Run] = []
    sites: dict[str, str | None] = {}
    for monitor, stream in by_monitor(snapshots).items():
        count = len(stream)
        ts, idle = list(map(TS_MS, stream)), list(map(IDLE, stream))
        dwell = credits(ts, idle)
        breaks = session_breaks(ts, idle)
        urls = list(map(URL, stream))
        for url in set(urls) - sites.keys():  # the frame key's site, worked out once per URL
            sites[url] = (site_of(url) or None) if url else None
        keys = list(zip(map(_APP, stream), map(sites.__getitem__, urls)))
        starts = [i for i, (brk, changed) in enumerate(zip(breaks, map(ne, keys, [None, *keys])))
                  if brk or changed]
        session = list(accumulate(breaks))
        for first, stop in zip(starts, [*starts[1:], count]):
            app, site = keys[first]
            credit = dwell[first:stop]
            attended = [t + c for t, c, quiet in zip(ts[first:stop], credit, idle[first:stop]) if not quiet]
            result.append(Run(monitor, session[first] - 1, app, site, stream[first:stop], tuple(credit),
                              max(attended) if attended else ts[first], sum(credit)))
    return tuple(result)
