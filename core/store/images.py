"""Images the store holds, read for showing (the web view's thumbnails):
never written here. An image of a forgotten window is gone from the store,
so it cannot be shown; the web view forbids the browser to cache one."""

from __future__ import annotations

import os

from .connection import open_readonly

__all__ = ["first_thumbnail", "read_image"]


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
