"""Reading a window of Phantom's own store into compiler records, in one
read transaction so a daemon writing at the same time cannot tear it.

The rows are hashed as they come out of SQLite (one orjson call per table),
which is the provenance digest, and the click/field elements are fetched in
one IN query rather than joined row by row. URLs pass through
`core.urls.sanitize_url` on the way in, as capture stores them now."""

from __future__ import annotations

import hashlib
from typing import Any, NamedTuple

import apsw
import orjson

from core.store.connection import has_table
from core.urls import sanitize_url

from ..records import BlindSpot, Capture, Element, InputEvent, ReplayRun, Snapshot

_SNAPSHOTS = ("SELECT id, ts_ms, utc_offset_min, tz_name, monitor, trigger, app, title, url, idle, "
              "focused FROM snapshots WHERE ts_ms >= ? AND ts_ms < ? ORDER BY ts_ms, id")
_INPUTS = ("SELECT id, ts_ms, end_ms, monitor, kind, count, key, x, y, resolution, element_id, "
           "recording_id, text, crop FROM input_events "
           "WHERE ts_ms >= ? AND ts_ms < ? ORDER BY ts_ms, id")
# Store v3 input rows also name the snapshot of the window that received them.
_INPUTS_V3 = ("SELECT id, ts_ms, end_ms, monitor, kind, count, key, x, y, resolution, element_id, "
              "recording_id, text, crop, snapshot_id, field_chars FROM input_events "
              "WHERE ts_ms >= ? AND ts_ms < ? ORDER BY ts_ms, id")
_ELEMENTS = ("SELECT id, role, name, labelled_by, path FROM elements WHERE id IN "
             "(SELECT element_id FROM input_events WHERE ts_ms >= ? AND ts_ms < ? "
             "AND element_id IS NOT NULL) ORDER BY id")
_BLIND = ("SELECT id, start_ms, end_ms, kind, reason, monitor FROM blind_spots "
          "WHERE start_ms < ? AND coalesce(end_ms, ?) > ? ORDER BY start_ms, id")
_RUNS = ("SELECT id, started_ms, finished_ms FROM replay_runs "
         "WHERE started_ms < ? AND coalesce(finished_ms, ?) > ? ORDER BY started_ms, id")


def zone_near(connection: apsw.Connection, ts_ms: int) -> str | None:
    """The zone recorded nearest an instant: a rolled-up day's own zone when
    the instant is in one (its snapshots may be gone), else the nearest
    snapshot's."""
    if has_table(connection, "rollup_days"):
        row = connection.execute("SELECT zone FROM rollup_days WHERE since_ms <= ? AND until_ms > ? "
                                 "ORDER BY since_ms DESC LIMIT 1", (ts_ms, ts_ms)).fetchone()
        if row is not None:
            return str(row[0])
    row = connection.execute(
        "SELECT tz_name FROM snapshots WHERE ts_ms >= ? ORDER BY ts_ms LIMIT 1", (ts_ms,)).fetchone()
    if row is None:
        row = connection.execute(
            "SELECT tz_name FROM snapshots WHERE ts_ms < ? ORDER BY ts_ms DESC LIMIT 1",
            (ts_ms,)).fetchone()
    return row[0] if row else None


def span(connection: apsw.Connection) -> tuple[int | None, int | None]:
    """First and last instant of any snapshot or input row, or of a day
    retention rolled up (its raw rows are gone, its roll-up answers)."""
    rolled = (" UNION ALL SELECT min(since_ms), max(until_ms) - 1 FROM rollup_days"
              if has_table(connection, "rollup_days") else "")
    # max(end_ms) has no index: an input row ends at most a day after the
    # last one starts (bursts are seconds), so only that last day is read.
    row = connection.execute(
        "SELECT min(a), max(b) FROM (SELECT min(ts_ms) AS a, max(ts_ms) AS b FROM snapshots "
        "UNION ALL SELECT min(ts_ms), NULL FROM input_events UNION ALL SELECT NULL, max(end_ms) "
        "FROM input_events WHERE ts_ms >= (SELECT max(ts_ms) FROM input_events) - 86400000"
        + rolled + ")").fetchone()
    assert row is not None  # an aggregate query always returns one row
    return row[0], row[1]


class Rows(NamedTuple):
    """A window's rows as SQLite returned them, and their sha256."""

    since_ms: int
    until_ms: int
    version: int
    snapshots: list[tuple[Any, ...]]
    inputs: list[tuple[Any, ...]]
    elements: list[tuple[Any, ...]]
    blind_spots: list[tuple[Any, ...]]
    runs: list[tuple[Any, ...]]
    digest: str


def read(connection: apsw.Connection, since_ms: int, until_ms: int) -> Capture:
    return capture(fetch(connection, since_ms, until_ms))


def fetch(connection: apsw.Connection, since_ms: int, until_ms: int) -> Rows:
    window = (since_ms, until_ms)
    connection.execute("BEGIN")
    try:
        version = int(connection.pragma("user_version"))
        snapshot_rows = connection.execute(_SNAPSHOTS, window).fetchall()
        input_rows = connection.execute(_INPUTS_V3 if version >= 3 else _INPUTS, window).fetchall()
        element_rows = connection.execute(_ELEMENTS, window).fetchall()
        blind_rows = connection.execute(_BLIND, (until_ms, until_ms, since_ms)).fetchall()
        run_rows = (connection.execute(_RUNS, (until_ms, until_ms, since_ms)).fetchall()
                    if has_table(connection, "replay_runs") else [])
    finally:
        connection.execute("COMMIT")
    digest = hashlib.sha256()
    for rows in (snapshot_rows, input_rows, element_rows, blind_rows, run_rows):
        digest.update(orjson.dumps(rows))
    return Rows(since_ms, until_ms, version, snapshot_rows, input_rows, element_rows, blind_rows,
                run_rows, digest.hexdigest())


def capture(rows: Rows) -> Capture:
    """The compiler's records made from fetched rows."""
    elements = {row[0]: Element._make(row) for row in rows.elements}
    make_snapshot = Snapshot._make
    # A store written before capture sanitised URLs may hold tokens in them:
    # they go here, before any pass sees a URL.
    snapshots = tuple(make_snapshot(r[:8] + (sanitize_url(r[8]), bool(r[9]), bool(r[10])))
                      for r in rows.snapshots)
    inputs = tuple(InputEvent(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9],
                              elements.get(r[10]), r[11], r[12], r[13], *(r[14:16] if rows.version >= 3 else ()))
                   for r in rows.inputs)
    return Capture("phantom", rows.version, rows.since_ms, rows.until_ms, snapshots, inputs,
                   tuple(BlindSpot._make(r) for r in rows.blind_spots),
                   tuple(ReplayRun(*r) for r in rows.runs), rows.digest)

