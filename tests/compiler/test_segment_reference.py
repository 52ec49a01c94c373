"""Segmentation, its list and its array version, against a plain,
snapshot-by-snapshot reading of the rules (activity-frames §4), on random
streams: gaps around the 90 s cap and the 300 s session gap, idle
stretches, equal timestamps, URL changes, two monitors and blind spots
(each ends dwell).

The reference below is the loop the compiler used before segmentation was
vectorized; it is kept here as the oracle because each line is one rule."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.frames import arrays
from compiler.frames.quiet import Intervals, merge_spans
from compiler.frames.segment import DWELL_CAP_MS, SESSION_GAP_MS, runs
from compiler.pages import site_of
from compiler.records import BlindSpot, Snapshot

APPS = ("editor", "firefox")
URLS = (None, "", "https://github.com/a/b/issues/3", "https://github.com/a/b",
        "https://news.ycombinator.com/item?id=1")


def reference_runs(snapshots, spots=()):
    """(monitor, session, app, site, snapshot ids, credits, end_ms, active_ms) per run."""
    result = []
    for monitor in sorted({s.monitor for s in snapshots}):
        stream = sorted((s for s in snapshots if s.monitor == monitor), key=lambda s: (s.ts_ms, s.id))
        # a spot the screen is still captured through (no element tree) ends no dwell
        stops = sorted(b.start_ms for b in spots if b.monitor in (None, monitor) and b.kind != "no_accessibility")
        result.extend(monitor_runs(monitor, stream, stops))
    return result


def monitor_runs(monitor, stream, stops=()):
    """The runs of one monitor's time-ordered stream, in reference_runs' shape;
    a snapshot's dwell runs to the next snapshot or the next blind spot's start."""
    result = []
    credit, breaks, idle_since = [], [], None
    for i, s in enumerate(stream):
        ends = [stream[i + 1].ts_ms] if i + 1 < len(stream) else []
        ends += [stop for stop in stops if stop >= s.ts_ms][:1]
        gap = min(ends) - s.ts_ms if ends else None
        credit.append(0 if s.idle or gap is None or gap > SESSION_GAP_MS else min(gap, DWELL_CAP_MS))
        brk = i == 0 or s.ts_ms - stream[i - 1].ts_ms > SESSION_GAP_MS
        if not s.idle and idle_since is not None and s.ts_ms - idle_since > SESSION_GAP_MS:
            brk = True
        idle_since = (idle_since if idle_since is not None else s.ts_ms) if s.idle else None
        breaks.append(brk)
    session, current = -1, []

    def close():
        if current:
            members = [stream[i] for i in current]
            credits = [credit[i] for i in current]
            first = members[0]
            site = (site_of(first.url) or None) if first.url else None
            active = [s.ts_ms + c for s, c in zip(members, credits) if not s.idle]
            result.append((monitor, session, first.app, site, [s.id for s in members], credits,
                           max(active) if active else first.ts_ms, sum(credits)))
            current.clear()

    def key(s):
        return s.app, (site_of(s.url) or None) if s.url else None

    for i, s in enumerate(stream):
        if breaks[i]:
            close()
            session += 1
        elif current and key(stream[current[0]]) != key(s):
            close()
        current.append(i)
    close()
    return result


@st.composite
def streams(draw):
    count = draw(st.integers(1, 40))
    steps = draw(st.lists(st.sampled_from((0, 1_000, 20_000, 89_000, 90_000, 91_000, 200_000,
                                           299_000, 300_000, 301_000, 900_000)),
                          min_size=count, max_size=count))
    snapshots, ts = [], 1_772_438_400_000
    for sid, step in enumerate(steps, start=1):
        ts += step
        snapshots.append(Snapshot(sid, ts, 60, "Europe/Berlin", draw(st.sampled_from((0, 0, 1))), "focus",
                                  draw(st.sampled_from(APPS)), "t", draw(st.sampled_from(URLS)),
                                  draw(st.booleans()), True))
    return tuple(snapshots)


@st.composite
def blind_spots(draw, snapshots):
    first, last = snapshots[0].ts_ms, snapshots[-1].ts_ms
    count = draw(st.integers(0, 4))
    return tuple(BlindSpot(i, draw(st.integers(first - 1_000, last + 100_000)), None,
                           draw(st.sampled_from(("not_running", "no_accessibility"))),
                           "capture stopped", draw(st.sampled_from((None, 0, 1))))
                 for i in range(1, count + 1))


@pytest.mark.parametrize("segment", [runs, arrays.runs], ids=["lists", "arrays"])
@settings(max_examples=400, deadline=None)
@given(st.data())
def test_segmentation_matches_the_rule_by_rule_loop(segment, data):
    snapshots = data.draw(streams())
    spots = data.draw(blind_spots(snapshots))
    got = [(r.monitor, r.session, r.app, r.site, [s.id for s in r.snapshots], list(r.credits),
            r.end_ms, r.active_ms) for r in segment(snapshots, spots)]
    assert got == reference_runs(snapshots, spots)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1_000), st.integers(1, 200)), max_size=12),
       st.lists(st.tuples(st.integers(-100, 1_300), st.integers(0, 400)), min_size=1, max_size=12))
def test_quiet_overlap_matches_a_plain_sum(spans, probes):
    """Intervals.within (two binary searches per probe) and its array
    version against the overlap summed interval by interval; `touches`
    against any overlap."""
    merged = merge_spans([(start, start + length) for start, length in spans])
    intervals = Intervals(merged)
    expected = [sum(max(0, min(a + n, e) - max(a, s)) for s, e in merged) for a, n in probes]
    assert [intervals.within(a, a + n) for a, n in probes] == expected
    starts = np.array([a for a, _ in probes], dtype=np.int64)
    ends = np.array([a + n for a, n in probes], dtype=np.int64)
    assert arrays.within(intervals, starts, ends).tolist() == expected
    assert [intervals.touches(a, a + n) for a, n in probes] == \
        [any(s < a + n and e > a for s, e in merged) for a, n in probes]
