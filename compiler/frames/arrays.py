"""Segmentation (dwell ended at blind spots), nearest-snapshot and in-time
attribution, quiet time (silences, and the credit they take back) and
coverage as numpy array operations, for long windows.

The passes' own modules run these rules as plain list passes, which is what
one day wants: a first compile runs as a whole process, and importing numpy
costs it more than numpy saves on a few thousand rows. From LONG_WINDOW
rows on (`segment.LONG_WINDOW`: about four days of the synthetic corpus),
each pass hands its window to its array version here, which gives the same
records (tests/compiler/test_frames_arrays.py holds the two to each other,
on the fixture day and random captures, and test_segment_reference /
test_coverage_reference hold both to the rule-by-rule loops).
docs/BENCHMARKS.md has both ways measured."""

from __future__ import annotations

from itertools import chain
from operator import attrgetter, ne
from typing import NamedTuple

import numpy as np

from compiler.pages import site_of
from compiler.records import ID, IDLE, MONITOR, TS_MS, URL, BlindSpot, Coverage, Gap, InputEvent, Snapshot

from .attribute import FOCUS_LAG_MS
from .quiet import IDLE_AFTER_MS, Intervals, Quiet, stretches
from .segment import DWELL_CAP_MS, SESSION_GAP_MS, Run, by_monitor, stops_by_monitor

_NEVER = np.iinfo(np.int64).min
_OPEN = np.iinfo(np.int64).max
_APP = attrgetter("app")
_PLACE = attrgetter("monitor", "ts_ms", "id")
_END_MS = attrgetter("end_ms")


def credits(ts: np.ndarray, idle: np.ndarray, stops: np.ndarray | None = None) -> np.ndarray:
    """`segment.credits` on int64 times, bool idle flags and the sorted
    int64 instants where a blind spot starts."""
    following = np.append(ts[1:], _OPEN)
    if stops is not None and stops.size:
        at = np.searchsorted(stops, ts, side="left")         # first stop at or after
        stop_after = np.where(at < stops.size, stops[np.minimum(at, stops.size - 1)], _OPEN)
        following = np.minimum(following, stop_after)
    gap = np.where(following == _OPEN, 0, following - ts)
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


def runs(snapshots: tuple[Snapshot, ...], blind_spots: tuple[BlindSpot, ...] = ()) -> tuple[Run, ...]:
    """`segment.runs`: all runs of all monitors, each monitor's in time
    order; a snapshot's dwell ends at the first blind spot after it."""
    result: list[Run] = []
    sites: dict[str, str | None] = {}
    streams = by_monitor(snapshots)
    stops = {monitor: np.array(starts, dtype=np.int64)
             for monitor, starts in stops_by_monitor(blind_spots, list(streams)).items()} if blind_spots else {}
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


class Stream(NamedTuple):
    """The frame stream sorted by (monitor, time, id), as columns; the
    events' monitors and times. Built once for both searches."""

    ordered: list[Snapshot]
    monitor: np.ndarray
    time: np.ndarray
    id: np.ndarray
    event_monitor: np.ndarray
    event_time: np.ndarray


def stream(snapshots: tuple[Snapshot, ...], inputs: tuple[InputEvent, ...]) -> Stream:
    ordered = sorted(snapshots, key=_PLACE)
    count = len(ordered)
    return Stream(ordered, np.fromiter(map(MONITOR, ordered), dtype=np.int64, count=count),
                  np.fromiter(map(TS_MS, ordered), dtype=np.int64, count=count),
                  np.fromiter(map(ID, ordered), dtype=np.int64, count=count),
                  np.fromiter(map(MONITOR, inputs), dtype=np.int64, count=len(inputs)),
                  np.fromiter(map(TS_MS, inputs), dtype=np.int64, count=len(inputs)))


def nearest_snapshots(snapshots: tuple[Snapshot, ...], inputs: tuple[InputEvent, ...],
                      columns: Stream | None = None) -> tuple[list[int], list[bool]]:
    """`attribute.nearest_snapshots`, one vectorized binary search per monitor."""
    owners = np.zeros(len(inputs), dtype=np.int64)
    found = np.zeros(len(inputs), dtype=bool)
    if not inputs or not snapshots:
        return owners.tolist(), found.tolist()
    if columns is None:
        columns = stream(snapshots, inputs)
    event_monitor, event_time = columns.event_monitor, columns.event_time
    snap_monitor, snap_time, snap_id = columns.monitor, columns.time, columns.id
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


def in_time(columns: Stream, linked: list[int], owners: list[int], found: list[bool]) -> None:
    """`attribute._in_time` (in place) as array comparisons over the linked
    events that have an owner."""
    kept = np.array([i for i in linked if found[i]], dtype=np.int64)
    if not kept.size:
        return
    ordered, snap_monitor, snap_time, snap_id = columns.ordered, columns.monitor, columns.time, columns.id
    apps: dict[str, int] = {}
    for app in map(_APP, ordered):
        apps.setdefault(app, len(apps))
    code = np.fromiter(map(apps.__getitem__, map(_APP, ordered)), dtype=np.int64, count=len(ordered))
    by_id_order = np.argsort(snap_id, kind="stable")
    owner = np.array([owners[i] for i in kept.tolist()], dtype=np.int64)
    at = by_id_order[np.searchsorted(snap_id[by_id_order], owner)]
    owner_code, owner_time = code[at], snap_time[at]
    monitor, ts = columns.event_monitor[kept], columns.event_time[kept]
    lo = np.searchsorted(snap_monitor, monitor, side="left")
    hi = np.searchsorted(snap_monitor, monitor, side="right")
    pos = _positions(snap_monitor, snap_time, monitor, ts)   # first snapshot after the event
    cur, nxt = np.clip(pos - 1, 0, len(ordered) - 1), np.clip(pos, 0, len(ordered) - 1)
    same_now = (pos - 1 >= lo) & (code[cur] == owner_code)
    use_current = same_now & (snap_id[cur] != owner)
    use_next = (~same_now & (pos < hi) & (code[nxt] == owner_code)
                & (snap_time[nxt] - ts <= FOCUS_LAG_MS) & (owner_time < ts))
    for position, moved in chain(zip(kept[use_current].tolist(), snap_id[cur[use_current]].tolist()),
                                 zip(kept[use_next].tolist(), snap_id[nxt[use_next]].tolist())):
        owners[position] = moved


def _positions(snap_monitor: np.ndarray, snap_time: np.ndarray, monitor: np.ndarray,
               ts: np.ndarray) -> np.ndarray:
    """For each (monitor, ts), how many snapshots sort at or before it by
    (monitor, time): one searchsorted over a combined key."""
    base = int(min(snap_time.min(), ts.min()))
    width = int(max(snap_time.max(), ts.max())) - base + 1
    combined = snap_monitor * width + (snap_time - base)
    positions: np.ndarray = np.searchsorted(combined, monitor * width + (ts - base), side="right")
    return positions


def coverage(runs: tuple[Run, ...], snapshots: tuple[Snapshot, ...], blind_spots: tuple[BlindSpot, ...],
             found: Quiet | None = None, idle_after_ms: int = IDLE_AFTER_MS) -> Coverage:
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
    if found is None:
        return Coverage(first, last, active, last - first, gaps, monitors, 0, last - first - active)
    active -= int(within(found.idle, merged_starts, merged_ends).sum()
                  + within(found.away, merged_starts, merged_ends).sum())
    span = np.array([first, last], dtype=np.int64)
    idle = int(within(found.idle, span[:1], span[1:])[0])
    return Coverage(first, last, active, last - first, gaps, monitors, idle, last - first - active - idle,
                    stretches(found, first, last, gaps, idle_after_ms))


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
        # a spot still open lasts until the next snapshot after it starts (or past any gap)
        times = np.sort(np.fromiter(map(TS_MS, snapshots), dtype=np.int64, count=len(snapshots)))
        times = np.append(times, _OPEN)
        following = times[np.searchsorted(times[:-1], self._spot_starts, side="right")]
        closed = np.fromiter((s.end_ms is not None for s in blind_spots), dtype=bool, count=len(blind_spots))
        ends = np.fromiter((s.end_ms or 0 for s in blind_spots), dtype=np.int64, count=len(blind_spots))
        self._spot_ends = np.where(closed, ends, following)
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


def within(intervals: Intervals, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """`quiet.Intervals.within` for every [start[i], end[i])."""
    if not intervals.spans:
        return np.zeros(len(start), dtype=np.int64)
    starts = np.array(intervals.starts, dtype=np.int64)
    ends = np.array(intervals.ends, dtype=np.int64)
    total = np.array(intervals.total, dtype=np.int64)

    def measure(x: np.ndarray) -> np.ndarray:
        prev = np.searchsorted(starts, x, side="right") - 1
        at = np.maximum(prev, 0)
        part = np.clip(np.minimum(x, ends[at]) - starts[at], 0, None)
        return np.where(prev >= 0, total[at] + part, 0)

    covered: np.ndarray = measure(end) - measure(start)
    return covered


def silences(inputs: tuple[InputEvent, ...], idle_after_ms: int, first_seen: int,
             last_seen: int) -> list[tuple[int, int]]:
    """`quiet.silences` on int64 columns (`inputs` is not empty)."""
    begun = np.fromiter(map(TS_MS, inputs), dtype=np.int64, count=len(inputs))
    order = np.argsort(begun, kind="stable")
    starts = begun[order]
    ends = np.maximum(np.fromiter(map(_END_MS, inputs), dtype=np.int64, count=len(inputs))[order], starts)
    reach = np.maximum.accumulate(ends)             # input so far reaches this far
    # stretch i runs from the reach of input i-1 to the start of input i
    lo = np.concatenate(([min(first_seen, int(starts[0]))], reach))
    hi = np.concatenate((starts, [max(last_seen, int(reach[-1]))]))
    long = np.flatnonzero(hi - lo >= idle_after_ms)
    return list(zip(lo[long].tolist(), hi[long].tolist()))


def apply_quiet(runs: tuple[Run, ...], found: Quiet) -> tuple[Run, ...]:
    """`quiet.apply`: the quiet part of every snapshot's credit, summed per run."""
    members = list(chain.from_iterable(run.snapshots for run in runs))
    ts = np.fromiter(map(TS_MS, members), dtype=np.int64, count=len(members))
    credit = np.fromiter(chain.from_iterable(run.credits for run in runs), dtype=np.int64,
                         count=len(members))
    starts = np.cumsum([0] + [len(run.snapshots) for run in runs[:-1]])
    idle = np.add.reduceat(within(found.idle, ts, ts + credit), starts).tolist()
    away = np.add.reduceat(within(found.away, ts, ts + credit), starts).tolist()
    return tuple(tuple.__new__(Run, (*run[:7], run.active_ms - i - a, i, a)) if i or a else run
                 for run, i, a in zip(runs, idle, away))
