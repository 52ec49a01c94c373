"""Who still points at an element or an image: the references retention
checks before it removes a day's rows, gathered once per run.

A day's removal keeps an element an input row outside the day still names,
and an image a snapshot or an input row outside the day still shows. The
store has no index on `input_events.element_id`, `input_events.crop` or
`snapshots.screenshot` (capture would pay for them on every write), so
asking "does any other row name it?" read every snapshot and input row of
the store — once per day planned, so a plan over N days of an N-day store
cost N² rows. Here the references are read once, into indexed temporary
tables, and each day's plan looks its candidates up there: a day costs its
own rows, the run one pass over the store.

Kept current without re-reading the store: only inserts add a reference
(nothing updates a snapshot's screenshot or an input's element or crop to
a new value; retention and forget only clear or delete), and every insert,
delete and crop change bumps its row's UTC day in `day_revisions`
(migration 5's triggers, whoever writes). `refresh` re-reads the days whose
revision moved since the last look — another writer's new rows, or this
run's own removals — by the time index. A store without the revision table
is re-read whole. Click evidence needs none of this: it has its own index
by blob and by input.
"""

from __future__ import annotations

import apsw

from .connection import has_table
from .migration_5 import DAY_MS

TABLES = ("ret_ref_blobs", "ret_ref_elements", "ret_ref_days")

# kind 's': a snapshot's screenshot (row = snapshot id); 'i': an input row's
# crop (row = input id). Elements: the input row naming them.
_BLOBS = ("INSERT INTO temp.ret_ref_blobs(sha256, kind, row_id, day) "
          "SELECT screenshot, 's', id, ts_ms / {day} FROM snapshots WHERE screenshot IS NOT NULL {where} "
          "UNION ALL SELECT crop, 'i', id, ts_ms / {day} FROM input_events WHERE crop IS NOT NULL {where}")
_ELEMENTS = ("INSERT INTO temp.ret_ref_elements(element_id, input_id, day) "
             "SELECT element_id, id, ts_ms / {day} FROM input_events WHERE element_id IS NOT NULL {where}")


def build(connection: apsw.Connection) -> None:
    """Gather every reference the store holds (one pass) and the day
    revisions they were read under."""
    for name in TABLES:
        connection.execute(f"DROP TABLE IF EXISTS temp.{name}")
    connection.execute("CREATE TEMP TABLE ret_ref_blobs (sha256 TEXT NOT NULL, kind TEXT NOT NULL, "
                       "row_id INTEGER NOT NULL, day INTEGER NOT NULL)")
    connection.execute("CREATE TEMP TABLE ret_ref_elements (element_id INTEGER NOT NULL, "
                       "input_id INTEGER NOT NULL, day INTEGER NOT NULL)")
    connection.execute("CREATE TEMP TABLE ret_ref_days (day_utc INTEGER PRIMARY KEY, revision INTEGER)")
    with connection:   # the rows and the revisions they were read under, from one snapshot
        _read(connection, "")
        _note_revisions(connection)
    connection.execute("CREATE INDEX temp.ret_ref_blobs_by_sha ON ret_ref_blobs(sha256)")
    connection.execute("CREATE INDEX temp.ret_ref_blobs_by_day ON ret_ref_blobs(day)")
    connection.execute("CREATE INDEX temp.ret_ref_elements_by_id ON ret_ref_elements(element_id)")
    connection.execute("CREATE INDEX temp.ret_ref_elements_by_day ON ret_ref_elements(day)")


def is_built(connection: apsw.Connection) -> bool:
    return connection.execute("SELECT 1 FROM temp.sqlite_master WHERE name = 'ret_ref_days'").get \
        is not None


def refresh(connection: apsw.Connection) -> int:
    """Re-read the references of the days whose revision moved since the
    last look; the number of days re-read (-1: the whole store)."""
    if not has_table(connection, "day_revisions"):
        for name in ("ret_ref_blobs", "ret_ref_elements"):
            connection.execute(f"DELETE FROM temp.{name}")
        _read(connection, "")
        return -1
    moved = [day for (day,) in connection.execute(
        "SELECT d.day_utc FROM main.day_revisions d LEFT JOIN temp.ret_ref_days r "
        "ON r.day_utc = d.day_utc WHERE r.revision IS NOT d.revision")]
    for day in moved:
        bounds = f"AND ts_ms >= {day * DAY_MS} AND ts_ms < {(day + 1) * DAY_MS}"
        connection.execute("DELETE FROM temp.ret_ref_blobs WHERE day = ?", (day,))
        connection.execute("DELETE FROM temp.ret_ref_elements WHERE day = ?", (day,))
        _read(connection, bounds)
    if moved:
        _note_revisions(connection)
    return len(moved)


def drop(connection: apsw.Connection) -> None:
    for name in TABLES:
        connection.execute(f"DROP TABLE IF EXISTS temp.{name}")


def _read(connection: apsw.Connection, where: str) -> None:
    connection.execute(_BLOBS.format(day=DAY_MS, where=where))
    connection.execute(_ELEMENTS.format(day=DAY_MS, where=where))


def _note_revisions(connection: apsw.Connection) -> None:
    connection.execute("DELETE FROM temp.ret_ref_days")
    if has_table(connection, "day_revisions"):
        connection.execute("INSERT INTO temp.ret_ref_days SELECT day_utc, revision FROM main.day_revisions")
