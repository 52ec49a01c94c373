"""Quiet time: stretches with no input, and blind spots — never credited as
active.

A stretch with no input (any kind, on any monitor) of at least
`idle_after_ms` is quiet from the last input on — counted from the input,
not from when the daemon noticed and flagged its snapshots idle. A quiet
stretch of at most the 300 s session gap is *idle* (the person was there
and not touching anything); a longer one is *away*. A blind spot is away
too: no snapshot's credit reaches into one (segment.py ends dwell at its
start), so coverage counts it in the span's away time; a silence is cut
around blind spots (an open-ended one lasts until the next snapshot or the
window's end) — they are said as blind spots, not as silences. Dwell
before the last input keeps its credit (up to the 90 s cap, as segment.py
gives it); the quiet part of every snapshot's credit is moved from active
to idle or away, run by run.

A capture with no input rows at all says nothing about presence (a layout
without an input table): nothing is made quiet then but blind spots.

Each kind is held as sorted, disjoint intervals with a running total, so
"how much of [a, b) is idle" is two binary searches for every snapshot.
"""

from __future__ import annotations

from itertools import chain
from operator import attrgetter
from typing import NamedTuple

import numpy as np

from compiler.records import TS_MS, BlindSpot, Gap, InputEvent, Snapshot

from .segment import SESSION_GAP_MS, Run

IDLE_AFTER_MS = 120_000          # the capturer's default idle_after_seconds
_END_MS = attrgetter("end_ms")


class Intervals:
    """Sorted, disjoint [start, end) intervals with `measure(x)`: their
    total length before each instant of `x`."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        self.spans = spans
        self.starts = np.fromiter((s for s, _ in spans), dtype=np.int64, count=len(spans))
        self.ends = np.fromiter((e for _, e in spans), dtype=np.int64, count=len(spans))
        self.total = np.concatenate(([0], np.cumsum(self.ends - self.starts)))

    def measure(self, x: np.ndarray) -> np.ndarray:
        if not self.spans:
            return np.zeros(len(x), dtype=np.int64)
        prev = np.searchsorted(self.starts, x, side="right") - 1
        at = np.maximum(prev, 0)
        part = np.clip(np.minimum(x, self.ends[at]) - self.starts[at], 0, None)
        return np.where(prev >= 0, self.total[at] + part, 0)

    def within(self, start: np.ndarray, end: np.ndarray) -> np.ndarray:
        """How much of each [start, end) they cover."""
        covered: np.ndarray = self.measure(end) - self.measure(start)
        return covered


class Quiet(NamedTuple):
    idle: Intervals
    away: Intervals
    silent_away: tuple[tuple[int, int], ...] = ()   # the away spans, for the listing


def seen_until(runs: tuple[Run, ...]) -> int:
    """The last credited moment of any run: how far the capture saw."""
    return max((run.snapshots[-1].ts_ms + run.credits[-1] for run in runs), default=0)


def quiet(snapshots: tuple[Snapshot, ...], inputs: tuple[InputEvent, ...],
          blind_spots: tuple[BlindSpot, ...], until_ms: int, idle_after_ms: int = IDLE_AFTER_MS,
          last_seen: int | None = None) -> Quiet:
    """`last_seen`: the capture's last credited moment; a silence after the
    last input is only known to have lasted that long."""
    blind = _merge(_blind_spans(snapshots, blind_spots, until_ms))
    idle: list[tuple[int, int]] = []
    away: list[tuple[int, int]] = []
    first_seen = min(map(TS_MS, snapshots), default=0)
    last = max(map(TS_MS, snapshots), default=0) if last_seen is None else last_seen
    for start, end in _silences(inputs, idle_after_ms, first_seen, last):
        (idle if end - start <= SESSION_GAP_MS else away).extend(_minus(start, end, blind))
    return Quiet(Intervals(idle), Intervals(away), tuple(away))


def _silences(inputs: tuple[InputEvent, ...], idle_after_ms: int, first_seen: int,
              last_seen: int) -> list[tuple[int, int]]:
    """[last input, next input) of every stretch of at least `idle_after_ms`
    with no input; before the window's first input the stretch starts at
    its first snapshot (the last input before it is not in the window),
    after its last input it ends where the capture stopped seeing."""
    if not inputs:
        return []
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


def _blind_spans(snapshots: tuple[Snapshot, ...], blind_spots: tuple[BlindSpot, ...],
                 until_ms: int) -> list[tuple[int, int]]:
    """Each blind spot's stretch; an open one ends at the next snapshot after
    it starts, or the window's end."""
    if not blind_spots:
        return []
    times = np.sort(np.fromiter(map(TS_MS, snapshots), dtype=np.int64, count=len(snapshots)))
    spans = []
    for spot in blind_spots:
        end = spot.end_ms
        if end is None:
            at = int(np.searchsorted(times, spot.start_ms, side="right"))
            end = int(times[at]) if at < times.size else until_ms
        if end > spot.start_ms:
            spans.append((spot.start_ms, end))
    return spans


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def _minus(start: int, end: int, holes: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """[start, end) without the (sorted, disjoint) holes."""
    pieces = []
    for hole_start, hole_end in holes:
        if hole_end <= start or hole_start >= end:
            continue
        if hole_start > start:
            pieces.append((start, hole_start))
        start = max(start, hole_end)
    if start < end:
        pieces.append((start, end))
    return pieces


def apply(runs: tuple[Run, ...], found: Quiet) -> tuple[Run, ...]:
    """The runs with the quiet part of each snapshot's credit moved from
    active to idle or away."""
    if not runs or (not found.idle.spans and not found.away.spans):
        return runs
    members = list(chain.from_iterable(run.snapshots for run in runs))
    ts = np.fromiter(map(TS_MS, members), dtype=np.int64, count=len(members))
    credit = np.fromiter(chain.from_iterable(run.credits for run in runs), dtype=np.int64,
                         count=len(members))
    starts = np.cumsum([0] + [len(run.snapshots) for run in runs[:-1]])
    idle = np.add.reduceat(found.idle.within(ts, ts + credit), starts).tolist()
    away = np.add.reduceat(found.away.within(ts, ts + credit), starts).tolist()
    # tuple.__new__, not _replace: a day has thousands of runs, most untouched
    return tuple(tuple.__new__(Run, (*run[:7], run.active_ms - i - a, i, a)) if i or a else run
                 for run, i, a in zip(runs, idle, away))


def stretches(found: Quiet, first: int, last: int, gaps: tuple[Gap, ...],
              idle_after_ms: int = IDLE_AFTER_MS) -> tuple[Gap, ...]:
    """The idle and away stretches a reader is told about: inside the span,
    outside the coverage gaps (already said), each at least `idle_after_ms`."""
    holes = [(g.start_ms, g.end_ms) for g in gaps]
    listed = []
    for reason, spans in (("idle", found.idle.spans), ("away", found.silent_away)):
        for start, end in spans:
            for piece in _minus(max(start, first), min(end, last), holes):
                if piece[1] - piece[0] >= idle_after_ms:
                    listed.append(Gap(piece[0], piece[1], reason))
    return tuple(sorted(listed))
