"""Segmentation, nearest-snapshot attribution and coverage as numpy array
operations, for long windows.

The passes' own modules run these rules as plain list passes, which is what
one day wants: a first compile runs as a whole process, and importing numpy
costs it more than numpy saves on a few thousand rows. From LONG_WINDOW
rows on (`segment.LONG_WINDOW`: about four days of the synthetic corpus),
each pass hands its window to its array version here, which gives the same
records (tests/compiler/test_frames_arrays.py holds the two to each other,
and test_segment_reference / test_coverage_reference hold both to the
rule-by-rule loops). docs/BENCHMARKS.md has both ways measured."""

from __future__ import annotations

from itertools import chain
from operator import attrgetter, ne

import numpy as np

from compiler.pages import site_of
from compiler.records import ID, IDLE, MONITOR, TS_MS, URL, BlindSpot, Coverage, Gap, InputEvent, Snapshot

from .segment import DWELL_CAP_MS, SESSION_GAP_MS, Run, by_monitor

_NEVER = np.iinfo(np.int64).min
_OPEN = np.iinfo(np.int64).max
_APP = attrgetter("app")
_PLACE = attrgetter("monitor", "ts_ms", "id")


def credits(ts: np.ndarray, idle: np.ndarray) -> np.ndarray:
    """`segment.credits` on int64 times and bool idle flags."""
    gap = np.diff(ts, append=ts[-1])
    credit = np.minimum(gap, DWELL_CAP_MS)
    credit[(gap > SESSION_GAP_MS) | idle] = 0
    return credit


def session_breaks(ts: np.ndarray, idle: np.ndarray) -> np.ndarray:
    """`segment.session_breaks` on int64 times and bool idle flags."""
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
    """`segment.runs`: all runs of all monitors, each monitor's in time order."""
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


def nearest_snapshots(snapshots: tuple[Snapshot, ...],
                      inputs: tuple[InputEvent, ...]) -> tuple[list[int], list[bool]]:
    """`attribute.nearest_snapshots`, one vectorized binary search per monitor."""
    owners = np.zeros(len(inputs), dtype=np.int64)
    found = np.zeros(len(inputs), dtype=bool)
    if not inputs or not snapshots:
        return owners.tolist(), found.tolist()
    event_monitor = np.fromiter(map(MONITOR, inputs), dtype=np.int64, count=len(inputs))
    event_time = np.fromiter(map(TS_MS, inputs), dtype=np.int64, count=len(inputs))
    ordered = sorted(snapshots, key=_PLACE)
    snap_monitor = np.fromiter(map(MONITOR, ordered), dtype=np.int64, count=len(ordered))
    snap_time = np.fromiter(map(TS_MS, ordered), dtype=np.int64, count=len(ordered))
    snap_id = np.fromiter(map(ID, ordered), dtype=np.int64, count=len(ordered))
    for monitor in sorted(set(event_monitor.tolist())):   # np.unique would load numpy.ma
        lo, hi = np.searchsorted(snap_monitor, [monitor, monitor + 1])
        if lo == hi:
            continue
        times, ids = snap_time[lo:hi], snap_id[lo:hi]
        which = event_monitor == monitor
        ts = event_time[which]
        right = np.searchsorted(times, ts, side="left")           # first snapshot at or after
        left = np.clip(right - 1, 0, len(times) - 1)
        right = np.clip(right, 0, len(times) - 1)
        d_left = np.abs(ts - times[left])
        d_right = np.abs(times[right] - ts)
        pick = np.where(d_right < d_left, right, left)             # strict: ties keep the earlier
        owners[which] = ids[pick]
        found[which] = np.minimum(d_left, d_right) <= SESSION_GAP_MS
    return owners.tolist(), found.tolist()


def coverage(runs: tuple[Run, ...], snapshots: tuple[Snapshot, ...],
             blind_spots: tuple[BlindSpot, ...]) -> Coverage:
    """`coverage.coverage`: each gap's blind spots weighed in one comparison."""
    monitors = tuple(sorted(set(map(MONITOR, snapshots))))
    starts, ends = _attended_intervals(runs)
    if not starts.size:
        return Coverage(None, None, 0, 0, (), monitors)
    merged_starts, merged_ends = _merge(starts, ends)
    first, last = int(merged_starts[0]), int(merged_ends.max())
    active = int((merged_ends - merged_starts).sum())
    holes = np.flatnonzero(merged_starts[1:] - merged_ends[:-1] > SESSION_GAP_MS)
    explain = _GapReasons(snapshots, blind_spots)
    gaps = tuple(Gap(end, start, explain(end, start)) for end, start in
                 zip(merged_ends[holes].tolist(), merged_starts[holes + 1].tolist()))
    return Coverage(first, last, active, last - first, gaps, monitors)


def _attended_intervals(runs: tuple[Run, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(start, start + credit) of every non-idle snapshot, sorted."""
    members = list(chain.from_iterable(run.snapshots for run in runs))
    ts = np.fromiter(map(TS_MS, members), dtype=np.int64, count=len(members))
    idle = np.fromiter(map(IDLE, members), dtype=bool, count=len(members))
    credit = np.fromiter(chain.from_iterable(run.credits for run in runs), dtype=np.int64,
                         count=len(members))
    starts, ends = ts[~idle], (ts + credit)[~idle]
    order = np.lexsort((ends, starts))
    return starts[order], ends[order]


def _merge(starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Union of sorted intervals; touching intervals merge."""
    reach = np.maximum.accumulate(ends)                 # furthest end so far
    opens = np.concatenate(([True], starts[1:] > reach[:-1]))
    first = np.flatnonzero(opens)
    last = np.concatenate((first[1:] - 1, [starts.size - 1]))
    return starts[first], reach[last]


class _GapReasons:
    """`coverage`'s rule for naming a gap, as array comparisons."""

    def __init__(self, snapshots: tuple[Snapshot, ...], blind_spots: tuple[BlindSpot, ...]) -> None:
        self._idle_times = np.sort(np.fromiter((s.ts_ms for s in snapshots if s.idle), dtype=np.int64))
        self._spot_starts = np.fromiter((s.start_ms for s in blind_spots), dtype=np.int64,
                                        count=len(blind_spots))
        # a spot still open runs past any gap: its overlap then ends with the gap
        self._spot_ends = np.fromiter((s.end_ms if s.end_ms is not None else _OPEN for s in blind_spots),
                                      dtype=np.int64, count=len(blind_spots))
        self._kinds = [s.kind for s in blind_spots]

    def __call__(self, start: int, end: int) -> str:
        if self._kinds:
            overlap = np.minimum(end, self._spot_ends) - np.maximum(start, self._spot_starts)
            best = int(np.argmax(overlap))
            if overlap[best] > 0 and overlap[best] * 2 >= end - start:
                return self._kinds[best]
        inside = (np.searchsorted(self._idle_times, end, side="right")
                  - np.searchsorted(self._idle_times, start, side="left"))
        return "idle" if inside else "away"
