"""What the store holds about a window, row by row, for the person's own
audit (`phantom export`): every table's rows in the window as plain dicts,
in a fixed order. Nothing is added and nothing interpreted; what was never
stored (typed text outside a recording, a password, a URL's tokens) cannot
appear. A URL in a row written before capture sanitised URLs leaves only as
capture would store it now.

Images are described (kind, size, sha256); their bytes come only when asked
for, base64-encoded.
"""

from __future__ import annotations

import base64
from collections.abc import Generator
from typing import Any

import apsw

from ..urls import sanitize_url

_OVERLAP = "start_ms < :until AND coalesce(end_ms, 9223372036854775807) > :since"
# The blobs a click's visual evidence names, in stores that keep it.
_CLICK_CROPS = ("OR sha256 IN (SELECT blob FROM click_evidence WHERE input_id IN (SELECT id FROM "
                "input_events WHERE ts_ms >= :since AND ts_ms < :until)) ")
_TABLES: tuple[tuple[str, str], ...] = (
    ("recordings", f"SELECT * FROM recordings WHERE {_OVERLAP} ORDER BY start_ms, id"),
    ("blind_spots", f"SELECT * FROM blind_spots WHERE {_OVERLAP} ORDER BY start_ms, id"),
    ("snapshots", "SELECT * FROM snapshots WHERE ts_ms >= :since AND ts_ms < :until ORDER BY ts_ms, id"),
    ("a11y_trees", "SELECT * FROM a11y_trees WHERE ts_ms >= :since AND ts_ms < :until ORDER BY id"),
    ("elements", "SELECT * FROM elements WHERE tree_id IN (SELECT id FROM a11y_trees WHERE ts_ms >= "
                 ":since AND ts_ms < :until) OR id IN (SELECT element_id FROM input_events WHERE "
                 "ts_ms >= :since AND ts_ms < :until) ORDER BY id"),
    ("input_events", "SELECT * FROM input_events WHERE ts_ms >= :since AND ts_ms < :until "
                     "ORDER BY ts_ms, id"),
    ("click_evidence", "SELECT * FROM click_evidence WHERE input_id IN (SELECT id FROM input_events "
                       "WHERE ts_ms >= :since AND ts_ms < :until) ORDER BY input_id, width, kind"),
    ("blobs", "SELECT sha256, kind, media_type, width, height, data, created_ms FROM blobs WHERE "
              "sha256 IN (SELECT screenshot FROM snapshots WHERE ts_ms >= :since AND ts_ms < :until) "
              "OR sha256 IN (SELECT crop FROM input_events WHERE ts_ms >= :since AND ts_ms < :until) "
              "{click_crops}ORDER BY created_ms, sha256"),
    ("replay_runs", "SELECT * FROM replay_runs WHERE started_ms >= :since AND started_ms < :until "
                    "ORDER BY started_ms, id"),
    ("replay_steps", "SELECT * FROM replay_steps WHERE run_id IN (SELECT id FROM replay_runs WHERE "
                     "started_ms >= :since AND started_ms < :until) ORDER BY run_id, step_index, id"),
    ("programs", "SELECT * FROM programs WHERE created_ms >= :since AND created_ms < :until "
                 "ORDER BY created_ms, id"),
)


def export_rows(connection: apsw.Connection, since_ms: int, until_ms: int, *,
                images: bool = False) -> Generator[dict[str, Any], None, None]:
    """Each row of the window as {"table": name, column: value, …}, in one
    read transaction (a daemon writing meanwhile cannot tear it)."""
    present = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    window = {"since": since_ms, "until": until_ms}
    connection.execute("BEGIN")
    try:
        for table, select in _TABLES:
            if table not in present:
                continue
            if table == "blobs":
                select = select.format(click_crops=_CLICK_CROPS if "click_evidence" in present else "")
            cursor = connection.execute(select, window)
            names = None
            for values in cursor:
                names = names or [column[0] for column in cursor.get_description()]
                yield _shown(table, dict(zip(names, values)), images)
    finally:
        connection.execute("COMMIT")


def _shown(table: str, row: dict[str, Any], images: bool) -> dict[str, Any]:
    if table == "snapshots":
        row["url"] = sanitize_url(row["url"])
    if table == "blobs":
        data = row.pop("data")
        row["bytes"] = len(data)
        if images:
            row["data_base64"] = base64.b64encode(data).decode("ascii")
    return {"table": table, **row}
