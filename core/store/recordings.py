"""The demonstrations a person recorded (table `recordings`, written by the
capture daemon), as `phantom forget --recording` and `phantom record
discard` find them. Each function reads the store read-only, once."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from ..errors import PhantomError
from .connection import open_readonly


class Recording(NamedTuple):
    """A finished demonstration."""

    id: int
    name: str
    start_ms: int
    end_ms: int


def finished_spans(db: Path, name: str) -> list[tuple[int, int]]:
    """[start, end] of each demonstration named `name`, as a window
    [start, end + 1); an error when there is none, or when one of them is
    being recorded now."""
    rows = _rows(db, "SELECT start_ms, end_ms FROM recordings WHERE name = ? ORDER BY start_ms, id",
                 (name,))
    if not rows:
        raise PhantomError(f"no demonstration named {name!r}; "
                           "`phantom programs` and `phantom export` show what is stored")
    if any(end is None for _, end in rows):
        raise PhantomError(f"{name!r} is being recorded now; `phantom record discard` discards it",
                           code="already_recording")
    return [(start, end + 1) for start, end in rows]


def last_finished(db: Path) -> Recording | None:
    """The demonstration that finished last, if any."""
    rows = _rows(db, "SELECT id, name, start_ms, end_ms FROM recordings WHERE end_ms IS NOT NULL "
                 "ORDER BY start_ms DESC, id DESC LIMIT 1")
    return Recording(*rows[0]) if rows else None


def finished_span(db: Path, recording_id: int) -> tuple[int, int] | None:
    """(start, end) of one finished demonstration; None when it is not in
    the store or not finished."""
    rows = _rows(db, "SELECT start_ms, end_ms FROM recordings WHERE id = ?", (recording_id,))
    if not rows or rows[0][1] is None:
        return None
    return rows[0][0], rows[0][1]


def _rows(db: Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    connection = open_readonly(db)
    try:
        return connection.execute(sql, params).fetchall()
    finally:
        connection.close()
