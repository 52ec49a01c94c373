"""What the crystallization gate's evidence is read from (read-only): the
accessibility trees the capture stored around given instants, and the
outcomes of replays of programs compiled from routines
(`compiler.routines.gate.evidence` says what is done with them).

Plain rows come out — per tree its snapshot's instant, whether the walk
was cut short, and (role, name, labelled_by, path) per element; a run's
status per routine id — so the pure side owns its records.

Which tree: the latest snapshot of the application carrying a tree walk at
or before the instant, no older than TREE_MAX_AGE_MS (snapshots share a walk
until focus or the tree's children change, so that is the tree then); else
the first one at most TREE_AFTER_MS after it — a click into a window that
did not have focus yet comes before that window's snapshot.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import apsw
import orjson

from core.store.connection import has_table

__all__ = ["TREE_AFTER_MS", "TREE_MAX_AGE_MS", "read_replay_statuses", "read_trees"]

TREE_MAX_AGE_MS = 10 * 60_000
TREE_AFTER_MS = 2_000

ElementRow = tuple[str, str, str | None, str]
TreeRow = tuple[int, bool, tuple[ElementRow, ...]]   # snapshot instant, truncated, elements

_BEFORE = ("SELECT s.tree_id, s.ts_ms, t.truncated FROM snapshots s JOIN a11y_trees t "
           "ON t.id = s.tree_id WHERE s.ts_ms <= ? AND s.ts_ms >= ? AND s.app = ? "
           "ORDER BY s.ts_ms DESC, s.id DESC LIMIT 1")
_AFTER = ("SELECT s.tree_id, s.ts_ms, t.truncated FROM snapshots s JOIN a11y_trees t "
          "ON t.id = s.tree_id WHERE s.ts_ms > ? AND s.ts_ms <= ? AND s.app = ? "
          "ORDER BY s.ts_ms, s.id LIMIT 1")
_ELEMENTS = "SELECT role, name, labelled_by, path FROM elements WHERE tree_id = ? ORDER BY id"
_PROGRAMS = "SELECT id, body FROM programs WHERE source = 'routine' ORDER BY id"
_RUNS = "SELECT program_id, status FROM replay_runs ORDER BY started_ms, id"


def read_trees(connection: apsw.Connection, wants: Iterable[tuple[str, int]]
               ) -> dict[tuple[str, int], TreeRow | None]:
    """For each (app, ts_ms): the tree recorded for that app then (see the
    module docstring), or None when the capture stored none."""
    found: dict[tuple[str, int], TreeRow | None] = {}
    trees: dict[int, tuple[ElementRow, ...]] = {}
    if not has_table(connection, "a11y_trees"):
        return {want: None for want in wants}
    connection.execute("BEGIN")
    try:
        for app, ts in wants:
            row = connection.execute(_BEFORE, (ts, ts - TREE_MAX_AGE_MS, app)).fetchone()
            if row is None:
                row = connection.execute(_AFTER, (ts, ts + TREE_AFTER_MS, app)).fetchone()
            if row is None:
                found[app, ts] = None
                continue
            tree_id = int(row[0])
            elements = trees.get(tree_id)
            if elements is None:
                elements = trees[tree_id] = tuple(
                    (str(r[0]), str(r[1]), None if r[2] is None else str(r[2]), str(r[3]))
                    for r in connection.execute(_ELEMENTS, (tree_id,)))
            # a walk that stored no element (pruned, or nothing exposed) shows nothing
            found[app, ts] = (int(row[1]), row[2] is not None, elements) if elements else None
    finally:
        connection.execute("COMMIT")
    return found


def read_replay_statuses(connection: apsw.Connection, routine_ids: Sequence[str]
                         ) -> dict[str, tuple[str, ...]]:
    """Run statuses (oldest first) of programs compiled from each routine:
    a program's origin lists its traces, `routine:r-<id>#<n>` for a routine's."""
    wanted = set(routine_ids)
    if not wanted or not has_table(connection, "programs") or not has_table(connection, "replay_runs"):
        return {}
    connection.execute("BEGIN")
    try:
        routine_of: dict[str, set[str]] = {}
        for program_id, body in connection.execute(_PROGRAMS):
            for origin in _origins(body):
                if origin.startswith("routine:r-"):
                    rid = origin[len("routine:r-"):].partition("#")[0]
                    if rid in wanted:
                        routine_of.setdefault(str(program_id), set()).add(rid)
        statuses: dict[str, list[str]] = {}
        if routine_of:
            for program_id, status in connection.execute(_RUNS):
                for rid in sorted(routine_of.get(str(program_id), ())):
                    statuses.setdefault(rid, []).append(str(status))
    finally:
        connection.execute("COMMIT")
    return {rid: tuple(found) for rid, found in sorted(statuses.items())}


def _origins(body: Any) -> list[str]:
    try:
        raw = orjson.loads(body)
    except (orjson.JSONDecodeError, TypeError):
        return []
    origin = raw.get("origin", ()) if isinstance(raw, dict) else ()
    return [o for o in origin if isinstance(o, str)] if isinstance(origin, list) else []
