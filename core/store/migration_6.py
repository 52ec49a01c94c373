"""Migration 6: images kept in a rowid table, so a crop's bytes sit in the
table's own pages instead of a chain of overflow pages. Like every
migration, never edited once it has shipped.

Why: `blobs` was a WITHOUT ROWID table keyed by the sha256. Such a table is
an index b-tree, whose cells hold at most about 1,000 bytes on a 4 KiB page;
every larger image kept 489 bytes in the cell and put the rest in overflow
pages of its own — a 2.3 KB crop took a whole 4 KiB page for its 1.8 KB of
tail. A rowid table holds up to 4,061 bytes in a cell and fills its pages in
insertion (time) order; the sha256 stays the primary key (an index beside
the rows), so every reader, every `INSERT OR IGNORE`, and the foreign keys
of snapshots, input events and click evidence see the same table, the same
columns and the same rows. Measured on a scripted session's crops: 246 KB of
pages in the old table, 172 KB in the new one (docs/BENCHMARKS.md).

Cheap on any store: a store holding at most `REBUILD_AT_MOST` images (a new
store, or one of a few hours) is rebuilt inside the migration's own
transaction — a copy of a few megabytes. A larger store keeps its table as
it is (every reader and writer works on either layout); moving months of
images is left to a resumable step not built yet, so that a migration never
keeps capture from starting. `layout` says which one a store has.
"""

from __future__ import annotations

import apsw

# A store with more images than this keeps its WITHOUT ROWID table: at a
# few KB each, copying them (twice: aside and back) stays within a
# start-up's budget.
REBUILD_AT_MOST = 2_000

_COLUMNS = "sha256, kind, media_type, width, height, data, created_ms"

_ROWID_BLOBS = """
CREATE TABLE blobs (
    sha256     TEXT NOT NULL PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('thumbnail', 'click_crop')),
    media_type TEXT NOT NULL,
    width      INTEGER NOT NULL,
    height     INTEGER NOT NULL,
    data       BLOB NOT NULL,
    created_ms INTEGER NOT NULL
);
"""


def layout(connection: apsw.Connection) -> str:
    """'rowid' once the images live in a rowid table, else 'without_rowid'."""
    sql = connection.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'blobs'").get
    return "without_rowid" if isinstance(sql, str) and "WITHOUT ROWID" in sql.upper() else "rowid"


def apply(connection: apsw.Connection) -> None:
    """Rebuild `blobs` as a rowid table when it is small; inside the
    caller's transaction.

    The rows are set aside in a plain table, `blobs` is dropped and made
    again, and the rows come back in time order (filling the pages as
    capture would have). Renaming the old table instead would rewrite the
    foreign keys that name `blobs` to follow it (foreign keys are on, and
    cannot be turned off inside a transaction); with the checks deferred to
    the commit, the drop leaves snapshots, input events and click evidence
    naming missing images for a moment, and the rows coming back under the
    same name answer every one of them before the commit checks."""
    if layout(connection) == "rowid":
        return
    held = connection.execute("SELECT count(*) FROM (SELECT 1 FROM blobs LIMIT ?)",
                              (REBUILD_AT_MOST + 1,)).get
    if int(held) > REBUILD_AT_MOST:
        return
    connection.pragma("defer_foreign_keys", 1)   # back to off at the commit
    connection.execute(f"CREATE TABLE blobs_moving AS SELECT {_COLUMNS} FROM blobs")
    connection.execute("DROP TABLE blobs")
    connection.execute(_ROWID_BLOBS)
    connection.execute(f"INSERT INTO blobs({_COLUMNS}) SELECT {_COLUMNS} FROM blobs_moving "
                       "ORDER BY created_ms, sha256")
    connection.execute("DROP TABLE blobs_moving")
