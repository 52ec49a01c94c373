"""Coverage: first and last activity, active time (the union of credited
moments over all monitors, so two screens do not count twice), span, and the
gaps of more than 300 s in between, each with the best reason known."""

from __future__ import annotations

from .records import BlindSpot, Coverage, Gap, Snapshot
from .segment import SESSION_GAP_MS, Run


def coverage(runs: tuple[Run, ...], snapshots: tuple[Snapshot, ...],
             blind_spots: tuple[BlindSpot, ...]) -> Coverage:
    intervals = sorted((s.ts_ms, s.ts_ms + c) for run in runs
                       for s, c in zip(run.snapshots, run.credits) if not s.idle)
    if not intervals:
        return Coverage(None, None, 0, 0, (), tuple(sorted({s.monitor for s in snapshots})))
    merged = _merge(intervals)
    first, last = merged[0][0], max(end for _, end in merged)
    active = sum(end - start for start, end in merged)
    gaps = []
    for (_, end), (start, _) in zip(merged, merged[1:]):
        if start - end > SESSION_GAP_MS:
            gaps.append(Gap(end, start, _reason(end, start, snapshots, blind_spots)))
    return Coverage(first, last, active, last - first, tuple(gaps),
                    tuple(sorted({s.monitor for s in snapshots})))


def _merge(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged = [list(intervals[0])]
    for start, end in intervals[1:]:
        if start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(start, end) for start, end in merged]


def _reason(start: int, end: int, snapshots, blind_spots) -> str:
    """A stored blind spot covering most of the gap names it; idle snapshots
    inside it make it 'idle'; otherwise the user was away (or capture off)."""
    best, best_overlap = None, 0
    for spot in blind_spots:
        spot_end = spot.end_ms if spot.end_ms is not None else end
        overlap = min(end, spot_end) - max(start, spot.start_ms)
        if overlap > best_overlap:
            best, best_overlap = spot.kind, overlap
    if best is not None and best_overlap * 2 >= end - start:
        return best
    if any(s.idle and start <= s.ts_ms <= end for s in snapshots):
        return "idle"
    return "away"
