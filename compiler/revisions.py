"""A window's stamp: what a compiled-document cache hit checks instead of
reading the window's rows (docs/CACHE.md).

A Phantom store at schema 5 or later keeps per-UTC-day revisions by trigger
(core/store/migration_5.py). Its stamp is, read in one transaction:
- the schema cookie and version (a migration, or a trigger dropped, is a
  change) and the presence of every revision trigger — without all of them
  the counters are not trusted;
- the revisions of the UTC days the window touches (absent days are 0, so
  the rows present say the whole map), and the store-wide element revision;
- the blind spots and replay runs that began before the window's first day
  and reach into it: the only rows the compiler reads that are dated outside
  the window's days, so they are read and hashed as they are (a few rows).

Any other database — a nocta/screenpipe file, a store below schema 5 — is
stamped by the device, inode, size, mtime and ctime (ns) of the file and
its WAL, taken before its rows are read. A file written less than
`RACY_NS` ago gets no stamp: a later write could land in the same
timestamp tick and leave the stamp unchanged. Without a stamp, the cache
falls back to the digest of the rows, as a window whose stamp changed does.

The stamp is always taken before the rows are read, never after: a write in
between makes the entry record an older state than it holds, which is a
later miss, never a stale hit.
"""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

import apsw
import orjson

from core.store.migration_5 import DAY_MS, TRIGGERS

RACY_NS = 2_000_000_000
_TRIGGER_NAMES = tuple(name for name, _ in TRIGGERS)
_HAS_TRIGGERS = (f"SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name IN "
                 f"({', '.join('?' for _ in _TRIGGER_NAMES)})")
_DAYS = "SELECT day_utc, revision FROM day_revisions WHERE day_utc BETWEEN ? AND ? ORDER BY day_utc"
_ELEMENTS = "SELECT value FROM revision_marks WHERE name = 'elements'"
_BLIND_BEFORE = ("SELECT id, start_ms, end_ms, kind, reason, monitor FROM blind_spots "
                 "WHERE start_ms < ? AND coalesce(end_ms, ?) > ? ORDER BY id")
_RUNS_BEFORE = ("SELECT id, started_ms, finished_ms FROM replay_runs "
                "WHERE started_ms < ? AND coalesce(finished_ms, ?) > ? ORDER BY id")


def stamp(connection: apsw.Connection, kind: str, path: str | os.PathLike[str], since_ms: int,
          until_ms: int) -> str | None:
    """The window's stamp (see the module docstring), or None when there is
    none to trust."""
    if kind == "phantom" and 0 <= since_ms < until_ms:
        revised = revision_stamp(connection, since_ms, until_ms)
        if revised is not None:
            return revised
    return file_stamp(path)


def revision_stamp(connection: apsw.Connection, since_ms: int, until_ms: int) -> str | None:
    """The revisions of the window's days (None below schema 5 or with a
    revision trigger missing)."""
    first, last = since_ms // DAY_MS, (until_ms - 1) // DAY_MS
    connection.execute("BEGIN")
    try:
        version = int(connection.pragma("user_version"))
        if version < 5 or connection.execute(_HAS_TRIGGERS, _TRIGGER_NAMES).get != len(_TRIGGER_NAMES):
            return None
        cookie = int(connection.pragma("schema_version"))
        days = connection.execute(_DAYS, (first, last)).fetchall()
        elements = connection.execute(_ELEMENTS).get
        edge = (first * DAY_MS, until_ms, since_ms)
        blind = connection.execute(_BLIND_BEFORE, edge).fetchall()
        runs = connection.execute(_RUNS_BEFORE, edge).fetchall()
    finally:
        connection.execute("COMMIT")
    payload = orjson.dumps([version, cookie, first, last, days, elements, blind, runs])
    return "rev:" + hashlib.sha256(payload).hexdigest()


def file_stamp(path: str | os.PathLike[str], now_ns: int | None = None) -> str | None:
    """The file and its WAL as stat sees them; None when one cannot be
    stat'ed or was written within RACY_NS of `now_ns` (the wall clock)."""
    now = time.time_ns() if now_ns is None else now_ns
    parts = []
    for name in (Path(path), Path(f"{path}-wal")):
        try:
            info = os.stat(name)
        except FileNotFoundError:
            parts.append("-")
            continue
        except OSError:
            return None
        if now - info.st_mtime_ns < RACY_NS:
            return None
        parts.append(f"{info.st_dev}:{info.st_ino}:{info.st_size}:{info.st_mtime_ns}:{info.st_ctime_ns}")
    return "file:" + "|".join(parts)
