"""Keeping the search index up to date: from the rows added since it was
last brought up to date — by the capture daemon's writer, a small slice now
and then (`index_some`, capturer/search_upkeep.py), by an import when it
ends, and by whoever searches, for what is left (`catch_up`).

Why not triggers or the daemon's write path: the daemon's budget is under 2 % of a core
and every write it makes sits on the focus path; an accessibility walk is a
few hundred element rows at once, and tokenizing them there would cost more
than writing them. Instead `search_progress` remembers, per source table, the
last row id indexed, and `catch_up` indexes what lies beyond it in short
transactions (the daemon's writer waits at most one batch). Ids only grow
while rows are added (the writer, imports and synth hand them out upward);
the one way an id comes back is a forget that removed a table's newest rows
(the next writer starts again from the highest id left) — forget then moves
that source's progress back to the highest id left (`forgot`), so the next
catch-up indexes what comes after it, never the whole index again.

What is indexed: a snapshot's title and URL (sanitised again, as the
compiler reads them, for stores written before capture sanitised them); the
distinct labels of an accessibility walk (its elements' names, else the
label naming them), all but the newest walk, whose elements may still be
arriving; the label of the element an input row landed on.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import apsw

from ..urls import sanitize_url

BATCH = 4000
Progress = Callable[[int, int], None]   # (done, total)


@dataclass(frozen=True, slots=True)
class Source:
    name: str          # the capture table (search_progress.source)
    index: str         # its FTS5 table


SOURCES = (Source("snapshots", "search_snapshots"), Source("a11y_trees", "search_trees"),
           Source("input_events", "search_inputs"))


def has_index(connection: apsw.Connection) -> bool:
    return connection.execute("SELECT 1 FROM sqlite_master WHERE name = 'search_progress'"
                              ).fetchone() is not None


def _progress(connection: apsw.Connection, source: Source) -> int | None:
    row = connection.execute("SELECT last_id FROM search_progress WHERE source = ?",
                             (source.name,)).fetchone()
    return None if row is None else int(row[0])


def _ceiling(connection: apsw.Connection, source: Source) -> int:
    """The highest id to index now (the newest walk waits for its elements)."""
    top = int(connection.execute(f"SELECT coalesce(max(id), 0) FROM {source.name}").get)
    return top - 1 if source.name == "a11y_trees" else top


def pending(connection: apsw.Connection) -> int:
    """How many rows `catch_up` would index (for a progress bar)."""
    if not has_index(connection):
        return 0
    total = 0
    for source in SOURCES:
        last = _progress(connection, source) or 0
        total += int(connection.execute(f"SELECT count(*) FROM {source.name} WHERE id > ? AND id <= ?",
                                        (last, _ceiling(connection, source))).get)
    return total


def catch_up(connection: apsw.Connection, progress: Progress | None = None) -> int:
    """Index every row added since the last catch-up; the rows indexed.
    `connection` must be a writing one (`open_store`)."""
    if not has_index(connection):
        return 0
    total, done = pending(connection), 0
    for source in SOURCES:
        last = _progress(connection, source)
        if last is None:  # never built, or reset by a forget: start afresh
            with connection:
                connection.execute(f"DELETE FROM {source.index}")
                connection.execute("INSERT INTO search_progress VALUES (?, 0)", (source.name,))
            last = 0
        ceiling = _ceiling(connection, source)
        while last < ceiling:
            with connection:
                ids = [row[0] for row in connection.execute(
                    f"SELECT id FROM {source.name} WHERE id > ? AND id <= ? ORDER BY id LIMIT ?",
                    (last, ceiling, BATCH))]
                if not ids:
                    break
                _INDEXERS[source.name](connection, ids[0], ids[-1])
                last = ids[-1]
                connection.execute("UPDATE search_progress SET last_id = ? WHERE source = ?",
                                   (last, source.name))
            done += len(ids)
            if progress is not None:
                progress(done, total)
    return done


def _snapshots(connection: apsw.Connection, low: int, high: int) -> None:
    rows = connection.execute("SELECT id, title, url FROM snapshots WHERE id BETWEEN ? AND ?",
                              (low, high)).fetchall()
    connection.executemany("INSERT INTO search_snapshots(rowid, title, url) VALUES (?, ?, ?)",
                           [(i, str(title or ""), sanitize_url(None if url is None else str(url)) or "")
                            for i, title, url in rows])


def _trees(connection: apsw.Connection, low: int, high: int) -> None:
    connection.execute(
        "INSERT INTO search_trees(rowid, labels) SELECT tree_id, group_concat(label, char(10)) "
        "FROM (SELECT DISTINCT tree_id, CASE WHEN name != '' THEN name ELSE coalesce(labelled_by, '') "
        "END AS label FROM elements WHERE tree_id BETWEEN ? AND ?) WHERE label != '' "
        "GROUP BY tree_id", (low, high))


def _inputs(connection: apsw.Connection, low: int, high: int) -> None:
    connection.execute(
        "INSERT INTO search_inputs(rowid, label) SELECT i.id, CASE WHEN e.name != '' THEN e.name "
        "ELSE coalesce(e.labelled_by, '') END AS label FROM input_events i JOIN elements e "
        "ON e.id = i.element_id WHERE i.id BETWEEN ? AND ? AND label != ''", (low, high))


_INDEXERS = {"snapshots": _snapshots, "a11y_trees": _trees, "input_events": _inputs}


def forgot(connection: apsw.Connection, emptied: Iterable[str]) -> None:
    """After a forget took rows out of the index tables `emptied` and their
    capture rows out of the store. A contentless FTS5 table cannot know a
    deleted row's tokens, so its `secure-delete` option cannot take them out
    of the segments: the delete only lays tombstones over them, and the
    tokens stay in the file until a merge rewrites those segments. Each
    emptied index is merged into one segment now (the index's own pages, not
    a rebuild from the capture rows), and every source's progress goes back
    to the highest id left."""
    if not has_index(connection):
        return
    emptied = set(emptied)
    for source in SOURCES:
        if source.index in emptied:
            connection.execute(f"INSERT INTO {source.index}({source.index}) VALUES ('optimize')")
        connection.execute(
            f"UPDATE search_progress SET last_id = min(last_id, (SELECT coalesce(max(id), 0) "
            f"FROM {source.name})) WHERE source = ?", (source.name,))


def drop_rows(connection: apsw.Connection, table: str, ids_sql: str) -> None:
    """Take the rows of capture `table` that `ids_sql` selects out of its
    index (retention, before it deletes them)."""
    index = next(s.index for s in SOURCES if s.name == table)
    connection.execute(f"DELETE FROM {index} WHERE rowid IN ({ids_sql})")


def update_index(path: str | os.PathLike[str], progress: Progress | None = None) -> str | None:
    """Bring the index of the store at `path` up to date; None when done or
    nothing to do, else why not (a read-only or busy store: the search then
    reads what was indexed before, and says so). A store of an older schema
    is left as it is — searching it is no reason to migrate it (the capture
    daemon does that) — and has no index to search."""
    from pathlib import Path

    from .connection import open_readonly, open_store
    from .errors import StoreError

    if not Path(path).is_file():
        return None  # the reader reports a missing store
    try:
        reader = open_readonly(path)
    except StoreError:
        return None  # not a Phantom store: the reader says what it is
    try:
        indexed = has_index(reader)
        behind = indexed and pending(reader) > 0
    finally:
        reader.close()
    if not behind:
        return None
    try:
        connection = open_store(path)
    except StoreError as exc:
        return f"the search index was not brought up to date: {exc}"
    try:
        catch_up(connection, progress)
    except apsw.BusyError:
        return "the search index was not brought up to date: the store stayed busy"
    finally:
        connection.close()
    return None


# -- kept current by the capture daemon (capturer/search_upkeep.py) -----------
# Rows per transaction when the daemon indexes: small, so its writer — the
# thread that also writes what is captured — is held a few milliseconds at a
# time. A walk is a few hundred element rows, hence fewer walks per slice.
UPKEEP_SLICE = {"snapshots": 500, "a11y_trees": 20, "input_events": 500}


def index_some(connection: apsw.Connection, budget_s: float,
               clock: Callable[[], float] | None = None) -> tuple[int, bool]:
    """Index rows beyond what is indexed, in slices of `UPKEEP_SLICE` (one
    short transaction each), until `budget_s` of work is spent or nothing
    is left; (rows indexed, caught up). The capture daemon's writer runs
    this on its own connection, now and then, so that a search finds the
    index current instead of indexing months at once (`catch_up` remains
    for stores no daemon kept, and takes over from here at any point: both
    advance the same `search_progress` marks)."""
    import time

    now = clock or time.monotonic
    if not has_index(connection):
        return 0, True
    deadline, done = now() + budget_s, 0
    for source in SOURCES:
        if _progress(connection, source) is None:  # never built, or reset by a forget: start afresh
            with connection:
                connection.execute(f"DELETE FROM {source.index}")
                connection.execute("INSERT INTO search_progress VALUES (?, 0)", (source.name,))
        while True:
            if now() >= deadline:
                return done, False
            with connection:
                last = _progress(connection, source) or 0
                ids = [row[0] for row in connection.execute(
                    f"SELECT id FROM {source.name} WHERE id > ? AND id <= ? ORDER BY id LIMIT ?",
                    (last, _ceiling(connection, source), UPKEEP_SLICE[source.name]))]
                if not ids:
                    break
                _INDEXERS[source.name](connection, ids[0], ids[-1])
                connection.execute("UPDATE search_progress SET last_id = ? WHERE source = ?",
                                   (ids[-1], source.name))
            done += len(ids)
    return done, True
