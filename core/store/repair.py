"""`phantom doctor --repair`: copy what SQLite can still read out of a
damaged store into a new one, and keep the original beside it.

Every table of the current schema is read in key order; where a read meets
a damaged page, the copy skips ahead to the first key that can be read again
(doubling the jump, then narrowing it down, so readable rows right after
the damage are not skipped). Tables without rowids are read forward up to
the damage and backward from their end down to it. Secondary indexes are
never read (they are rebuilt by the inserts), so damage confined to an index
loses nothing. Rows that point at a row the damage took (an input row's
snapshot, an element's tree) keep the row and lose the pointer; a row that
cannot exist without its parent (a replay step without its run) is dropped.
The damaged file and its WAL are renamed to `<store>.damaged-<UTC time>`
and the new store takes the original's place: nothing is ever deleted.

The caller holds the capture daemon's lock: no process may write the store
while it is replaced.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import apsw

from .connection import open_store
from .errors import StoreError
from .paths import SIDECAR_SUFFIXES

BATCH = 500
Rows = list[tuple[Any, ...]]
Reader = Callable[[int], "Rows | None"]
DAMAGE = (apsw.CorruptError, apsw.IOError, apsw.NotADBError)
# The largest rowid the copy will jump to looking past damage.
MAX_ROWID = 1 << 62


@dataclass(frozen=True, slots=True)
class TableCopy:
    table: str
    copied: int
    unreadable: bool      # a read of this table met damage


@dataclass(frozen=True, slots=True)
class Repair:
    store: Path
    damaged_copy: Path
    tables: tuple[TableCopy, ...]
    cleared_references: int
    dropped_orphans: int

    @property
    def copied(self) -> int:
        return sum(table.copied for table in self.tables)

    def summary(self) -> str:
        hit = [t.table for t in self.tables if t.unreadable]
        return (f"repaired {self.store}: copied {self.copied} rows"
                + (f" (damage met in {', '.join(hit)})" if hit else "")
                + (f", cleared {self.cleared_references} references to lost rows" if self.cleared_references else "")
                + (f", dropped {self.dropped_orphans} rows whose parent was lost" if self.dropped_orphans else "")
                + f"; the damaged original is kept as {self.damaged_copy}")


def repair(path: str | os.PathLike[str]) -> Repair:
    """Salvage the store at `path` (see the module docstring)."""
    store = Path(path)
    if not store.is_file():
        raise StoreError(f"no store at {store} to repair", path=str(store))
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    fresh = store.with_name(f".{store.name}.repair-{os.getpid()}")
    _remove(fresh)
    source = _open_source(store)
    try:
        target = open_store(fresh)
        try:
            target.pragma("foreign_keys", 0)
            tables = tuple(_copy_table(source, target, table) for table in _tables(target))
            cleared, dropped = _settle_references(target)
            target.pragma("foreign_keys", 1)
        finally:
            target.close()
    except BaseException:
        _remove(fresh)
        raise
    finally:
        source.close()
    damaged_copy = store.with_name(f"{store.name}.damaged-{stamp}")
    for suffix in SIDECAR_SUFFIXES:
        if os.path.exists(f"{store}{suffix}"):
            os.rename(f"{store}{suffix}", f"{damaged_copy}{suffix}")
    os.rename(fresh, store)
    return Repair(store, damaged_copy, tables, cleared, dropped)


def _open_source(store: Path) -> apsw.Connection:
    uri = store.resolve().as_uri() + "?mode=ro"
    try:
        connection = apsw.Connection(uri, flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
        connection.execute("SELECT count(*) FROM sqlite_master").fetchall()
    except apsw.Error as exc:
        raise StoreError(f"{store} cannot be repaired: SQLite cannot read even its table list "
                         f"({exc.__class__.__name__}); restore it from a backup", path=str(store)) from None
    return connection


# Derived, not copied: `phantom search` rebuilds its index from the rows
# when its progress table says nothing was indexed yet; the day revisions
# are counted afresh by the new store's triggers as the rows go in (and a
# new file is another store to the compiled-document cache).
_DERIVED = ("search_progress", "day_revisions", "revision_marks")


def _tables(connection: apsw.Connection) -> list[str]:
    """The tables to copy: every real table but the search index (the FTS5
    tables and their shadow tables: derived, and raw index pages copied
    into a new index would not agree with it)."""
    rows = [(str(name), str(sql)) for name, sql in connection.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name")]
    virtual = [name for name, sql in rows if sql.upper().startswith("CREATE VIRTUAL TABLE")]
    return [name for name, _ in rows if name not in virtual and name not in _DERIVED
            and not any(name.startswith(f"{table}_") for table in virtual)]


def _columns(connection: apsw.Connection, table: str) -> list[tuple[str, int]]:
    """(name, position in the primary key: 0 when not part of it)."""
    return [(row[1], row[5]) for row in connection.execute(f"PRAGMA table_info({_quote(table)})")]


def _copy_table(source: apsw.Connection, target: apsw.Connection, table: str) -> TableCopy:
    try:
        present = {name for name, _ in _columns(source, table)}
    except apsw.Error:
        present = set()
    wanted = _columns(target, table)
    columns = [name for name, _ in wanted if name in present]
    if not columns:
        return TableCopy(table, 0, False)
    # Read as the damaged file lays the table out: a table a later migration
    # rebuilt (migration 6's rowid `blobs`) may still be WITHOUT ROWID there.
    without_rowid = bool(source.execute(
        "SELECT sql LIKE '%WITHOUT ROWID%' FROM sqlite_master WHERE name = ?", (table,)).get)
    insert = (f"INSERT OR IGNORE INTO {_quote(table)}({', '.join(map(_quote, columns))}) "
              f"VALUES({', '.join('?' for _ in columns)})")
    if without_rowid:
        key = [name for name, position in sorted(wanted, key=lambda c: c[1]) if position and name in present]
        rows, damaged = _read_by_key(source, table, columns, key)
    else:
        rows, damaged = _read_by_rowid(source, table, columns)
    copied = 0
    with target:
        for batch in rows:
            target.executemany(insert, batch)
            copied += len(batch)
    return TableCopy(table, copied, damaged[0])


def _read_by_rowid(source: apsw.Connection, table: str, columns: list[str]) -> tuple[Iterator[Rows], list[bool]]:
    """Batches of rows in rowid order, skipping what cannot be read."""
    select = (f"SELECT rowid, {', '.join(map(_quote, columns))} FROM {_quote(table)} NOT INDEXED "
              f"WHERE rowid >= ? ORDER BY rowid LIMIT {BATCH}")
    damaged = [False]

    def read(start: int) -> Rows | None:
        try:
            return list(source.execute(select, (start,)))
        except DAMAGE:
            damaged[0] = True
            return None

    def batches() -> Iterator[Rows]:
        start: int | None = -MAX_ROWID
        while start is not None and start <= MAX_ROWID:
            rows = read(start)
            if rows is None:
                start = _first_readable(read, start)
                continue
            if not rows:
                return
            yield [row[1:] for row in rows]
            start = int(rows[-1][0]) + 1
    return batches(), damaged


def _first_readable(read: Reader, failed: int) -> int | None:
    """The smallest start after `failed` from which a read succeeds: jump
    ahead doubling the distance, then narrow down between the last failure
    and the first success."""
    step, good = 1, None
    while failed + step <= MAX_ROWID:
        if read(failed + step) is not None:
            good = failed + step
            break
        step *= 2
    if good is None:
        return None
    low = failed + step // 2 if step > 1 else failed   # known to fail
    while good - low > 1:
        middle = (low + good) // 2
        if read(middle) is None:
            low = middle
        else:
            good = middle
    return good


def _read_by_key(source: apsw.Connection, table: str, columns: list[str],
                 key: list[str]) -> tuple[Iterator[Rows], list[bool]]:
    """A table without rowids: forward up to any damage, then backward from
    the end down to the last key read forward."""
    names = ", ".join(map(_quote, columns))
    order = ", ".join(map(_quote, key))
    damaged = [False]

    def batches() -> Iterator[Rows]:
        seen: set[tuple[Any, ...]] = set()
        forward: Rows = []
        try:
            for row in source.execute(f"SELECT {names} FROM {_quote(table)} ORDER BY {order}"):
                forward.append(row)
                if len(forward) >= BATCH:
                    seen.update(_keys(forward, columns, key))
                    yield forward
                    forward = []
        except DAMAGE:
            damaged[0] = True
        seen.update(_keys(forward, columns, key))
        if forward:
            yield forward
        if not damaged[0]:
            return
        backward: Rows = []
        descending = ", ".join(f"{_quote(name)} DESC" for name in key)
        try:
            for row in source.execute(f"SELECT {names} FROM {_quote(table)} ORDER BY {descending}"):
                if _keys([row], columns, key)[0] in seen:
                    break
                backward.append(row)
        except DAMAGE:
            pass
        if backward:
            yield backward
    return batches(), damaged


def _keys(rows: Rows, columns: list[str], key: list[str]) -> list[tuple[Any, ...]]:
    positions = [columns.index(name) for name in key]
    return [tuple(row[i] for i in positions) for row in rows]


def _settle_references(target: apsw.Connection) -> tuple[int, int]:
    """Clear references to rows the damage took; drop rows that cannot
    stand without theirs. Returns (cleared, dropped)."""
    cleared = dropped = 0
    with target:
        for table, rowid, _parent, fk_id in list(target.execute("PRAGMA foreign_key_check")):
            foreign = {row[0]: row for row in target.execute(f"PRAGMA foreign_key_list({_quote(table)})")}
            column = foreign[fk_id][3]
            not_null = {row[1]: row[3] for row in target.execute(f"PRAGMA table_info({_quote(table)})")}
            if not_null.get(column):
                target.execute(f"DELETE FROM {_quote(table)} WHERE rowid = ?", (rowid,))
                dropped += 1
            else:
                target.execute(f"UPDATE {_quote(table)} SET {_quote(column)} = NULL WHERE rowid = ?", (rowid,))
                cleared += 1
    return cleared, dropped


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _remove(path: Path) -> None:
    for suffix in SIDECAR_SUFFIXES:
        try:
            os.unlink(f"{path}{suffix}")
        except FileNotFoundError:
            pass
