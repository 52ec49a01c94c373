"""Segmentation, its list and its array version, against a plain,
snapshot-by-snapshot reading of the rules (activity-frames §4), on random
streams: gaps around the 90 s cap and the 300 s session gap, idle
stretches, equal timestamps, URL changes and two monitors.

The reference below is the loop the compiler used before segmentation was
vectorized; it is kept here as the oracle because each line is one rule."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.frames import arrays
from compiler.frames.segment import DWELL_CAP_MS, SESSION_GAP_MS, runs
from compiler.pages import site_of
from compiler.records import Snapshot

APPS = ("editor", "firefox")
URLS = (None, "", "https://github.com/a/b/issues/3", "https://github.com/a/b",
        "https://news.ycombinator.com/item?id=1")


def reference_runs(snapshots):
    """(monitor, session, app, site, snapshot ids, credits, end_ms, active_ms) per run."""
    result = []
    for monitor in sorted({s.monitor for s in snapshots}):
        stream = sorted((s for s in snapshots if s.monitor == monitor), key=lambda s: (s.ts_ms, s.id))
        result.extend(monitor_runs(monitor, stream))
    return result


def monitor_runs(monitor, stream):
    """The runs of one monitor's time-ordered stream, in reference_runs' shape."""
    result = []
    credit, breaks, idle_since = [], [], None
    for i, s in enumerate(stream):
        gap = stream[i + 1].ts_ms - s.ts_ms if i + 1 < len(stream) else None
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


@pytest.mark.parametrize("segment", [runs, arrays.runs], ids=["lists", "arrays"])
@settings(max_examples=400, deadline=None)
@given(snapshots=streams())
def test_segmentation_matches_the_rule_by_rule_loop(segment, snapshots):
    got = [(r.monitor, r.session, r.app, r.site, [s.id for s in r.snapshots], list(r.credits),
            r.end_ms, r.active_ms) for r in segment(snapshots)]
    assert got == reference_runs(snapshots)
