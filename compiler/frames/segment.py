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

Per monitor these rules run as list passes (a day is thousands of
snapshots: numpy's import would cost a whole process more than it saves
there), and as numpy array operations from LONG_WINDOW snapshots on
(arrays.py); tests/compiler/test_segment_reference.py holds them to a plain
snapshot-by-snapshot loop on random streams.
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import accumulate
from operator import attrgetter, ne, sub
from typing import NamedTuple

from compiler.pages import site_of
from compiler.records import CHRONOLOGICAL, IDLE, TS_MS, URL, BlindSpot, Snapshot

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
    idle_ms: int = 0                  # credit taken back: no input (quiet.py)
    away_ms: int = 0

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


def credits(ts: list[int], idle: list[bool], stops: list[int] | None = None) -> list[int]:
    """Dwell credit (ms) of each snapshot in one monitor's time-ordered
    stream, given its times (ms), idle flags and the sorted instants where
    a blind spot starts (`stops`): the time to the next snapshot or stop,
    capped at 90 s; nothing across a gap of more than 300 s, for an idle
    snapshot, or for the last one when no stop follows it."""
    if not stops:
        gaps = list(map(sub, ts[1:], ts[:-1]))
        return [0 if quiet or gap > SESSION_GAP_MS else min(gap, DWELL_CAP_MS)
                for gap, quiet in zip(gaps, idle)] + [0]
    result = []
    at = bisect_left(stops, ts[0])          # the first stop at or after the snapshot
    for i, (t, quiet) in enumerate(zip(ts, idle)):
        while at < len(stops) and stops[at] < t:
            at += 1
        following = ts[i + 1] if i + 1 < len(ts) else None
        if at < len(stops) and (following is None or stops[at] < following):
            following = stops[at]
        if quiet or following is None or following - t > SESSION_GAP_MS:
            result.append(0)
        else:
            result.append(min(following - t, DWELL_CAP_MS))
    return result


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


# Blind spots during which the screen is still captured: the snapshots go on
# (app, title, time), only the element tree is missing, so they end no dwell.
# The daemon opens `no_accessibility` for the window that has focus at the
# very instant of that window's focus snapshot (a terminal without AT-SPI):
# ending dwell there credited the snapshot nothing, and a terminal session
# lost about a sixth of its time (issue 26, the answerability bench).
SCREEN_SEEN = frozenset({"no_accessibility"})


def stops_by_monitor(blind_spots: tuple[BlindSpot, ...], monitors: list[int]) -> dict[int, list[int]]:
    """Per monitor, the sorted start instants of the blind spots that apply
    to it (its own and those of every monitor) and end dwell (not those
    the screen is still captured through, SCREEN_SEEN)."""
    return {monitor: sorted(s.start_ms for s in blind_spots
                            if (s.monitor is None or s.monitor == monitor) and s.kind not in SCREEN_SEEN)
            for monitor in monitors}


def runs(snapshots: tuple[Snapshot, ...], blind_spots: tuple[BlindSpot, ...] = ()) -> tuple[Run, ...]:
    """All runs of all monitors, each monitor's in time order; a snapshot's
    dwell ends at the first blind spot after it."""
    if len(snapshots) >= LONG_WINDOW:
        from .arrays import runs as array_runs

        return array_runs(snapshots, blind_spots)
    result: list[Run] = []
    sites: dict[str, str | None] = {}
    streams = by_monitor(snapshots)
    stops = stops_by_monitor(blind_spots, list(streams)) if blind_spots else {}
    for monitor, stream in streams.items():
        count = len(stream)
        ts, idle = list(map(TS_MS, stream)), list(map(IDLE, stream))
        dwell = credits(ts, idle, stops.get(monitor))
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
