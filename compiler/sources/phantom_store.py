"""Reading a window of Phantom's own store into compiler records, in one
read transaction so a daemon writing at the same time cannot tear it."""

from __future__ import annotations

import apsw

from ..records import BlindSpot, Capture, Element, InputEvent, ReplayRun, Snapshot

_SNAPSHOTS = ("SELECT id, ts_ms, utc_offset_min, tz_name, monitor, trigger, app, title, url, idle, "
              "focused FROM snapshots WHERE ts_ms >= ? AND ts_ms < ? ORDER BY ts_ms, id")
_INPUTS = ("SELECT i.id, i.ts_ms, i.end_ms, i.monitor, i.kind, i.count, i.key, i.x, i.y, "
           "i.resolution, i.recording_id, i.text, e.id, e.role, e.name, e.labelled_by, e.path, i.crop "
           "FROM input_events i LEFT JOIN elements e ON e.id = i.element_id "
           "WHERE i.ts_ms >= ? AND i.ts_ms < ? ORDER BY i.ts_ms, i.id")
_BLIND = ("SELECT id, start_ms, end_ms, kind, reason, monitor FROM blind_spots "
          "WHERE start_ms < ? AND coalesce(end_ms, ?) > ? ORDER BY start_ms, id")
_RUNS = ("SELECT id, started_ms, finished_ms FROM replay_runs "
         "WHERE started_ms < ? AND coalesce(finished_ms, ?) > ? ORDER BY started_ms, id")


def zone_near(connection: apsw.Connection, ts_ms: int) -> str | None:
    row = connection.execute(
        "SELECT tz_name FROM snapshots WHERE ts_ms >= ? ORDER BY ts_ms LIMIT 1", (ts_ms,)).fetchone()
    if row is None:
        row = connection.execute(
            "SELECT tz_name FROM snapshots WHERE ts_ms < ? ORDER BY ts_ms DESC LIMIT 1",
            (ts_ms,)).fetchone()
    return row[0] if row else None


def span(connection: apsw.Connection) -> tuple[int | None, int | None]:
    """First and last instant of any snapshot or input row."""
    return connection.execute(
        "SELECT min(a), max(b) FROM (SELECT min(ts_ms) AS a, max(ts_ms) AS b FROM snapshots "
        "UNION ALL SELECT min(ts_ms), max(end_ms) FROM input_events)").fetchone()


def read(connection: apsw.Connection, since_ms: int, until_ms: int) -> Capture:
    connection.execute("BEGIN")
    try:
        snapshots = tuple(Snapshot(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8],
                                   bool(r[9]), bool(r[10]))
                          for r in connection.execute(_SNAPSHOTS, (since_ms, until_ms)))
        inputs = tuple(_input(r) for r in connection.execute(_INPUTS, (since_ms, until_ms)))
        blind = tuple(BlindSpot(*r) for r in connection.execute(
            _BLIND, (until_ms, until_ms, since_ms)))
        runs = ()
        if _has_table(connection, "replay_runs"):
            runs = tuple(ReplayRun(*r) for r in connection.execute(_RUNS, (until_ms, until_ms, since_ms)))
        version = int(connection.pragma("user_version"))
    finally:
        connection.execute("COMMIT")
    return Capture("phantom", version, since_ms, until_ms, snapshots, inputs, blind, runs)


def _input(r: tuple) -> InputEvent:
    element = Element(r[12], r[13], r[14], r[15], r[16]) if r[12] is not None else None
    return InputEvent(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], element, r[10],
                      r[11], r[17])


def _has_table(connection: apsw.Connection, name: str) -> bool:
    return connection.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?",
                              (name,)).fetchone() is not None
