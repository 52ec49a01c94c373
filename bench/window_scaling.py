"""Compile time against window length, on stores whose input is linked to
snapshots and on stores whose input is not (issue 27).

For each store (the nocta layout, whose events always name a frame; a
Phantom store as the default corpus writes it, unlinked; the same days as
`phantom synth --live-like` writes them, linked as the daemon links them)
and each window (the first 1, 5 and N days), the window is compiled afresh
(no cache) to one compact block, with today's switch placement and — as the
baseline, in the same run, taking turns run by run — with the pass as it
was before the fix (every switch scanning all linked inputs from the start;
kept in tests/compiler/test_switch_placement.py as the reference the fix is
checked against). Both give the same bytes; that is checked here too.
Figures are process CPU seconds (the compile is single-threaded, and CPU
time is less disturbed than wall time by the other jobs on a shared VM),
median of the runs."""

from __future__ import annotations

import importlib.util
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def naive_pass() -> Callable[..., Any]:
    """The switch placement as it was before issue 27, from the test that keeps it."""
    path = ROOT / "tests" / "compiler" / "test_switch_placement.py"
    spec = importlib.util.spec_from_file_location("_bench_switch_placement", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.naive  # type: ignore[no-any-return]


@contextmanager
def switch_pass(replacement: Callable[..., Any] | None) -> Iterator[None]:
    """Compile with `replacement` as the switch placement (None: today's)."""
    from compiler.routines import actions

    saved = actions._switches_at_first_input
    if replacement is not None:
        actions._switches_at_first_input = replacement
    try:
        yield
    finally:
        actions._switches_at_first_input = saved


def compile_days(db: Path, days: list[str], zone: str) -> bytes:
    from compiler.api import compile_window, render

    return render(compile_window(db, since=f"{days[0]}T00:00:00", until=f"{days[-1]}T23:59:59.999", tz=zone,
                                 cache=False), "compact")


def measure(stores: dict[str, Path], days: list[str], windows: tuple[int, ...], runs: int,
            zone: str) -> dict[tuple[str, int, str], float]:
    """Median CPU seconds per (store, window days, 'fixed' | 'before')."""
    naive = naive_pass()
    samples: dict[tuple[str, int, str], list[float]] = {}
    blocks: dict[tuple[str, int], bytes] = {}
    for db in stores.values():   # imports, page caches: not part of any figure
        compile_days(db, days[:windows[0]], zone)
    for _ in range(runs):
        for name, db in stores.items():
            for count in windows:
                for variant, replacement in (("fixed", None), ("before", naive)):
                    with switch_pass(replacement):
                        started = time.process_time()
                        block = compile_days(db, days[:count], zone)
                        spent = time.process_time() - started
                    samples.setdefault((name, count, variant), []).append(spent)
                    if blocks.setdefault((name, count), block) != block:
                        raise AssertionError(f"{name}, {count} days: the fix changed the compiled bytes")
    return {key: statistics.median(values) for key, values in samples.items()}


def rows(figures: dict[tuple[str, int, str], float], stores: list[str], windows: tuple[int, ...],
         linked: str, unlinked: str) -> list[tuple[str, str]]:
    """Table rows: each window's time before → after, the longest window
    over one day, and the linked store over the unlinked one."""
    out: list[tuple[str, str]] = []
    first, last = windows[0], windows[-1]
    for name in stores:
        cells = [f"{count} d {figures[name, count, 'before']:.2f} → {figures[name, count, 'fixed']:.2f} s"
                 for count in windows]
        out.append((f"  {name}: before → after", ", ".join(cells)))
        out.append((f"  {name}: {last} days / {first} day, after (budget ≤ 25x)",
                    f"{figures[name, last, 'fixed'] / figures[name, first, 'fixed']:.1f}x   (before "
                    f"{figures[name, last, 'before'] / figures[name, first, 'before']:.1f}x)"))
    for count in windows:
        after = figures[linked, count, "fixed"] / figures[unlinked, count, "fixed"]
        before = figures[linked, count, "before"] / figures[unlinked, count, "before"]
        out.append((f"  linked / unlinked store, {count} d (budget ≤ 1.5x)", f"{after:.2f}x   (before {before:.2f}x)"))
    return out
