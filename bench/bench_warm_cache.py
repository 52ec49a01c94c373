"""What a warm compile of a long store costs: this checkout beside another
one (the code before a change), alternated in the same run.

    python bench/bench_warm_cache.py [--days 51] [--runs 5] [--before /work/main]

Corpus: `phantom synth --days N --seed 7` (bench_compile's, in .bench-cache/),
migrated to this checkout's schema first (the migration's time is printed:
it must not keep capture from starting). Each figure is one fresh process
per sample, so peak RSS is that compile's alone; each checkout has its own
private cache folder, filled by one cold compile first. Measured:
- the whole corpus as one window, compiled and rendered to the compact
  block: cold (`cache=False`) and warm (served from the cache);
- every day compiled as its own window, one block per day, warm;
- the same after one row of the last day changed (one day's revision
  moves): what a warm loop costs when a little has changed;
- what the triggers cost a writer: one day's rows inserted into a store at
  schema 4 and at schema 5, alternated.
Wall time is the compile and render inside the process (imports excluded);
peak RSS is the process's. Every warm block is checked against the cold one.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_compile import ZONE, corpus, weekdays  # noqa: E402
from bench.common import table  # noqa: E402

_CHILD = """
import hashlib, json, resource, sys, time
sys.path.insert(0, {root!r})
from compiler.api import compile_window, render
db, mode, days, cache = sys.argv[1], sys.argv[2], sys.argv[3].split(","), sys.argv[4] == "1"
started = time.perf_counter()
if mode == "window":
    blocks = [render(compile_window(db, since=days[0] + "T00:00:00", until=days[-1] + "T23:59:59.999",
                                    tz={zone!r}, cache=cache), "compact")]
else:
    blocks = [render(compile_window(db, day=day, tz={zone!r}, cache=cache), "compact") for day in days]
seconds = time.perf_counter() - started
print(json.dumps({{"s": seconds, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                   "sha": hashlib.sha256(b"".join(blocks)).hexdigest()}}))
"""


def sample(root: Path, cache_home: Path, db: Path, mode: str, days: list[str], cache: bool) -> dict:
    env = dict(os.environ, PYTHONPATH=str(root), XDG_CACHE_HOME=str(cache_home), TZ=ZONE)
    out = subprocess.run([sys.executable, "-c", _CHILD.format(root=str(root), zone=ZONE), str(db), mode,
                          ",".join(days), "1" if cache else "0"], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def migrate(db: Path) -> float:
    from core.store import open_store

    started = time.perf_counter()
    open_store(db).close()
    return time.perf_counter() - started


def write_cost(directory: Path, rounds: int = 3) -> dict[int, float]:
    """Seconds to insert one day's worth of capture rows (2,500 snapshots,
    4,000 input rows, 150,000 elements, in commits of 5,000 rows as the
    writer makes them) into a store at schema 4 and at schema 5 (its
    triggers on), alternated; best of `rounds`."""
    import apsw

    from core.store.schema import APPLICATION_ID, MIGRATIONS

    day = 1_772_409_600_000
    snapshots = [(i, day + i * 20_000, 60, "Europe/Berlin", 0, "focus", "firefox", f"title {i}")
                 for i in range(1, 2_501)]
    inputs = [(i, day + i * 12_000, day + i * 12_000, 0, "key", 1) for i in range(1, 4_001)]
    elements = [(i, 0, 0, "push button", f"name {i}", f"frame/push button[{i}]") for i in range(1, 150_001)]
    best: dict[int, float] = {4: float("inf"), 5: float("inf")}
    for round_ in range(rounds):
        for version in (4, 5):
            path = directory / f"writes-{version}-{round_}.sqlite3"
            connection = apsw.Connection(str(path))
            connection.pragma("journal_mode", "wal")
            connection.pragma("synchronous", "normal")
            with connection:
                for migration in MIGRATIONS[:version]:
                    connection.execute(migration.sql)
                connection.pragma("application_id", APPLICATION_ID)
                connection.pragma("user_version", version)
            started = time.perf_counter()
            for sql, rows in (
                    ("INSERT INTO snapshots(id, ts_ms, utc_offset_min, tz_name, monitor, trigger, app, "
                     "title) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", snapshots),
                    ("INSERT INTO input_events(id, ts_ms, end_ms, monitor, kind, count) "
                     "VALUES (?, ?, ?, ?, ?, ?)", inputs),
                    ("INSERT INTO elements(id, depth, ordinal, role, name, path) VALUES (?, ?, ?, ?, ?, ?)",
                     elements)):
                for start in range(0, len(rows), 5_000):
                    with connection:
                        connection.executemany(sql, rows[start:start + 5_000])
            best[version] = min(best[version], time.perf_counter() - started)
            connection.close()
    return best


def touch_last_day(db: Path) -> None:
    """The newest snapshot's title changes (a row of the last day), as a
    writer would change it."""
    from core.store import open_store

    connection = open_store(db)
    with connection:
        connection.execute("UPDATE snapshots SET title = title || ' ' WHERE id = (SELECT max(id) FROM "
                           "snapshots)")
    connection.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=51)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--before", type=Path, default=Path("/work/main"),
                        help="the checkout to compare with (default /work/main)")
    args = parser.parse_args()
    db = corpus(args.days, "phantom")
    days = weekdays(args.days)
    migration_s = migrate(db)
    contenders = {"before": args.before.resolve(), "after": ROOT}
    homes = {name: Path(tempfile.mkdtemp(prefix=f"phantom-warm-{name}-")) for name in contenders}
    rows: list[tuple[str, str]] = [(f"migration to this schema, {db.stat().st_size / 1e9:.2f} GB store",
                                    f"{migration_s * 1000:.0f} ms")]
    figures: dict[str, dict[str, list[dict]]] = {name: {} for name in contenders}

    def record(name: str, what: str, result: dict) -> None:
        figures[name].setdefault(what, []).append(result)

    cold_sha = {}
    for name, root in contenders.items():     # fill each cache (and take one cold figure each)
        result = sample(root, homes[name], db, "window", days, cache=True)
        record(name, "window, cold (fills the cache)", result)
        cold_sha[name] = result["sha"]
        record(name, "days, cold (fills the cache)", sample(root, homes[name], db, "days", days, True))
    assert cold_sha["before"] == cold_sha["after"], "both checkouts must compile the same block"
    for _ in range(args.runs):
        for name, root in contenders.items():
            record(name, "window, cold (--no-cache)", sample(root, homes[name], db, "window", days, False))
            record(name, "window, warm", sample(root, homes[name], db, "window", days, True))
            record(name, f"{args.days} days one by one, warm", sample(root, homes[name], db, "days", days,
                                                                  True))
    for name, results in figures.items():
        assert all(r["sha"] == cold_sha[name] for r in results["window, warm"]), "warm ≠ cold"
    touch_last_day(db)
    for _ in range(args.runs):
        for name, root in contenders.items():
            record(name, f"{args.days} days one by one, one row changed since", sample(
                root, homes[name], db, "days", days, True))
            touch_last_day(db)
    for what in figures["after"]:
        for name in contenders:
            results = figures[name][what]
            seconds = [r["s"] for r in results]
            rows.append((f"{what}: {name}", f"median {statistics.median(seconds):.3f} s, best "
                         f"{min(seconds):.3f} s, peak RSS {max(r['rss_mb'] for r in results):.0f} MB "
                         f"({len(results)} runs)"))
    scratch = Path(tempfile.mkdtemp(prefix="phantom-writes-", dir=db.parent))
    writes = write_cost(scratch)
    shutil.rmtree(scratch, ignore_errors=True)
    rows.append(("one day's rows inserted (2,500 snapshots, 4,000 inputs, 150,000 elements)",
                 f"schema 4: {writes[4] * 1000:.0f} ms, schema 5 (triggers): {writes[5] * 1000:.0f} ms "
                 f"(best of 3, alternated)"))
    for home in homes.values():
        shutil.rmtree(home, ignore_errors=True)
    print(table(rows, f"bench_warm_cache: {args.days}-day store, before = {args.before}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
