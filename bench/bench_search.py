"""`phantom search` on the 51-day synthetic corpus, beside a LIKE scan.

Copies the corpus (`.bench-cache/synth-51d-phantom.sqlite3`, built once by
`phantom synth --days 51 --seed 7`), builds the search index from scratch
(timed: the one catch-up a store pays when search first runs), then for a
few queries takes turns run by run between
- Phantom's search through the front door, bringing the index up to date
  first (nothing to add: a read of the progress marks) — what `phantom
  search` and the MCP tool do in process;
- the baseline: the same words as LIKE '%word%' over snapshot titles and
  URLs and over every element name, joined back to the snapshots.
Both answer in the same window (the whole history). Medians and bests in ms;
the whole `phantom search` process is timed too. Prints, never asserts.

    .venv/bin/python bench/bench_search.py --runs 15
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

from bench.bench_compile import corpus  # noqa: E402
from bench.common import median, table  # noqa: E402

QUERIES = ("invoice", "github pull", "reply in thread", "quarterly", "zzqx")


def like_scan(connection, text: str) -> int:
    """Snapshots whose title or URL, or whose walk's element names, hold
    every word (case-insensitive LIKE): the full scan an index replaces."""
    words = text.split()
    title = " AND ".join("(title LIKE ? OR coalesce(url, '') LIKE ?)" for _ in words)
    names = " AND ".join("name LIKE ?" for _ in words)
    patterns = [f"%{w}%" for w in words]
    sql = (f"SELECT count(*) FROM (SELECT id FROM snapshots WHERE {title} UNION "
           f"SELECT s.id FROM snapshots s WHERE s.tree_id IN (SELECT DISTINCT tree_id FROM elements "
           f"WHERE {names}))")
    return connection.execute(sql, [p for p in patterns for _ in (0, 1)] + patterns).get


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="phantom-bench-cache-")
    import apsw

    from compiler.api import search
    from core.store import open_store
    from core.store.search_index import catch_up, update_index

    scratch = Path(tempfile.mkdtemp(prefix="phantom-bench-search-"))
    db = scratch / "store.sqlite3"
    shutil.copy(corpus(51, "phantom"), db)
    writer = open_store(db)
    started = time.perf_counter()
    indexed = catch_up(writer)
    build_s = time.perf_counter() - started
    writer.close()
    reader = apsw.Connection(f"file:{db}?mode=ro", flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)

    rows = [("index built from scratch (once)", f"{build_s:.1f} s for {indexed:,} rows")]
    for text in QUERIES:
        ours, theirs = [], []
        for _ in range(args.runs):
            t = time.perf_counter()
            update_index(db)
            result, _ = search(db, text)
            ours.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            baseline = like_scan(reader, text)
            theirs.append((time.perf_counter() - t) * 1000)
        rows.append((f"{text!r}: search (update + query)",
                     f"{median(ours):.1f} ms median, best {min(ours):.1f} — {result.hits:,} hits in "
                     f"{result.total_stretches:,} stretches"))
        rows.append((f"{text!r}: LIKE scan baseline",
                     f"{median(theirs):.1f} ms median, best {min(theirs):.1f} — {baseline:,} snapshots "
                     f"({median(theirs) / median(ours):.0f}x)"))
    phantom = str(Path(sys.executable).with_name("phantom"))
    walls = []
    for _ in range(max(3, args.runs // 3)):
        t = time.perf_counter()
        subprocess.run([phantom, "search", "invoice", "--db", str(db)], check=True,
                       stdout=subprocess.DEVNULL)
        walls.append((time.perf_counter() - t) * 1000)
    rows.append(("`phantom search invoice` whole process", f"{median(walls):.0f} ms median, best "
                 f"{min(walls):.0f}"))
    print(table(rows, f"search over 51 days ({db.stat().st_size / 2**20:.0f} MiB store)"))
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
