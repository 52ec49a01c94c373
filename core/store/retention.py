"""Retention on the store side: removing a day's raw rows once it is rolled
up, old images, and handing the freed pages back to the file system.

`remove_raw` takes out what capture wrote in a window — snapshots, input
rows, accessibility walks and the elements only they hold, the images no
remaining row shows, blind spots inside it, and their search-index entries —
and keeps what a person made on purpose or what other rows still need: a
demonstration's input rows and the elements they name (programs are
compiled from them), a snapshot a kept input row names, replay runs. It
runs with secure_delete (every write connection does), so the removed rows'
bytes are zeroed, not left in free pages.

Space: a store with incremental auto-vacuum (every new one; older ones are
converted once by `convert_to_incremental`, a VACUUM) returns its free pages
to the file system with `release_space`: in slices, so a progress bar can
follow and the capture daemon's writer never waits long — or, when most of
the file is free, by one VACUUM of what is left.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import apsw

from . import retention_refs as references
from .connection import INCREMENTAL, has_table
from .errors import StoreError
from .search_index import drop_rows, has_index

Progress = Callable[[int, int], None]
# The meta key holding the instant before which retention removed raw rows:
# a roll-up answers for a day wholly before it (compiler/rolled.py reads it).
RAW_BEFORE_KEY = "retention_raw_before_ms"
RELEASE_SLICE_PAGES = 4096   # 16 MiB of 4 KiB pages per incremental_vacuum step


@dataclass(frozen=True, slots=True)
class Removed:
    """What one window's removal took out."""

    snapshots: int = 0
    input_events: int = 0
    trees: int = 0
    elements: int = 0
    images: int = 0
    image_bytes: int = 0
    blind_spots: int = 0

    def __add__(self, other: "Removed") -> "Removed":
        return Removed(*(a + b for a, b in zip(asdict(self).values(), asdict(other).values())))

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


_COLLECT = (
    ("ret_snapshots", "SELECT id, screenshot FROM snapshots WHERE ts_ms >= :since AND ts_ms < :until "
                      "AND NOT EXISTS (SELECT 1 FROM input_events i WHERE i.snapshot_id = snapshots.id "
                      "AND (i.ts_ms >= :until OR i.ts_ms < :since OR i.recording_id IS NOT NULL))"),
    ("ret_inputs", "SELECT id, element_id, crop FROM input_events WHERE ts_ms >= :since "
                   "AND ts_ms < :until AND recording_id IS NULL"),
    ("ret_trees", "SELECT id FROM a11y_trees WHERE ts_ms >= :since AND ts_ms < :until"),
)
_COLLECT_V2 = (("ret_snapshots", "SELECT id, screenshot FROM snapshots WHERE ts_ms >= :since "
                                 "AND ts_ms < :until"),) + _COLLECT[1:]


def _columns(connection: apsw.Connection, table: str) -> set[str]:
    return {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}


# Crops a saved program re-aims its clicks by (`blob` of each crop, `crop` of
# a step, in its JSON body): kept while the program is, whatever their age.
_PROGRAM_BLOBS = ("SELECT value FROM programs, json_tree(programs.body) "
                  "WHERE key IN ('blob', 'crop') AND type = 'text'")


def _kept_by_programs(connection: apsw.Connection) -> str:
    """An SQL condition on `sha256`: no saved program refers to it."""
    return f"sha256 NOT IN ({_PROGRAM_BLOBS})" if has_table(connection, "programs") else "1"


def _collect(connection: apsw.Connection, window: dict[str, int]) -> None:
    references.refresh(connection)
    for name in ("ret_snapshots", "ret_inputs", "ret_trees", "ret_elements", "ret_blobs"):
        connection.execute(f"DROP TABLE IF EXISTS temp.{name}")
    linked = "snapshot_id" in _columns(connection, "input_events")
    for name, select in (_COLLECT if linked else _COLLECT_V2):
        connection.execute(f"CREATE TEMP TABLE {name} AS {select}", window)
    # what other rows still name: looked up in the run's reference tables
    # (retention_refs), not by reading every row of the store for each day
    connection.execute(
        "CREATE TEMP TABLE ret_elements AS SELECT id FROM elements WHERE (tree_id IN "
        "(SELECT id FROM ret_trees) OR (tree_id IS NULL AND id IN (SELECT element_id FROM ret_inputs))) "
        "AND NOT EXISTS (SELECT 1 FROM temp.ret_ref_elements r WHERE r.element_id = elements.id "
        "AND r.input_id NOT IN (SELECT id FROM ret_inputs))")
    # a click's three crops (`click_evidence`, in stores that have it) go with it
    evidence = has_table(connection, "click_evidence")
    crops = ("OR sha256 IN (SELECT blob FROM click_evidence WHERE input_id IN "
             "(SELECT id FROM ret_inputs))" if evidence else "")
    kept_crops = ("AND NOT EXISTS (SELECT 1 FROM click_evidence c WHERE c.blob = blobs.sha256 AND "
                  "c.input_id NOT IN (SELECT id FROM ret_inputs))" if evidence else "")
    connection.execute(
        "CREATE TEMP TABLE ret_blobs AS SELECT sha256, length(data) AS size FROM blobs "
        f"WHERE (sha256 IN (SELECT screenshot FROM ret_snapshots) OR sha256 IN (SELECT crop FROM "
        f"ret_inputs) {crops}) AND NOT EXISTS (SELECT 1 FROM temp.ret_ref_blobs r WHERE "
        "r.sha256 = blobs.sha256 AND CASE r.kind WHEN 's' THEN r.row_id NOT IN (SELECT id FROM "
        "ret_snapshots) ELSE r.row_id NOT IN (SELECT id FROM ret_inputs) END) "
        f"{kept_crops} AND {_kept_by_programs(connection)}")


def _count(connection: apsw.Connection, sql: str, params: apsw.Bindings | None = None) -> int:
    row = connection.execute(sql, params).fetchone()
    return int(row[0]) if row is not None else 0


def plan_raw(connection: apsw.Connection, since_ms: int, until_ms: int) -> Removed:
    """What `remove_raw` would take out; writes nothing."""
    connection.pragma("temp_store", "memory")
    if not references.is_built(connection):
        references.build(connection)
    connection.execute("BEGIN")
    try:
        window = {"since": since_ms, "until": until_ms}
        _collect(connection, window)
        return _tally(connection, window)
    finally:
        connection.execute("ROLLBACK")


def _tally(connection: apsw.Connection, window: dict[str, int]) -> Removed:
    images = _count(connection, "SELECT count(*) FROM ret_blobs")
    size = _count(connection, "SELECT coalesce(sum(size), 0) FROM ret_blobs")
    return Removed(_count(connection, "SELECT count(*) FROM ret_snapshots"),
                   _count(connection, "SELECT count(*) FROM ret_inputs"),
                   _count(connection, "SELECT count(*) FROM ret_trees"),
                   _count(connection, "SELECT count(*) FROM ret_elements"), int(images), int(size),
                   _count(connection, "SELECT count(*) FROM blind_spots WHERE start_ms >= :since "
                          "AND end_ms IS NOT NULL AND end_ms <= :until", window))


# Rows left pointing at removed ones, asked after the removal (the
# references re-read for the days it changed): none may be found.
_DANGLING = (
    "SELECT count(*) FROM temp.ret_ref_elements WHERE element_id IN (SELECT id FROM ret_elements)",
    "SELECT count(*) FROM temp.ret_ref_blobs WHERE sha256 IN (SELECT sha256 FROM ret_blobs)",
    "SELECT count(*) FROM snapshots WHERE tree_id IN (SELECT id FROM ret_trees)",
    "SELECT count(*) FROM elements WHERE tree_id IN (SELECT id FROM ret_trees)",
)


def remove_raw(connection: apsw.Connection, since_ms: int, until_ms: int,
               before: Callable[[apsw.Connection], None] | None = None) -> Removed:
    """Remove the window's raw rows in one transaction; `before` runs first
    inside it (the roll-up's insert, so the day is never without both).

    As forget does, the per-row foreign-key checks are off meanwhile (a
    deleted element would be looked for in every input row: there is no
    index on input_events.element_id); the references the removal could
    break are checked once, before it commits."""
    window = {"since": since_ms, "until": until_ms}
    connection.pragma("temp_store", "memory")
    if not references.is_built(connection):
        references.build(connection)
    checked = int(connection.pragma("foreign_keys"))
    connection.pragma("foreign_keys", 0)
    try:
        with connection:
            if before is not None:
                before(connection)
            removed = _remove(connection, window)
    finally:
        connection.pragma("foreign_keys", checked)
    return removed


def _remove(connection: apsw.Connection, window: dict[str, int]) -> Removed:
    _collect(connection, window)
    removed = _tally(connection, window)
    if has_index(connection):
        drop_rows(connection, "snapshots", "SELECT id FROM ret_snapshots")
        drop_rows(connection, "a11y_trees", "SELECT id FROM ret_trees")
        drop_rows(connection, "input_events", "SELECT id FROM ret_inputs")
    if has_table(connection, "click_evidence"):
        connection.execute("DELETE FROM click_evidence WHERE input_id IN (SELECT id FROM ret_inputs)")
    for statement in (
            "UPDATE snapshots SET tree_id = NULL WHERE tree_id IN (SELECT id FROM ret_trees) "
            "AND id NOT IN (SELECT id FROM ret_snapshots)",
            "DELETE FROM input_events WHERE id IN (SELECT id FROM ret_inputs)",
            "DELETE FROM snapshots WHERE id IN (SELECT id FROM ret_snapshots)",
            "DELETE FROM elements WHERE id IN (SELECT id FROM ret_elements)",
            "UPDATE elements SET tree_id = NULL, parent_id = NULL "
            "WHERE tree_id IN (SELECT id FROM ret_trees)",
            "DELETE FROM a11y_trees WHERE id IN (SELECT id FROM ret_trees)",
            "DELETE FROM blobs WHERE sha256 IN (SELECT sha256 FROM ret_blobs)",
            "DELETE FROM blind_spots WHERE start_ms >= :since AND end_ms IS NOT NULL "
            "AND end_ms <= :until"):
        connection.execute(statement, window)
    references.refresh(connection)
    dangling: tuple[str, ...] = _DANGLING
    if has_table(connection, "click_evidence"):
        dangling += ("SELECT count(*) FROM click_evidence WHERE blob IN (SELECT sha256 FROM ret_blobs)",)
    for query in dangling:
        if _count(connection, query):
            raise StoreError("retention would leave rows pointing at rows it removed; nothing was "
                             "removed")
    for name in ("ret_snapshots", "ret_inputs", "ret_trees", "ret_elements", "ret_blobs"):
        connection.execute(f"DROP TABLE temp.{name}")
    return removed


def prune_images(connection: apsw.Connection, before_ms: int, *, dry_run: bool = False) -> tuple[int, int]:
    """Images (thumbnails, click crops) made before `before_ms`: the rows
    that showed them keep everything else. Crops a saved program re-aims by
    are kept. (count, bytes)."""
    where = f"created_ms < ? AND {_kept_by_programs(connection)}"
    count = _count(connection, f"SELECT count(*) FROM blobs WHERE {where}", (before_ms,))
    size = _count(connection, f"SELECT coalesce(sum(length(data)), 0) FROM blobs WHERE {where}",
                  (before_ms,))
    if dry_run or not count:
        return int(count), int(size)
    with connection:
        old = f"SELECT sha256 FROM blobs WHERE {where}"
        connection.execute(f"UPDATE snapshots SET screenshot = NULL WHERE screenshot IN ({old})",
                           (before_ms,))
        connection.execute(f"UPDATE input_events SET crop = NULL WHERE crop IN ({old})", (before_ms,))
        if has_table(connection, "click_evidence"):
            connection.execute(f"DELETE FROM click_evidence WHERE blob IN ({old})", (before_ms,))
        connection.execute(f"DELETE FROM blobs WHERE {where}", (before_ms,))
    return int(count), int(size)


def live_bytes(connection: apsw.Connection) -> int:
    """Bytes the store's pages in use take (the file less its free pages)."""
    pages = int(connection.pragma("page_count")) - int(connection.pragma("freelist_count"))
    return pages * int(connection.pragma("page_size"))


def file_bytes(path: str | os.PathLike[str]) -> int:
    return sum(os.path.getsize(f"{path}{suffix}") for suffix in ("", "-wal")
               if os.path.exists(f"{path}{suffix}"))


def is_incremental(connection: apsw.Connection) -> bool:
    return int(connection.pragma("auto_vacuum")) == INCREMENTAL


def convert_to_incremental(connection: apsw.Connection, path: Path,
                           progress: Progress | None = None) -> None:
    """Switch an older store to incremental auto-vacuum: it takes a VACUUM,
    once. The progress follows SQLite's virtual machine steps against an
    estimate from the page count (it ends at the total either way)."""
    connection.pragma("auto_vacuum", INCREMENTAL)
    connection.pragma("temp_store", "default")
    connection.pragma("temp_store_directory", str(Path(path).resolve().parent))
    total = max(1, int(connection.pragma("page_count")) * 40)
    done = [0]
    if progress is not None:
        def step() -> bool:
            done[0] += 1
            progress(min(done[0], total - 1), total)
            return False
        connection.set_progress_handler(step, 10_000)
    try:
        connection.execute("VACUUM")
    finally:
        connection.set_progress_handler(None)
    if progress is not None:
        progress(total, total)
    checkpoint(connection)


def release_space(connection: apsw.Connection, path: Path,
                  progress: Progress | None = None) -> int:
    """Hand the free pages back to the file system, then empty the WAL; the
    pages released. When most of the file is free (a first retention run),
    a VACUUM rewrites the pages in use — cheaper than moving them down one by
    one; otherwise incremental_vacuum moves a slice at a time."""
    free = int(connection.pragma("freelist_count"))
    if not is_incremental(connection) or not free:
        return 0
    if free * 2 > int(connection.pragma("page_count")):
        convert_to_incremental(connection, path, progress)   # a VACUUM, keeping the mode
        return free - int(connection.pragma("freelist_count"))
    released = 0
    while True:
        left = int(connection.pragma("freelist_count"))
        if not left:
            break
        connection.execute(f"PRAGMA incremental_vacuum({min(left, RELEASE_SLICE_PAGES)})").fetchall()
        released = free - int(connection.pragma("freelist_count"))
        if progress is not None:
            progress(released, free)
        if int(connection.pragma("freelist_count")) >= left:
            break
    checkpoint(connection)
    return released


def checkpoint(connection: apsw.Connection) -> None:
    """Copy the WAL into the database and empty it (a reader may hold it
    back; the next checkpoint then does it)."""
    try:
        connection.wal_checkpoint(mode=apsw.SQLITE_CHECKPOINT_TRUNCATE)
    except apsw.BusyError:
        pass
