"""Segmentation: per monitor, snapshots into sessions and runs of one
(app, site), with dwell credit (activity-frames §4).

- Each snapshot earns `min(Δt, 90 s)` where Δt is the time to the next
  snapshot on the same monitor or to the start of the next blind spot
  (any kind: capture stopped, suspended, clock jump…), whichever comes
  first; no credit across a gap over 300 s, and none for an idle snapshot
  (the capture knew nobody was there — better than the paper, which
  credits screen presence regardless). The last snapshot of a stream earns
  only up to a blind spot after it (the row the daemon writes when capture
  stops): with none, nothing says how long it stayed on screen.
- Time without input (quiet.py) is taken out of that credit afterwards.
- A gap over 300 s between snapshots, or an idle stretch over 300 s, ends the
  session: no run continues across it.
- Consecutive snapshots with the same key form one run.

Per monitor these rules run as numpy array operations (a day is thousands of
snapshots); tests/compiler/test_segment_reference.py holds them to a plain
snapshot-by-snapshot loop on random streams.
"""

from __future__ import annotations

from operator import attrgetter, ne
from typing import NamedTuple

import numpy as np

from compiler.pages import site_of
from compiler.records import CHRONOLOGICAL, IDLE, TS_MS, URL, BlindSpot, Snapshot

DWELL_CAP_MS = 90_000
SESSION_GAP_MS = 300_000


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
    idle_ms: int = 0                  # credit taken back: no input (quiet.py)
    away_ms: int = 0

    @property
    def start_ms(self) -> int:
        return self.snapshots[0].ts_ms

    @property
    def key(self) -> tuple[str, str | None]:
        return self.app, self.site


_NEVER = np.iinfo(np.int64).min
_APP = attrgetter("app")


def by_monitor(snapshots: tuple[Snapshot, ...]) -> dict[int, tuple[Snapshot, ...]]:
    streams: dict[int, list[Snapshot]] = {}
    for snapshot in snapshots:
        streams.setdefault(snapshot.monitor, []).append(snapshot)
    return {monitor: tuple(sorted(stream, key=CHRONOLOGICAL)) for monitor, stream in sorted(streams.items())}


_LAST = np.iinfo(np.int64).max


def credits(ts: np.ndarray, idle: np.ndarray, stops: np.ndarray | None = None) -> np.ndarray:
    """Dwell credit (ms) of each snapshot in one monitor's time-ordered
    stream, given its times (int64 ms), idle flags and the sorted instants
    where a blind spot starts (`stops`): the time to the next snapshot or
    stop, capped at 90 s; nothing across a gap of more than 300 s, for an
    idle snapshot, or for the last one when no stop follows it."""
    following = np.append(ts[1:], _LAST)
    if stops is not None and stops.size:
        at = np.searchsorted(stops, ts, side="left")         # first stop at or after
        stop_after = np.where(at < stops.size, stops[np.minimum(at, stops.size - 1)], _LAST)
        following = np.minimum(following, stop_after)
    gap = np.where(following == _LAST, 0, following - ts)
    credit = np.minimum(gap, DWELL_CAP_MS)
    credit[(gap > SESSION_GAP_MS) | idle] = 0
    return credit


def session_breaks(ts: np.ndarray, idle: np.ndarray) -> np.ndarray:
    """For one monitor's stream (times in int64 ms, idle flags), a bool
    array: breaks[i] is True when a new session starts at snapshot i: the first
    snapshot, one more than 300 s after the previous, or the first active one
    after an idle stretch that began more than 300 s before it."""
    breaks = np.zeros(len(ts), dtype=bool)
    breaks[0] = True
    breaks[1:] = np.diff(ts) > SESSION_GAP_MS
    positions = np.arange(len(ts))
    last_active = np.maximum.accumulate(np.where(idle, -1, positions))   # at or before i
    idle_since = ts[np.concatenate(([0], last_active[:-1] + 1))]         # start of the idle run before i
    ends_idle = np.zeros(len(ts), dtype=bool)
    ends_idle[1:] = ~idle[1:] & idle[:-1]
    breaks |= ends_idle & (ts - idle_since > SESSION_GAP_MS)
    return breaks


def stops_by_monitor(blind_spots: tuple[BlindSpot, ...], monitors: list[int]) -> dict[int, np.ndarray]:
    """Per monitor, the sorted start instants of the blind spots that apply
    to it (its own and those of every monitor)."""
    return {monitor: np.sort(np.fromiter((s.start_ms for s in blind_spots
                                          if s.monitor is None or s.monitor == monitor), dtype=np.int64))
            for monitor in monitors}


def runs(snapshots: tuple[Snapshot, ...], blind_spots: tuple[BlindSpot, ...] = ()) -> tuple[Run, ...]:
    """All runs of all monitors, each monitor's in time order; a snapshot's
    dwell ends at the first blind spot after it."""
    result: list[Run] = []
    sites: dict[str, str | None] = {}
    streams = by_monitor(snapshots)
    stops = stops_by_monitor(blind_spots, list(streams)) if blind_spots else {}
    for monitor, stream in streams.items():
        count = len(stream)
        ts = np.fromiter(map(TS_MS, stream), dtype=np.int64, count=count)
        idle = np.fromiter(map(IDLE, stream), dtype=bool, count=count)
        dwell = credits(ts, idle, stops.get(monitor))
        breaks = session_breaks(ts, idle)
        urls = list(map(URL, stream))
        for url in set(urls) - sites.keys():  # the frame key's site, worked out once per URL
            sites[url] = (site_of(url) or None) if url else None
        keys = list(zip(map(_APP, stream), map(sites.__getitem__, urls)))
        changed = np.fromiter(map(ne, keys[1:], keys[:-1]), dtype=bool, count=count - 1)
        starts = np.flatnonzero(breaks | np.concatenate(([False], changed)))
        session = (np.cumsum(breaks) - 1)[starts].tolist()
        attended = np.where(idle, _NEVER, ts + dwell)             # last credited moment, or never
        last = np.maximum.reduceat(attended, starts)
        end_ms = np.where(last == _NEVER, ts[starts], last).tolist()
        active_ms = np.add.reduceat(dwell, starts).tolist()
        dwell_list = dwell.tolist()
        bounds = starts.tolist() + [count]
        for run, (first, stop) in enumerate(zip(bounds, bounds[1:])):
            app, site = keys[first]
            result.append(Run(monitor, session[run], app, site, stream[first:stop],
                              tuple(dwell_list[first:stop]), end_ms[run], active_ms[run]))
    return tuple(result)
