"""Coverage, its list and its array version, against a plain reading of
its rules on random windows: overlapping monitors, idle stretches, gaps
just over and under 300 s, open, closed, overlapping and tied blind spots
(which also end dwell), and quiet stretches (no input) taken out of the
active time.

The reference is the loop the compiler used before coverage was vectorized,
kept as the oracle because each line states one rule."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.frames import arrays
from compiler.frames.coverage import coverage
from compiler.frames.quiet import Intervals, Quiet, merge_spans
from compiler.frames.segment import SESSION_GAP_MS, runs
from compiler.records import BlindSpot, Snapshot

T0 = 1_772_438_400_000


def overlap(spans, start, end):
    return sum(max(0, min(end, b) - max(start, a)) for a, b in spans)


def reference_coverage(run_list, snapshots, blind_spots, idle_spans=(), away_spans=()):
    """(first, last, active, span, gaps, monitors, idle, away)."""
    monitors = tuple(sorted({s.monitor for s in snapshots}))
    intervals = sorted((s.ts_ms, s.ts_ms + c) for run in run_list
                       for s, c in zip(run.snapshots, run.credits) if not s.idle)
    if not intervals:
        return (None, None, 0, 0, (), monitors, 0, 0)
    merged = [list(intervals[0])]
    for start, end in intervals[1:]:
        if start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    first, last = merged[0][0], max(end for _, end in merged)
    active = sum(end - start for start, end in merged)

    def reason(start, end):
        best, best_overlap = None, 0
        for spot in blind_spots:
            # an open spot lasts until the next snapshot after it starts (else past the gap)
            spot_end = spot.end_ms if spot.end_ms is not None else min(
                (s.ts_ms for s in snapshots if s.ts_ms > spot.start_ms), default=end)
            overlap = min(end, spot_end) - max(start, spot.start_ms)
            if overlap > best_overlap:
                best, best_overlap = spot.kind, overlap
        if best is not None and best_overlap * 2 >= end - start:
            return best
        if any(s.idle and start <= s.ts_ms <= end for s in snapshots):
            return "idle"
        return "away"

    gaps = tuple((end, start, reason(end, start)) for (_, end), (start, _) in zip(merged, merged[1:])
                 if start - end > SESSION_GAP_MS)
    active -= sum(overlap(idle_spans, a, b) + overlap(away_spans, a, b) for a, b in merged)
    idle = overlap(idle_spans, first, last)
    return (first, last, active, last - first, gaps, monitors, idle, last - first - active - idle)


@st.composite
def windows(draw):
    count = draw(st.integers(1, 30))
    snapshots, ts = [], T0
    for sid in range(1, count + 1):
        ts += draw(st.sampled_from((0, 5_000, 60_000, 100_000, 299_000, 301_000, 400_000, 2_000_000)))
        snapshots.append(Snapshot(sid, ts, 60, "UTC", draw(st.sampled_from((0, 1))), "focus",
                                  draw(st.sampled_from(("a", "b"))), "t", None, draw(st.booleans()), True))
    spots = []
    for bid in range(1, draw(st.integers(0, 5)) + 1):
        start = T0 + draw(st.integers(0, 40)) * 100_000
        length = draw(st.sampled_from((None, 50_000, 300_000, 1_000_000, 5_000_000)))
        spots.append(BlindSpot(bid, start, None if length is None else start + length,
                               draw(st.sampled_from(("paused", "excluded", "x_lost"))), "r", None))
    quiet = [[], []]    # idle, away: stretches with no input, anywhere in the window
    for _ in range(draw(st.integers(0, 6))):
        start = T0 + draw(st.integers(-5, 400)) * 10_000
        quiet[draw(st.integers(0, 1))].append((start, start + draw(st.integers(1, 60)) * 10_000))
    return tuple(snapshots), tuple(spots), merge_spans(quiet[0]), merge_spans(quiet[1])


@pytest.mark.parametrize("cover", [coverage, arrays.coverage], ids=["lists", "arrays"])
@settings(max_examples=400, deadline=None)
@given(window=windows())
def test_coverage_matches_the_rule_by_rule_loop(cover, window):
    snapshots, spots, idle, away = window
    for run_list in (runs(snapshots), runs(snapshots, spots)):   # dwell ended at blind spots or not
        got = cover(run_list, snapshots, spots)
        assert (got.first_activity_ms, got.last_activity_ms, got.active_ms, got.span_ms,
                tuple((g.start_ms, g.end_ms, g.reason) for g in got.gaps), got.monitors) == \
            reference_coverage(run_list, snapshots, spots)[:6]
        found = Quiet(Intervals(idle), Intervals(away), tuple(away))
        got = cover(run_list, snapshots, spots, found)
        assert (got.first_activity_ms, got.last_activity_ms, got.active_ms, got.span_ms,
                tuple((g.start_ms, g.end_ms, g.reason) for g in got.gaps), got.monitors,
                got.idle_ms, got.away_ms) == reference_coverage(run_list, snapshots, spots, idle, away)
