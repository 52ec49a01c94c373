"""Is the store sound? SQLite's `quick_check` (every page and record
format, without cross-checking indexes against tables) — run when the
capture daemon starts and by `phantom doctor`, never on every read: it costs
about 150 ms on three days of capture. Readers meet damage as a
`StoreDamaged` error when a query touches it."""

from __future__ import annotations

import os
from pathlib import Path

import apsw

from .connection import open_sqlite_readonly

# quick_check stops after this many problems; a handful says enough.
MAX_PROBLEMS = 5


def quick_check(path: str | os.PathLike[str]) -> list[str]:
    """The problems SQLite finds in the file (empty when it is sound). Raises
    StoreError when the file cannot be opened at all."""
    connection = open_sqlite_readonly(Path(path))
    try:
        rows = [row[0] for row in connection.execute(f"PRAGMA quick_check({MAX_PROBLEMS})")]
    except apsw.Error as exc:   # damage bad enough to stop the check itself
        return [" ".join(f"{exc.__class__.__name__}: {exc}".split())]
    finally:
        connection.close()
    return [] if rows == ["ok"] else [" ".join(str(row).split()) for row in rows]
