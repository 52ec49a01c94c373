"""Damaging a store on purpose: one leaf page of a table overwritten with
noise, as a bad sector or a stray write would leave it."""

from __future__ import annotations

import os
from pathlib import Path

import apsw


def leaf_pages(db: Path, table: str) -> list[int]:
    """The table's leaf pages (1-based page numbers), in key order."""
    connection = apsw.Connection(str(db))
    try:
        connection.pragma("wal_checkpoint", "TRUNCATE")
        return [row[0] for row in connection.execute(
            "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY path", (table,))]
    finally:
        connection.close()


def damage_page(db: Path, page: int) -> None:
    """Overwrite one page (after the WAL was folded in) with noise."""
    size = apsw.Connection(str(db)).pragma("page_size")
    with open(db, "r+b") as handle:
        handle.seek((page - 1) * size)
        handle.write(os.urandom(size))
