"""Coverage: first and last activity, active time (the union of credited
moments over all monitors, so two screens do not count twice, without the
quiet time of quiet.py), idle and away time, span, the gaps of more than
300 s in between, each with the best reason known, and the idle and away
stretches inside the span.

Everything here is a whole-window array operation. A window of weeks has
hundreds of gaps and thousands of blind spots: naming each gap still weighs
every blind spot, but as one numpy comparison, and finds idle snapshots by
binary search — the Python loops over every snapshot and blind spot per
gap took about four seconds on the 51-day corpus."""

from __future__ import annotations

from itertools import chain

import numpy as np

from compiler.records import IDLE, MONITOR, TS_MS, BlindSpot, Coverage, Gap, Snapshot

from .quiet import IDLE_AFTER_MS, Quiet, stretches
from .segment import SESSION_GAP_MS, Run

_OPEN = np.iinfo(np.int64).max


def coverage(runs: tuple[Run, ...], snapshots: tuple[Snapshot, ...],
             blind_spots: tuple[BlindSpot, ...], found: Quiet | None = None,
             idle_after_ms: int = IDLE_AFTER_MS) -> Coverage:
    """Active, idle and away time sum to the span: active is the credited
    union without its quiet part, idle the idle stretches inside the span,
    away the rest (gaps, blind spots, silences over 300 s, uncredited time)."""
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
    active -= int(found.idle.within(merged_starts, merged_ends).sum()
                  + found.away.within(merged_starts, merged_ends).sum())
    span = np.array([first, last], dtype=np.int64)
    idle = int(found.idle.within(span[:1], span[1:])[0])
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
    """A stored blind spot covering at least half the gap names it (the one
    overlapping most; the earliest listed on a tie; an open-ended one lasts
    until the next snapshot); idle snapshots inside it make it 'idle';
    otherwise the user was away (or capture off)."""

    def __init__(self, snapshots: tuple[Snapshot, ...], blind_spots: tuple[BlindSpot, ...]) -> None:
        self._idle_times = np.sort(np.fromiter((s.ts_ms for s in snapshots if s.idle), dtype=np.int64))
        self._spot_starts = np.fromiter((s.start_ms for s in blind_spots), dtype=np.int64,
                                        count=len(blind_spots))
        # a spot still open lasts until the next snapshot after it starts (or past any gap)
        times = np.sort(np.fromiter(map(TS_MS, snapshots), dtype=np.int64, count=len(snapshots)))
        after = np.searchsorted(times, self._spot_starts, side="right")
        following = np.where(after < times.size, times[np.minimum(after, max(times.size - 1, 0))], _OPEN) \
            if times.size else np.full(len(blind_spots), _OPEN, dtype=np.int64)
        ends = np.fromiter((s.end_ms if s.end_ms is not None else -1 for s in blind_spots),
                           dtype=np.int64, count=len(blind_spots))
        self._spot_ends = np.where(ends >= 0, ends, following)
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
