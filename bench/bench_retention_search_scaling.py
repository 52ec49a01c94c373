"""Retention's dry run and the first search, at 7 and 51 days, beside a
baseline commit in the same run (issue 27).

1. `phantom retention run --dry-run` with `raw_days = 1` and the clock at
   the corpus's last day, 16:00 (every day but the last is due), on the 7-
   and the 51-day corpus; each run a new process, the code under test and
   the baseline (`--baseline DIR`: an export of an older commit) taking turns.
   Reports the median wall and CPU (wait4) and the 51/7 ratio: linear in
   days is about 51/7 ≈ 7.3×.
2. The first `phantom search invoice` on a copy of the 51-day corpus, as a
   whole process (wall, CPU): the baseline's store as it is today — no
   index, so that search indexes all 377,180 rows — beside the store as
   the capture daemon now leaves it: indexed by its writer's slices
   (`search_index.index_some`, timed here as the daemon's total cost over
   the 51 days), less the last minute of capture (a slice runs every 30 s
   at work), which the search then indexes itself.
Prints, never asserts.

    git archive cf18c4f | tar -x -C /tmp/base   # once: the baseline's tree
    .venv/bin/python bench/bench_retention_search_scaling.py --baseline /tmp/base --runs 3
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_compile import corpus, weekdays  # noqa: E402
from bench.common import median, table  # noqa: E402

DRY = """
import sys, core.clock
from datetime import datetime
from zoneinfo import ZoneInfo
now = datetime.fromisoformat(sys.argv[1] + "T16:00").replace(tzinfo=ZoneInfo("Europe/Berlin"))
core.clock.now_ms = lambda: int(now.timestamp() * 1000)
from cli.main import main
sys.exit(main(["retention", "run", "--dry-run", "--db", sys.argv[2], "--config", sys.argv[3]]))
"""


def timed(argv: list[str], code: Path) -> tuple[float, float]:
    """(wall s, CPU s of the process, from wait4)."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    started = time.perf_counter()
    process = subprocess.Popen(argv, cwd=code, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{argv} failed")
    return wall, usage.ru_utime + usage.ru_stime


def retention(scratch: Path, contenders: dict[str, Path], runs: int) -> list[tuple[str, str]]:
    config = scratch / "retention.toml"
    config.write_text("[retention]\nraw_days = 1\n")
    rows, medians = [], {}
    for days in (7, 51):
        store = scratch / f"dry-{days}.sqlite3"
        shutil.copy(corpus(days, "phantom"), store)
        last = weekdays(days)[-1]
        argv = [sys.executable, "-c", DRY, last, str(store), str(config)]
        timed(argv, contenders[next(iter(contenders))])   # migrates the copy once, warms the page cache
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in contenders}
        for _ in range(runs):
            for name, code in contenders.items():
                samples[name].append(timed(argv, code))
        for name, got in samples.items():
            wall, cpu = median([w for w, _ in got]), median([c for _, c in got])
            medians[(name, days)] = wall
            rows.append((f"dry run, {days} days, {name}", f"{wall:.2f} s wall, {cpu:.2f} s CPU (median of {runs})"))
        store.unlink()
    for name in contenders:
        rows.append((f"dry run 51 / 7 days, {name} (linear ≈ 7.3×)",
                     f"{medians[(name, 51)] / medians[(name, 7)]:.1f}×"))
    return rows


def first_search(scratch: Path, contenders: dict[str, Path]) -> list[tuple[str, str]]:
    from core.store import open_store
    from core.store.search_index import index_some, pending

    phantom = [sys.executable, "-m", "cli.main", "search", "invoice", "--db"]
    cold = scratch / "search-cold.sqlite3"
    shutil.copy(corpus(51, "phantom"), cold)
    base = contenders["baseline"] if "baseline" in contenders else ROOT
    wall, cpu = timed(phantom + [str(cold)], base)
    rows = [("first `phantom search invoice`, 51 days, index never built (as today)",
             f"{wall:.1f} s wall, {cpu:.1f} s CPU")]
    cold.unlink()

    kept = scratch / "search-kept.sqlite3"
    shutil.copy(corpus(51, "phantom"), kept)
    connection = open_store(kept)
    started, cpu_started, slices = time.perf_counter(), time.process_time(), 0
    while not index_some(connection, 0.2)[1]:
        slices += 1
    spent, spent_cpu = time.perf_counter() - started, time.process_time() - cpu_started
    # the last minute of capture not yet indexed: put the marks back before it
    with connection:
        for source, column in (("snapshots", "ts_ms"), ("a11y_trees", "ts_ms"), ("input_events", "ts_ms")):
            connection.execute(
                f"UPDATE search_progress SET last_id = coalesce((SELECT max(id) FROM {source} WHERE "
                f"{column} < (SELECT max({column}) FROM {source}) - 60000), 0) WHERE source = ?", (source,))
        left = pending(connection)
    connection.close()
    rows.append(("the daemon's slices over 51 days (index_some, 0.2 s budget each)",
                 f"{slices + 1} slices, {spent:.1f} s wall, {spent_cpu:.1f} s CPU in all "
                 f"(≈ {spent_cpu / 51 * 1000:.0f} ms CPU a day of capture)"))
    for run in range(3):
        wall, cpu = timed(phantom + [str(kept)], ROOT)
        label = ("first" if run == 0 else "next") + " `phantom search invoice`, index kept current"
        if run == 0:
            label += f" ({left} rows of the last minute left to index)"
        rows.append((label, f"{wall:.2f} s wall, {cpu:.2f} s CPU"))
    kept.unlink()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, metavar="DIR",
                        help="an older commit's tree to measure beside this one (git archive C | tar -x -C DIR)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip-search", action="store_true")
    args = parser.parse_args()
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="phantom-bench-cache-")
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="phantom-bench-config-")
    scratch = Path(tempfile.mkdtemp(prefix="phantom-bench-scaling-"))
    contenders = {"this tree": ROOT}
    if args.baseline:
        contenders["baseline"] = args.baseline.resolve()
    try:
        rows = retention(scratch, contenders, args.runs)
        if not args.skip_search:
            rows += first_search(scratch, contenders)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    title = "retention dry run and first search" + (f" (baseline {args.baseline})" if args.baseline else "")
    print(table(rows, title))


if __name__ == "__main__":
    main()
