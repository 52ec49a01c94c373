"""Migration 5's SQL: per-UTC-day revisions of the rows the compiler reads,
kept by SQLite itself, so that a compiled-document cache hit can prove a
window unchanged by reading a handful of counters instead of every row
(compiler/revisions.py, docs/CACHE.md). Like every migration, never edited
once it has shipped.

`day_revisions` holds one counter per UTC day (`ts_ms // 86400000`): every
insert, delete, or update of a column the compiler reads, in `snapshots`,
`input_events` (dated by `ts_ms`), `blind_spots` (by `start_ms`) and
`replay_runs` (by `started_ms`), adds one to the day of the row before and
after the change. Triggers, not the writer, keep them: every writer —
the daemon, `phantom import`, forget, retention, repair, the replay
telemetry, a `sqlite3` shell — bumps them without knowing they exist, in the
same transaction as its change. An INSERT OR REPLACE deletes the old row
without firing delete triggers, so the insert trigger (a BEFORE one) also
bumps the day of a row about to be replaced.

Elements carry no time: the compiler reads them by the id an input row
names, so their changes count in `revision_marks` under `elements`, a
revision every window includes. A new element bumps nothing (the input row
naming it is written after it and bumps its own day) — unless its id was
held by an element deleted before (SQLite hands out the largest id again
once it is gone, and so does the writer's allocator), which
`elements_deleted_max` tells.

Why no backfill, and why capture starts at once: a day absent from the
table is revision 0, and a cache entry records the revisions it was
compiled under (absent days as 0). Rows already in the store when this
migration runs are therefore simply "revision 0 of their day" — any change
from now on makes the day non-zero, so an entry made before cannot match.
The migration writes two empty tables and the triggers: O(1) on a store of
any size (milliseconds on months of data; nothing to resume, nothing to
show progress for), inside the daemon's normal start-up transaction.
Entries made by a cache that did not know revisions were keyed differently
(compiler/cache.py's format number) and are never taken for revision ones.
"""

from __future__ import annotations

DAY_MS = 86_400_000

# The columns of each dated table that the compiler reads (a test holds the
# compiler's queries to these lists): an update of any other column — a
# screenshot or a tree pruned by retention — leaves the day's revision alone.
WATCHED: dict[str, tuple[str, tuple[str, ...]]] = {
    "snapshots": ("ts_ms", ("id", "ts_ms", "utc_offset_min", "tz_name", "monitor", "trigger", "app",
                            "title", "url", "idle", "focused")),
    "input_events": ("ts_ms", ("id", "ts_ms", "end_ms", "monitor", "kind", "count", "key", "x", "y",
                               "resolution", "element_id", "recording_id", "text", "crop",
                               "snapshot_id", "field_chars")),
    "blind_spots": ("start_ms", ("id", "start_ms", "end_ms", "kind", "reason", "monitor")),
    "replay_runs": ("started_ms", ("id", "started_ms", "finished_ms")),
}
ELEMENT_COLUMNS = ("id", "role", "name", "labelled_by", "path")

_TABLES = """
-- One counter per UTC day of capture rows; an absent day is revision 0.
CREATE TABLE day_revisions (
    day_utc  INTEGER PRIMARY KEY,
    revision INTEGER NOT NULL
);
-- Store-wide counters that no day owns: 'elements' (changes to element
-- rows) and 'elements_deleted_max' (the largest element id ever deleted).
CREATE TABLE revision_marks (
    name  TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) WITHOUT ROWID;
"""


def _bump_day(day: str) -> str:
    return (f"INSERT INTO day_revisions(day_utc, revision) VALUES ({day}, 1) "
            "ON CONFLICT(day_utc) DO UPDATE SET revision = revision + 1;")


_BUMP_ELEMENTS = ("INSERT INTO revision_marks(name, value) VALUES ('elements', 1) "
                  "ON CONFLICT(name) DO UPDATE SET value = value + 1;")


def _dated_triggers(table: str, column: str, columns: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Three per table. The insert's is a BEFORE trigger so that one
    trigger also bumps the day of a row an INSERT OR REPLACE is about to
    replace (found by id; none for a new row)."""
    day_new, day_old = f"NEW.{column} / {DAY_MS}", f"OLD.{column} / {DAY_MS}"
    replaced = (f"INSERT INTO day_revisions(day_utc, revision) SELECT {column} / {DAY_MS}, 1 FROM "
                f"{table} WHERE id = NEW.id ON CONFLICT(day_utc) DO UPDATE SET revision = revision + 1;")
    return (
        (f"{table}_revision_insert", f"BEFORE INSERT ON {table} BEGIN {replaced} {_bump_day(day_new)} END"),
        (f"{table}_revision_update", f"AFTER UPDATE OF {', '.join(columns)} ON {table} BEGIN "
                                     f"{_bump_day(day_old)} {_bump_day(day_new)} END"),
        (f"{table}_revision_delete", f"AFTER DELETE ON {table} BEGIN {_bump_day(day_old)} END"),
    )


_ELEMENT_TRIGGERS = (
    # An id handed out again after a delete, or a row about to be replaced.
    ("elements_revision_insert", "BEFORE INSERT ON elements WHEN NEW.id <= coalesce((SELECT value "
                                 "FROM revision_marks WHERE name = 'elements_deleted_max'), 0) "
                                 "OR EXISTS (SELECT 1 FROM elements WHERE id = NEW.id) "
                                 f"BEGIN {_BUMP_ELEMENTS} END"),
    ("elements_revision_update", f"AFTER UPDATE OF {', '.join(ELEMENT_COLUMNS)} ON elements "
                                 f"BEGIN {_BUMP_ELEMENTS} END"),
    ("elements_revision_delete", f"AFTER DELETE ON elements BEGIN {_BUMP_ELEMENTS} "
                                 "INSERT INTO revision_marks(name, value) VALUES "
                                 "('elements_deleted_max', OLD.id) ON CONFLICT(name) DO UPDATE "
                                 "SET value = max(value, excluded.value); END"),
)

TRIGGERS: tuple[tuple[str, str], ...] = tuple(
    trigger for table, (column, columns) in WATCHED.items()
    for trigger in _dated_triggers(table, column, columns)) + _ELEMENT_TRIGGERS
"""(name, body) of every trigger migration 5 creates: a reader trusts the
revisions only while all of them are in the schema."""

V5_SQL = _TABLES + "".join(f"CREATE TRIGGER {name} {body};\n" for name, body in TRIGGERS)
