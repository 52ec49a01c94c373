"""How long the capture's hit test takes: the element under a click, asked
afresh of the application that owns the window (no cached tree), on real
applications.

    python bench/bench_hit_test.py [--points 60]

Starts a private virtual desktop with Phantom's form, Debian's
gtk3-widget-factory and mousepad, side by side. For a grid of points inside
each window, timed in this process: one query (`core.a11y.tree.hit_test`
from the window's accessible, then `clicked_element`), and the daemon's own
`TreeReads.hit_test` with the window described as the daemon describes it —
once with nothing walked (the first click into a window: a container answer
is polled again for up to `HIT_SETTLE_S`, sleeps included) and once after
the window was walked (a later click: space the walk shows empty is answered
at once). Beside it in the same run, the baseline a hit test replaced: a
bounded walk of the whole window (`core.a11y.tree.walk`, the capture's
limits), from which a point would otherwise be resolved.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import median, percentile, table  # noqa: E402
from testbed.executables import executable  # noqa: E402
from testbed.harness import VirtualDesktop  # noqa: E402
from testbed.waiting import wait_until  # noqa: E402

APPS = (  # (class, program or None for the fixture, x, y, width, height)
    ("phantom-form", None, 20, 20, 320, 230),
    ("gtk3-widget-factory", "gtk3-widget-factory", 360, 20, 900, 700),
    ("mousepad", "mousepad", 20, 300, 320, 300),
)


def grid(extents: tuple[int, int, int, int], count: int) -> list[tuple[int, int]]:
    """Points spread over a window, away from its border."""
    x, y, width, height = extents
    columns = max(2, int(count ** 0.5))
    rows = max(2, -(-count // columns))
    return [(x + 8 + (i % columns) * (width - 16) // (columns - 1),
             y + 8 + (i // columns) * (height - 16) // (rows - 1)) for i in range(count)]


class _Ids:
    def __init__(self) -> None:
        self._next = 0

    def next(self, _table: str) -> int:
        self._next += 1
        return self._next


class _NoStore:
    """The store writer a `TreeReads` submits element rows to; this
    benchmark times the reads and keeps no rows."""

    def __init__(self) -> None:
        self.ids = _Ids()

    def submit(self, _row) -> None:
        pass


def measure(window, frame, extents, count: int) -> dict[str, list[float]]:
    """Each grid point asked through the daemon's own `hit_test` of a
    `TreeReads` that never walked the window (the first click into it) and
    of one that has (a later click); and the walk itself."""
    import pyatspi

    from capturer.sources.a11y_queries import is_container
    from capturer.sources.a11y_reads import TreeReads
    from core.a11y.toolkit import origin_for
    from core.a11y.tree import WalkLimits, clicked_element, hit_test, walk

    def reads() -> TreeReads:
        return TreeReads(pyatspi, _NoStore(), WalkLimits(), frozenset())

    origin = origin_for(frame, extents[0], extents[1])
    first, fresh, warm, settled = [], [], [], 0
    unwalked = reads()
    points = grid(extents, count)
    # Unwalked first, each point before anything else asked about it: the
    # application's and libatspi's caches are as a first click finds them.
    for x, y in points:
        started = time.perf_counter()
        unwalked.hit_test(window, x, y)
        fresh.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        chain = clicked_element(hit_test(frame, x, y, origin=origin))
        first.append((time.perf_counter() - started) * 1000)
        settled += len(chain) < 2 or is_container(chain[-1])
    walked = reads()
    walked.tree_for(window)
    for x, y in points:
        started = time.perf_counter()
        walked.hit_test(window, x, y)
        warm.append((time.perf_counter() - started) * 1000)
    walks = []
    for _ in range(max(5, count // 6)):
        started = time.perf_counter()
        walk(frame, "bench", WalkLimits())
        walks.append((time.perf_counter() - started) * 1000)
    return {"first": first, "fresh": fresh, "warm": warm, "walk": walks, "settled": [float(settled)]}


def spread(values: list[float]) -> str:
    return f"median {median(values):.1f} ms, p95 {percentile(values, 95):.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--points", type=int, default=60, help="points per application (default 60)")
    args = parser.parse_args()

    results = []
    with VirtualDesktop() as desktop:
        os.environ.update(desktop.env)
        from capturer.sources.receiver import ReceiverProbe
        from replay import live

        probe = ReceiverProbe(desktop.display)

        for wm_class, name, x, y, width, height in APPS:
            if name is None:
                process = desktop.launch_fixture("form", "--geometry", f"{width}x{height}+{x}+{y}")
            else:
                process = desktop.launch([executable(name)], name=wm_class)
            window = desktop.wait_for_window(wm_class, timeout=30, pid=process.pid)
            desktop.place_window(window, x, y, width, height)
            time.sleep(1.5)
            application = wait_until(lambda pid=process.pid: live.application_of(pid), timeout=15,
                                     what=f"{wm_class} on the accessibility bus")
            frame = live.main_window(application)
            left, top, w, h = frame.queryComponent().getExtents(0)   # desktop coordinates
            extents = (left, top, w, h) if w > 0 else (x, y, width, height)
            info = probe.describe(window)
            info = replace(info, title=frame.name or info.title)
            results.append((wm_class, measure(info, frame, extents, args.points)))

    rows = []
    fresh: list[float] = []
    warm: list[float] = []
    for name, measured in results:
        fresh += measured["fresh"]
        warm += measured["warm"]
        rows += [(f"{name}: one query", f"{spread(measured['first'])} "
                  f"({int(measured['settled'][0])} of {len(measured['first'])} points land on a container)"),
                 (f"{name}: the daemon's hit test, nothing walked", spread(measured["fresh"])),
                 (f"{name}: the daemon's hit test, window walked", spread(measured["warm"])),
                 (f"{name}: baseline, walk the window", spread(measured["walk"]))]
    rows.append(("all points, the daemon's hit test, nothing walked (≤ 50 ms p95)", spread(fresh)))
    rows.append(("all points, the daemon's hit test, window walked (≤ 50 ms p95)", spread(warm)))
    print(table(rows, "bench_hit_test: the element under a click, asked afresh"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
