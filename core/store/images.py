"""Images the store holds, read for showing (the web view's thumbnails):
never written here. An image of a forgotten window is gone from the store,
so it cannot be shown; the web view forbids the browser to cache one."""

from __future__ import annotations

import os

from .connection import open_readonly

__all__ = ["first_thumbnail", "read_image", "screenshots_between"]


def first_thumbnail(db: str | os.PathLike[str], first_snapshot: int, last_snapshot: int) -> str | None:
    """The sha256 of the first screenshot among these snapshot ids, or None."""
    connection = open_readonly(db)
    try:
        row = connection.execute(
            "SELECT screenshot FROM snapshots WHERE id BETWEEN ? AND ? AND screenshot IS NOT NULL "
            "ORDER BY id LIMIT 1", (first_snapshot, last_snapshot)).fetchone()
    finally:
        connection.close()
    return str(row[0]) if row else None


def read_image(db: str | os.PathLike[str], sha256: str) -> tuple[str, bytes] | None:
    """(media type, bytes) of the image with this digest, or None."""
    if len(sha256) != 64 or not all(c in "0123456789abcdef" for c in sha256):
        return None
    connection = open_readonly(db)
    try:
        row = connection.execute("SELECT media_type, data FROM blobs WHERE sha256 = ?", (sha256,)).fetchone()
    finally:
        connection.close()
    return (str(row[0]), bytes(row[1])) if row else None


def screenshots_between(db: str | os.PathLike[str], since_ms: int, until_ms: int) -> dict[int, str]:
    """Snapshot id → screenshot sha256 for every snapshot in [since, until)
    that has one: one query for a whole day's frames."""
    connection = open_readonly(db)
    try:
        rows = connection.execute(
            "SELECT id, screenshot FROM snapshots WHERE ts_ms >= ? AND ts_ms < ? AND screenshot IS NOT NULL",
            (since_ms, until_ms)).fetchall()
    finally:
        connection.close()
    return {row[0]: row[1] for row in rows if isinstance(row[0], int) and isinstance(row[1], str)}
