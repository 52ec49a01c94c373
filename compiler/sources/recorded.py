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

from bisect import bisect_right
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

# The walks of one application's snapshots over a stretch of time, in time order.
_WALKS = ("SELECT s.ts_ms, s.tree_id, t.truncated FROM snapshots s JOIN a11y_trees t "
          "ON t.id = s.tree_id WHERE s.app = ? AND s.ts_ms >= ? AND s.ts_ms <= ? "
          "ORDER BY s.ts_ms, s.id")
_ELEMENTS = ("SELECT role, name, labelled_by, path FROM elements WHERE tree_id = ? "
             "AND role IN (SELECT value FROM json_each(?)) ORDER BY id")
_ANY_ELEMENT = "SELECT 1 FROM elements WHERE tree_id = ? LIMIT 1"
_PROGRAMS = "SELECT id, body FROM programs WHERE source = 'routine' ORDER BY id"
_RUNS = "SELECT program_id, status FROM replay_runs ORDER BY started_ms, id"


def read_trees(connection: apsw.Connection, wants: Iterable[tuple[str, int]],
               roles: Iterable[str]) -> dict[tuple[str, int], TreeRow | None]:
    """For each (app, ts_ms): the tree recorded for that app then (see the
    module docstring), or None when the capture stored none. Only elements
    of the given `roles` are read: a dry pass matches nothing else, and a
    tree holds hundreds of elements of roles no step names.

    One query per application and stretch of nearby instants (instants
    closer than TREE_MAX_AGE_MS share one), then a binary search per
    instant: a window's occurrences are many, its stretches few."""
    wanted = sorted(set(wants))
    found: dict[tuple[str, int], TreeRow | None] = {want: None for want in wanted}
    if not wanted or not has_table(connection, "a11y_trees"):
        return found
    trees: dict[int, tuple[ElementRow, ...] | None] = {}
    wanted_roles = orjson.dumps(sorted(set(roles))).decode()
    connection.execute("BEGIN")
    try:
        for app, stretch in _stretches(wanted):
            span = (app, stretch[0] - TREE_MAX_AGE_MS, stretch[-1] + TREE_AFTER_MS)
            walks: list[Any] = connection.execute(_WALKS, span).fetchall()
            times = [int(w[0]) for w in walks]
            for ts in stretch:
                at = bisect_right(times, ts) - 1          # the last walk at or before it
                if at >= 0 and times[at] >= ts - TREE_MAX_AGE_MS:
                    walk = walks[at]
                elif at + 1 < len(walks) and times[at + 1] <= ts + TREE_AFTER_MS:
                    walk = walks[at + 1]                  # else the first one just after
                else:
                    continue
                tree_id = int(walk[1])
                if tree_id not in trees:
                    trees[tree_id] = _elements(connection, tree_id, wanted_roles)
                elements = trees[tree_id]
                if elements is not None:
                    found[app, ts] = (int(walk[0]), walk[2] is not None, elements)
    finally:
        connection.execute("COMMIT")
    return found


def _elements(connection: apsw.Connection, tree_id: int, roles: str) -> tuple[ElementRow, ...] | None:
    """A walk's elements of those roles; None for a walk that stored no
    element at all (pruned, or nothing exposed): it shows nothing."""
    rows = tuple((str(r[0]), str(r[1]), None if r[2] is None else str(r[2]), str(r[3]))
                 for r in connection.execute(_ELEMENTS, (tree_id, roles)))
    if rows or connection.execute(_ANY_ELEMENT, (tree_id,)).fetchone() is not None:
        return rows
    return None


def _stretches(wanted: list[tuple[str, int]]) -> list[tuple[str, list[int]]]:
    """Sorted (app, ts) split per app where instants lie TREE_MAX_AGE_MS apart."""
    stretches: list[tuple[str, list[int]]] = []
    for app, ts in wanted:
        if stretches and stretches[-1][0] == app and ts - stretches[-1][1][-1] <= TREE_MAX_AGE_MS:
            stretches[-1][1].append(ts)
        else:
            stretches.append((app, [ts]))
    return stretches


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
