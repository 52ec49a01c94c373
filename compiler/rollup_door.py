"""The compiler's door for retention and `phantom doctor`: a day compiled
for the roll-up table, and the roll-ups that no longer decode. Reached
through `compiler.api` (its lazy names), which it builds on."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from .api import CompileError, _capture, _fetch_window
from .collector import collector_paused
from .window import Window

if TYPE_CHECKING:
    from .rolled import UnreadableRollup

__all__ = ["RollUp", "roll_up", "unreadable_rollups"]


class RollUp(NamedTuple):
    """One day compiled for retention's roll-up (see rollup.py)."""

    window: Window
    document: bytes
    actions: bytes
    input_digest: str
    format: int


def unreadable_rollups(db_path: str | Path) -> tuple[UnreadableRollup, ...]:
    """The store's roll-ups that do not decode (read-only; rolled.py)."""
    from core.store.connection import open_readonly

    from .rolled import unreadable_rollups as find

    connection = open_readonly(db_path)
    try:
        return find(connection)
    finally:
        connection.close()


def roll_up(db_path: str | Path, day: str) -> RollUp:
    """Compile a day afresh — exactly as `compile --day` does, inferred tier
    included — and take its action stream, encoded for the roll-up table.
    A `CompileError` for a day already rolled up (its raw rows are gone)."""
    from .frames import CompileOptions, compile_capture
    from .rollup import FORMAT, encode_actions, encode_document
    from .routines import derive_actions

    with collector_paused():
        fetched, window, days = _fetch_window(db_path, day, None, None, None, None, "none")
        if days:
            raise CompileError(f"{day} is rolled up already")
        capture = _capture(fetched, db_path)
        document = compile_capture(capture, CompileOptions(zone=window.zone, inferred=True))
        return RollUp(window, encode_document(document), encode_actions(derive_actions(capture)),
                      fetched.digest, FORMAT)

