"""Segmentation: per monitor, snapshots into sessions and runs of one
(app, site), with dwell credit (activity-frames §4).

- Each snapshot earns `min(Δt, 90 s)` where Δt is the time to the next
  snapshot on the same monitor; no credit across a gap over 300 s, and none
  for an idle snapshot (the capture knew nobody was there — better than the
  paper, which credits screen presence regardless).
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
from compiler.records import CHRONOLOGICAL, IDLE, TS_MS, URL, Snapshot

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


def credits(ts: np.ndarray, idle: np.ndarray) -> np.ndarray:
    """Dwell credit (ms) of each snapshot in one monitor's time-ordered
    stream, given its times (int64 ms) and idle flags: the time to the next
    snapshot, capped at 90 s; nothing across a gap of more than 300 s, for
    an idle snapshot, or for the last one."""
    gap = np.diff(ts, append=ts[-1])
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


def runs(snapshots: tuple[Snapshot, ...]) -> tuple[Run, ...]:
    """All runs of all monitors, each monitor's in time order."""
    result: list[Run] = []
    sites: dict[str, str | None] = {}
    for monitor, stream in by_monitor(snapshots).items():
        count = len(stream)
        ts = np.fromiter(map(TS_MS, stream), dtype=np.int64, count=count)
        idle = np.fromiter(map(IDLE, stream), dtype=bool, count=count)
        dwell = credits(ts, idle)
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
