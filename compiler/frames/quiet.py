"""Quiet time: stretches with no input, and blind spots — never credited as
active.

A stretch with no input (any kind, on any monitor) of at least
`idle_after_ms` is quiet from the last input on — counted from the input,
not from when the daemon noticed and flagged its snapshots idle. A quiet
stretch of at most the 300 s session gap is *idle* (the person was there
and not touching anything); a longer one is *away*. A blind spot is away
too: no snapshot's credit reaches into one (segment.py ends dwell at its
start), so coverage counts it in the span's away time; a silence is cut
around blind spots (not around one of missing accessibility data, which
the screen and input are still captured through) (an open-ended one lasts until the next snapshot or the
window's end) — they are said as blind spots, not as silences. Dwell
before the last input keeps its credit (up to the 90 s cap, as segment.py
gives it); the quiet part of every snapshot's credit is moved from active
to idle or away, run by run.

A capture with no input rows at all says nothing about presence (a layout
without an input table): nothing is made quiet then but blind spots.

Each kind is held as sorted, disjoint intervals with a running total, so
"how much of [a, b) is idle" is two binary searches, and a run that no
interval touches is passed over with one. These are list passes, as the
other passes' are for a day; from LONG_WINDOW rows on the silences and the
credit moved run by run are numpy array operations (arrays.py), with the
same result (tests/compiler/test_quiet_reference.py holds both to a plain
loop).
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate
from operator import attrgetter
from typing import NamedTuple

from compiler.records import TS_MS, BlindSpot, Gap, InputEvent, Snapshot

from .segment import LONG_WINDOW, SCREEN_SEEN, SESSION_GAP_MS, Run

IDLE_AFTER_MS = 120_000          # the capturer's default idle_after_seconds
_SNAPSHOTS = attrgetter("snapshots")


class Intervals:
    """Sorted, disjoint [start, end) intervals with `measure(x)`: their
    total length before the instant `x`."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        self.spans = spans
        self.starts = [start for start, _ in spans]
        self.ends = [end for _, end in spans]
        self.total = list(accumulate((end - start for start, end in spans), initial=0))

    def measure(self, x: int) -> int:
        prev = bisect_right(self.starts, x) - 1     # the last interval starting at or before x
        if prev < 0:
            return 0
        return self.total[prev] + min(x, self.ends[prev]) - self.starts[prev]

    def within(self, start: int, end: int) -> int:
        """How much of [start, end) they cover."""
        return self.measure(end) - self.measure(start)

    def touches(self, start: int, end: int) -> bool:
        """Whether any interval overlaps [start, end]."""
        at = bisect_right(self.ends, start)          # the first interval ending after start
        return at < len(self.spans) and self.starts[at] < end


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
    blind = merge_spans(_blind_spans(snapshots, blind_spots, until_ms))
    idle: list[tuple[int, int]] = []
    away: list[tuple[int, int]] = []
    first_seen = min(map(TS_MS, snapshots), default=0)
    last = max(map(TS_MS, snapshots), default=0) if last_seen is None else last_seen
    for start, end in silences(inputs, idle_after_ms, first_seen, last):
        (idle if end - start <= SESSION_GAP_MS else away).extend(_minus(start, end, blind))
    return Quiet(Intervals(idle), Intervals(away), tuple(away))


def silences(inputs: tuple[InputEvent, ...], idle_after_ms: int, first_seen: int,
             last_seen: int) -> list[tuple[int, int]]:
    """[last input, next input) of every stretch of at least `idle_after_ms`
    with no input; before the window's first input the stretch starts at
    its first snapshot (the last input before it is not in the window),
    after its last input it ends where the capture stopped seeing."""
    if not inputs:
        return []
    if len(inputs) >= LONG_WINDOW:
        from .arrays import silences as array_silences

        return array_silences(inputs, idle_after_ms, first_seen, last_seen)
    ordered = sorted(inputs, key=TS_MS)             # stable: ties keep their order
    result = []
    since = min(first_seen, ordered[0].ts_ms)       # where the current stretch without input began
    reach = ordered[0].ts_ms                        # input so far reaches this far
    for event in ordered:
        start = event.ts_ms
        if start - since >= idle_after_ms:
            result.append((since, start))
        reach = max(reach, event.end_ms, start)
        since = reach
    if max(last_seen, reach) - since >= idle_after_ms:
        result.append((since, max(last_seen, reach)))
    return result


def _blind_spans(snapshots: tuple[Snapshot, ...], blind_spots: tuple[BlindSpot, ...],
                 until_ms: int) -> list[tuple[int, int]]:
    """Each blind spot's stretch; an open one ends at the next snapshot after
    it starts, or the window's end. Not those the screen and input are still
    captured through (SCREEN_SEEN: a window without accessibility data):
    a silence inside one is a silence."""
    if not blind_spots:
        return []
    times = sorted(map(TS_MS, snapshots))
    spans = []
    for spot in blind_spots:
        if spot.kind in SCREEN_SEEN:
            continue
        end = spot.end_ms
        if end is None:
            at = bisect_right(times, spot.start_ms)
            end = times[at] if at < len(times) else until_ms
        if end > spot.start_ms:
            spans.append((spot.start_ms, end))
    return spans


def merge_spans(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Union of [start, end) spans, in any order; touching spans merge."""
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
    if sum(map(len, map(_SNAPSHOTS, runs))) >= LONG_WINDOW:
        from .arrays import apply_quiet

        return apply_quiet(runs, found)
    result = []
    for run in runs:
        # a run's credited moments all lie in [its first snapshot, this]
        first, last = run.snapshots[0].ts_ms, max(run.end_ms, run.snapshots[-1].ts_ms)
        idle = _quiet_part(found.idle, run, first, last)
        away = _quiet_part(found.away, run, first, last)
        # tuple.__new__, not _replace: a day has thousands of runs, most untouched
        result.append(tuple.__new__(Run, (*run[:7], run.active_ms - idle - away, idle, away))
                      if idle or away else run)
    return tuple(result)


def _quiet_part(kind: Intervals, run: Run, first: int, last: int) -> int:
    if not kind.touches(first, last):
        return 0
    return sum(kind.within(snapshot.ts_ms, snapshot.ts_ms + credit)
               for snapshot, credit in zip(run.snapshots, run.credits) if credit)


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
