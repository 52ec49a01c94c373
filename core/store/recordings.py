"""Reading the recordings table: the demonstrations a person recorded."""

from __future__ import annotations

from pathlib import Path

from cli.errors import CliError


def recording_windows(db: Path, name: str) -> list[tuple[int, int]]:
    """[start, end] of each finished demonstration named `name`."""
    rows = read_rows(db, "SELECT start_ms, end_ms FROM recordings WHERE name = ? ORDER BY start_ms, id",
                 (name,))
    if not rows:
        raise CliError(f"phantom forget: no demonstration named {name!r}; "
                       "`phantom programs` and `phantom export` show what is stored")
    if any(end is None for _, end in rows):
        raise CliError(f"phantom forget: {name!r} is being recorded now; `phantom record discard` "
                       "discards it")
    return [(start, end + 1) for start, end in rows]


def read_rows(db: Path, sql: str, params=()) -> list[tuple]:
    from core.store import StoreError, open_readonly

    try:
        connection = open_readonly(db)
    except StoreError as exc:
        raise CliError(str(exc)) from None
    try:
        return connection.execute(sql, params).fetchall()
    finally:
        connection.close()


def _last_recording(db: Path) -> tuple | None:
    rows = read_rows(db, "SELECT id, name, start_ms, end_ms FROM recordings WHERE end_ms IS NOT NULL "
                     "ORDER BY start_ms DESC, id DESC LIMIT 1")
    return rows[0] if rows else None


def _span(db: Path, recording_id: int) -> tuple[int, int]:
    rows = read_rows(db, "SELECT start_ms, end_ms FROM recordings WHERE id = ?", (recording_id,))
    if not rows or rows[0][1] is None:
        raise CliError(f"phantom record discard: recording #{recording_id} is not in {db}")
    return rows[0]
