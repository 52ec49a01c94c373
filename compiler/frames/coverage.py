"""Coverage: first and last activity, active time (the union of credited
moments over all monitors, so two screens do not count twice, without the
quiet time of quiet.py), idle and away time, span, the gaps of more than
300 s in between, each with the best reason known, and the idle and away
stretches inside the span.

A window of weeks has hundreds of gaps and thousands of blind spots. Gaps
are disjoint and come in time order, so one sweep over the blind spots,
sorted by start, weighs each gap against only the spots that overlap it,
and idle snapshots inside a gap are found by binary search — the Python
loops over every snapshot and blind spot per gap took about four seconds
on the 51-day corpus. From LONG_WINDOW snapshots on, the same rules run as
numpy array operations (arrays.py)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from compiler.records import BlindSpot, Coverage, Gap, Snapshot

from .quiet import IDLE_AFTER_MS, Quiet, merge_spans, stretches
from .segment import LONG_WINDOW, SESSION_GAP_MS, Run


def coverage(runs: tuple[Run, ...], snapshots: tuple[Snapshot, ...],
             blind_spots: tuple[BlindSpot, ...], found: Quiet | None = None,
             idle_after_ms: int = IDLE_AFTER_MS) -> Coverage:
    """Active, idle and away time sum to the span: active is the credited
    union without its quiet part, idle the idle stretches inside the span,
    away the rest (gaps, blind spots, silences over 300 s, uncredited time)."""
    if len(snapshots) >= LONG_WINDOW:
        from .arrays import coverage as array_coverage

        return array_coverage(runs, snapshots, blind_spots, found, idle_after_ms)
    monitors = tuple(sorted({snapshot.monitor for snapshot in snapshots}))
    merged = merge_spans(_attended_intervals(runs))
    if not merged:
        return Coverage(None, None, 0, 0, (), monitors)
    first, last = merged[0][0], merged[-1][1]
    active = sum(end - start for start, end in merged)
    holes = [(before[1], after[0]) for before, after in zip(merged, merged[1:])
             if after[0] - before[1] > SESSION_GAP_MS]
    reasons = _gap_reasons(holes, snapshots, blind_spots)
    gaps = tuple(Gap(end, start, reason) for (end, start), reason in zip(holes, reasons))
    if found is None:
        return Coverage(first, last, active, last - first, gaps, monitors, 0, last - first - active)
    active -= sum(found.idle.within(start, end) + found.away.within(start, end) for start, end in merged)
    idle = found.idle.within(first, last)
    return Coverage(first, last, active, last - first, gaps, monitors, idle, last - first - active - idle,
                    stretches(found, first, last, gaps, idle_after_ms))


def _attended_intervals(runs: tuple[Run, ...]) -> list[tuple[int, int]]:
    """(start, start + credit) of every non-idle snapshot, sorted."""
    return sorted((snapshot.ts_ms, snapshot.ts_ms + credit) for run in runs
                  for snapshot, credit in zip(run.snapshots, run.credits) if not snapshot.idle)


def _gap_reasons(gaps: list[tuple[int, int]], snapshots: tuple[Snapshot, ...],
                 blind_spots: tuple[BlindSpot, ...]) -> list[str]:
    """Per gap (time-ordered, disjoint): a stored blind spot covering at
    least half of it names it (the one overlapping most; the earliest listed
    on a tie); idle snapshots inside it make it 'idle'; otherwise the user
    was away (or capture off). A spot still open lasts until the next
    snapshot after it starts, and with none after it, past any gap."""
    idle_times = sorted(snapshot.ts_ms for snapshot in snapshots if snapshot.idle)
    ends = _spot_ends(snapshots, blind_spots)
    spots = sorted(range(len(blind_spots)), key=lambda i: blind_spots[i].start_ms)
    upcoming, current = 0, []      # the next spot to meet; spots that may reach later gaps
    reasons = []
    for start, end in gaps:
        while upcoming < len(spots) and blind_spots[spots[upcoming]].start_ms < end:
            current.append(spots[upcoming])
            upcoming += 1
        current = [i for i in current if _reaches(ends[i], start)]
        best, best_overlap = None, 0
        for i in current:
            spot_end = ends[i]
            overlap = (end if spot_end is None else min(end, spot_end)) - max(start, blind_spots[i].start_ms)
            if overlap > best_overlap or (overlap == best_overlap and best is not None and i < best):
                best, best_overlap = i, overlap
        if best is not None and best_overlap * 2 >= end - start:
            reasons.append(blind_spots[best].kind)
        elif bisect_right(idle_times, end) - bisect_left(idle_times, start):
            reasons.append("idle")
        else:
            reasons.append("away")
    return reasons


def _spot_ends(snapshots: tuple[Snapshot, ...], blind_spots: tuple[BlindSpot, ...]) -> list[int | None]:
    """Each spot's end: its own, or for one still open the first snapshot
    after its start; None where there is none (it runs past any gap)."""
    if all(spot.end_ms is not None for spot in blind_spots):
        return [spot.end_ms for spot in blind_spots]
    times = sorted(snapshot.ts_ms for snapshot in snapshots)
    ends: list[int | None] = []
    for spot in blind_spots:
        if spot.end_ms is not None:
            ends.append(spot.end_ms)
        else:
            at = bisect_right(times, spot.start_ms)
            ends.append(times[at] if at < len(times) else None)
    return ends


def _reaches(end_ms: int | None, ts_ms: int) -> bool:
    """Whether a spot ending at `end_ms` ends after `ts_ms` (one running
    past any gap always does)."""
    return end_ms is None or end_ms > ts_ms
