"""Retention on the 51-day synthetic corpus, keeping 14 days of raw rows.

Copies the corpus (built once by `phantom synth --days 51 --seed 7`), takes
the compiled day 1 and a sample of the kept days, runs `phantom retention
run` in process with `raw_days = 14` and the clock set to the corpus's last
day at 16:00 (the only clock read is the CLI's, so it is patched there),
and reports: the time, the store's size before and after against the share
the rolled days held, that day 1 now compiles from the roll-up (the same
block, marked), and that every sampled kept day compiles byte for byte as
before. The baseline in the same run: the same days removed with `phantom
forget` (each window erased and the store rewritten by VACUUM), timed on a
second copy — what a person had to do before retention existed. Prints,
never asserts.

    .venv/bin/python bench/bench_retention.py [--no-baseline]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_compile import corpus, weekdays  # noqa: E402
from bench.common import table  # noqa: E402

KEEP_DAYS = 14
MIB = 1024 * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-baseline", action="store_true", help="skip the forget + VACUUM baseline")
    args = parser.parse_args()
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="phantom-bench-cache-")
    import core.clock
    from cli.main import main as phantom
    from compiler.api import compile_window, render
    from core.store.retention import file_bytes

    days = weekdays(51)
    now = datetime.fromisoformat(f"{days[-1]}T16:00").replace(tzinfo=ZoneInfo("Europe/Berlin"))
    core.clock.now_ms = lambda: int(now.timestamp() * 1000)
    scratch = Path(tempfile.mkdtemp(prefix="phantom-bench-retention-"))
    db = scratch / "store.sqlite3"
    shutil.copy(corpus(51, "phantom"), db)
    config = scratch / "config.toml"
    config.write_text(f"[retention]\nraw_days = {KEEP_DAYS}\n")

    kept = [day for day in days if day >= _cut(days[-1])]
    rolled = [day for day in days if day not in kept]
    sample = kept[::3] + [kept[-1]]
    before = {day: render(compile_window(db, day=day, cache=False), "json") for day in sample}
    first_block = render(compile_window(db, day=days[0], cache=False), "compact").decode()
    size = file_bytes(db)
    started = time.perf_counter()
    status = phantom(["retention", "run", "--db", str(db), "--config", str(config)])
    elapsed = time.perf_counter() - started
    after_size = file_bytes(db)
    identical = sum(render(compile_window(db, day=day, cache=False), "json") == before[day]
                    for day in sample)
    block = render(compile_window(db, day=days[0], cache=False), "compact").decode().splitlines()
    from_rollup = block[1].startswith("window: from the roll-up")
    same_block = block[:1] + block[2:] == first_block.splitlines()
    share = len(rolled) / len(days)
    rows = [("run", f"exit {status}, {len(rolled)} days rolled up, {len(kept)} kept"),
            ("time (<= 60 s)", f"{elapsed:.1f} s"),
            ("store size", f"{size / MIB:.0f} MiB -> {after_size / MIB:.0f} MiB "
                           f"(fell {1 - after_size / size:.1%}; the rolled days held {share:.1%} "
                           "of the days)"),
            ("day 1 compiles from the roll-up, same block", f"{from_rollup and same_block}"),
            ("sampled kept days byte-identical", f"{identical} of {len(sample)}")]
    if not args.no_baseline:
        rows.append(_baseline(scratch, rolled))
    print(table(rows, f"retention on 51 days, keeping {KEEP_DAYS}"))
    shutil.rmtree(scratch, ignore_errors=True)


def _cut(last: str) -> str:
    from datetime import date, timedelta

    return (date.fromisoformat(last) - timedelta(days=KEEP_DAYS)).isoformat()


def _baseline(scratch: Path, rolled: list[str]) -> tuple[str, str]:
    from cli.main import main as phantom
    from core.store.retention import file_bytes

    db = scratch / "forget.sqlite3"
    shutil.copy(corpus(51, "phantom"), db)
    size = file_bytes(db)
    started = time.perf_counter()
    phantom(["forget", "--db", str(db), "--since", rolled[0], "--until", _next(rolled[-1]), "--yes"])
    elapsed = time.perf_counter() - started
    return ("baseline: phantom forget of the same days (VACUUM)",
            f"{elapsed:.1f} s, {size / MIB:.0f} MiB -> {file_bytes(db) / MIB:.0f} MiB, nothing kept")


def _next(day: str) -> str:
    from datetime import date, timedelta

    return (date.fromisoformat(day) + timedelta(days=1)).isoformat()


if __name__ == "__main__":
    main()
