"""A few facts about a store for `phantom status` when no daemon answers:
counts, first and last snapshot, open blind spots, size on disk."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import apsw


def format_size(n: int) -> str:
    """Bytes in binary units, as `status` and `doctor` both print them."""
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{int(size)} B" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"


def store_size_bytes(path: Path) -> int:
    return sum(os.path.getsize(f"{path}{suffix}") for suffix in ("", "-wal", "-shm")
               if os.path.exists(f"{path}{suffix}"))


def store_summary(connection: apsw.Connection, path: Path) -> dict[str, Any]:
    def scalar(sql: str) -> Any:
        return connection.execute(sql).get

    first, last = connection.execute("SELECT min(ts_ms), max(ts_ms) FROM snapshots").fetchone() or (None, None)
    last_app = connection.execute(
        "SELECT app FROM snapshots ORDER BY ts_ms DESC, id DESC LIMIT 1").fetchone()
    open_spots = [row[0] for row in connection.execute(
        "SELECT DISTINCT kind FROM blind_spots WHERE end_ms IS NULL ORDER BY kind")]
    return {
        "db": str(path),
        "db_bytes": store_size_bytes(path),
        "schema_version": int(connection.pragma("user_version")),
        "snapshots": scalar("SELECT count(*) FROM snapshots"),
        "input_events": scalar("SELECT count(*) FROM input_events"),
        "elements": scalar("SELECT count(*) FROM elements"),
        "blobs": scalar("SELECT count(*) FROM blobs"),
        "first_snapshot_ms": first,
        "last_snapshot_ms": last,
        "last_app": last_app[0] if last_app else None,
        "open_blind_spots": open_spots,
    }
