"""Forgetting a stretch of time: every row captured in it, every copy derived
from those rows, and the freed bytes themselves.

`forget_window` removes, for the window [since, until):
- snapshots taken in it, and the accessibility walks made in it with their
  elements (a walk a later snapshot still shares goes too: that snapshot
  keeps its row, without the walk; an element a click outside the window
  hit stays, as that click saw it);
- input rows that overlap it (a burst that runs into it goes whole), with
  their clicks' visual evidence (`click_evidence`), and every recording
  that overlaps it with all its input rows — half a demonstration is worth
  nothing, and its typed text is the most private row there is; programs
  compiled from those recordings, with their runs;
- images no remaining row shows; replay runs started in it;
- blind spots inside it; those that reach into it are cut at its edges (one
  that spans it becomes two, so a paused stretch around it stays known);
- rows of derived tables (`DERIVED_ROWS`), before the rows they derive from.
It then records one `forgotten` blind spot over the window, so a compile of
it says why it is empty.

`scrub` then makes the freed bytes unrecoverable from the files: every
writing connection runs with `secure_delete` (deleted cells and freed pages
are zeroed), VACUUM rewrites the database from its live rows (no free page,
no freeblock left holding an older version of a row, such as a burst
rewritten while it grew), and a TRUNCATE checkpoint copies those pages over
the old ones and empties the WAL. Blocks the file system itself freed
earlier are beyond what a program can reach; full-disk encryption covers
those.

The capture daemon runs this on its own writer thread (`Capture1.Forget`),
so nothing it buffers escapes; without a daemon the CLI runs it directly,
holding the daemon's lock. (Issue 13 asked for forgetting whose freed pages
are really overwritten.)
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import apsw

from ..clock import zone_at
from ..errors import PhantomError
from .connection import has_table
from .errors import StoreError
from .fence import Forgotten
from .search_index import forgot

FORGOTTEN = "forgotten"
FORGOTTEN_REASON = "erased at the person's request"
CHECKPOINT_ATTEMPTS = 5


@dataclass(frozen=True, slots=True)
class DerivedRows:
    """A table holding copies derived from capture rows (a search index, a
    day's roll-up): `where` selects the rows to drop for a window, with the
    parameters :since and :until (ms), and may name the capture rows, which
    are still there when it runs. An FTS5 index must be made with
    `secure-delete=1` for its deleted tokens to leave its segments (and a
    contentless one is merged after the deletes: `search_index.forgot`)."""

    table: str
    where: str


# Derived stores register here, with the migration that creates them. They
# run after the window's rows are collected, so they may name the temporary
# tables of what goes (forget_snapshots, forget_trees, forget_inputs).
DERIVED_ROWS: tuple[DerivedRows, ...] = (
    # The search index (search_index.py), row for row.
    DerivedRows("search_snapshots", "rowid IN (SELECT id FROM forget_snapshots)"),
    DerivedRows("search_trees", "rowid IN (SELECT id FROM forget_trees)"),
    DerivedRows("search_inputs", "rowid IN (SELECT id FROM forget_inputs)"),
    # Retention's compiled days: a day touched by the window goes whole (its
    # raw rows are gone, so what is left of it cannot be compiled again).
    DerivedRows("rollup_days", "since_ms < :until AND until_ms > :since"),
)


@dataclass(frozen=True, slots=True)
class ForgetReport:
    """What a forget removed (or, planned, would remove)."""

    since_ms: int
    until_ms: int
    snapshots: int
    input_events: int
    typed_texts: int                   # input rows holding typed text (inside recordings)
    elements: int
    trees: int
    images: int
    image_bytes: int
    replay_runs: int
    blind_spots: int                   # removed or cut at the window's edges
    recordings: tuple[str, ...]        # names of the demonstrations that go
    programs: tuple[str, ...]          # "name (id)" of programs compiled from them
    derived: tuple[tuple[str, int], ...] = ()
    scrubbed: bool | None = None       # None: not attempted (a plan)
    caches: int = 0                    # cache files removed

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def nothing(self) -> bool:
        return not (self.snapshots or self.input_events or self.elements or self.trees
                    or self.images or self.replay_runs or self.blind_spots or self.recordings
                    or self.programs or any(n for _, n in self.derived))


# -- what a window holds -------------------------------------------------------------------
_RECORDINGS = ("SELECT id FROM recordings WHERE start_ms < :until "
               "AND coalesce(end_ms, 9223372036854775807) >= :since")
_INPUTS = ("SELECT id, element_id, crop, text IS NOT NULL AS typed FROM input_events "
           f"WHERE (ts_ms < :until AND end_ms >= :since) OR recording_id IN ({_RECORDINGS})")
_SNAPSHOTS = "SELECT id, screenshot FROM snapshots WHERE ts_ms >= :since AND ts_ms < :until"
_TREES = "SELECT id FROM a11y_trees WHERE ts_ms >= :since AND ts_ms < :until"
_RUNS = "SELECT id FROM replay_runs WHERE started_ms >= :since AND started_ms < :until"
# A program names the demonstrations it was compiled from ("recording:3");
# a body that is not JSON names none.
_PROGRAMS = ("SELECT id, name FROM programs WHERE EXISTS (SELECT 1 FROM json_each(CASE WHEN "
             "json_valid(programs.body) THEN programs.body ELSE '{}' END, '$.origin') "
             "WHERE value IN (SELECT 'recording:' || id FROM forget_recordings))")
_SPOTS = ("SELECT id FROM blind_spots WHERE start_ms < :until "
          "AND coalesce(end_ms, 9223372036854775807) > :since")


_TEMP_TABLES = ("forget_recordings", "forget_inputs", "forget_snapshots", "forget_trees",
                "forget_programs", "forget_runs", "forget_elements", "forget_blobs")


def _collect(connection: apsw.Connection, window: dict[str, int]) -> None:
    """The window's rows, as temporary tables of ids (kept in memory: see
    `_memory_temp_store`)."""
    for name in _TEMP_TABLES:
        connection.execute(f"DROP TABLE IF EXISTS temp.{name}")
    for name, select in (("forget_recordings", _RECORDINGS), ("forget_inputs", _INPUTS),
                         ("forget_snapshots", _SNAPSHOTS), ("forget_trees", _TREES)):
        connection.execute(f"CREATE TEMP TABLE {name} AS {select}", window)
    has_replay = has_table(connection, "replay_runs")
    if has_table(connection, "programs"):
        connection.execute(f"CREATE TEMP TABLE forget_programs AS {_PROGRAMS}")
    else:
        connection.execute("CREATE TEMP TABLE forget_programs (id TEXT, name TEXT)")
    if has_replay:
        connection.execute(f"CREATE TEMP TABLE forget_runs AS {_RUNS} UNION "
                           "SELECT id FROM replay_runs WHERE program_id IN "
                           "(SELECT id FROM forget_programs)", window)
    else:
        connection.execute("CREATE TEMP TABLE forget_runs (id INTEGER)")
    # Elements that go: those of the walks that go and those only clicks in the
    # window hit — unless an input row that stays still names them.
    connection.execute(
        "CREATE TEMP TABLE forget_elements AS SELECT id FROM elements "
        "WHERE (tree_id IN (SELECT id FROM forget_trees) OR (tree_id IS NULL AND id IN "
        "(SELECT element_id FROM forget_inputs))) AND id NOT IN (SELECT element_id FROM "
        "input_events WHERE element_id IS NOT NULL AND id NOT IN (SELECT id FROM forget_inputs))")
    # A click's crops (`click_evidence`, in stores that have it) go with it,
    # unless a click that stays shows the same picture.
    evidence = has_table(connection, "click_evidence")
    crops = ("OR sha256 IN (SELECT blob FROM click_evidence WHERE input_id IN "
             "(SELECT id FROM forget_inputs)) " if evidence else "")
    kept_crops = ("AND sha256 NOT IN (SELECT blob FROM click_evidence WHERE input_id NOT IN "
                  "(SELECT id FROM forget_inputs))" if evidence else "")
    connection.execute(
        "CREATE TEMP TABLE forget_blobs AS SELECT sha256, length(data) AS size FROM blobs "
        "WHERE (sha256 IN (SELECT screenshot FROM forget_snapshots) "
        f"OR sha256 IN (SELECT crop FROM forget_inputs) {crops}"
        "OR (created_ms >= :since AND created_ms < :until)) "
        "AND sha256 NOT IN (SELECT screenshot FROM snapshots WHERE screenshot IS NOT NULL "
        "AND id NOT IN (SELECT id FROM forget_snapshots)) "
        "AND sha256 NOT IN (SELECT crop FROM input_events WHERE crop IS NOT NULL "
        f"AND id NOT IN (SELECT id FROM forget_inputs)) {kept_crops}", window)


def _memory_temp_store(connection: apsw.Connection) -> None:
    """Temporary tables in memory: no file outside the store's directory
    (and /tmp is read-only inside the daemon's sandbox)."""
    connection.pragma("temp_store", "memory")


def _report(connection: apsw.Connection, window: dict[str, int], **extra: Any) -> ForgetReport:
    def count(sql: str, params: Any = ()) -> int:
        row = connection.execute(sql, params).fetchone()
        assert row is not None      # an aggregate returns one row
        return int(row[0])

    images = count("SELECT count(*) FROM forget_blobs")
    image_bytes = count("SELECT coalesce(sum(size), 0) FROM forget_blobs")
    derived = tuple((rows.table, count(f"SELECT count(*) FROM {rows.table} WHERE {rows.where}", window))
                    for rows in DERIVED_ROWS if has_table(connection, rows.table))
    fields: dict[str, Any] = dict(
        since_ms=window["since"], until_ms=window["until"],
        snapshots=count("SELECT count(*) FROM forget_snapshots"),
        input_events=count("SELECT count(*) FROM forget_inputs"),
        typed_texts=count("SELECT count(*) FROM forget_inputs WHERE typed"),
        elements=count("SELECT count(*) FROM forget_elements"),
        trees=count("SELECT count(*) FROM forget_trees"),
        images=images, image_bytes=image_bytes,
        replay_runs=count("SELECT count(*) FROM forget_runs"),
        blind_spots=count(f"SELECT count(*) FROM ({_SPOTS})", window),
        recordings=tuple(row[0] for row in connection.execute(
            "SELECT name FROM recordings WHERE id IN (SELECT id FROM forget_recordings) "
            "ORDER BY start_ms, id")),
        programs=tuple(f"{name} ({identity})" for identity, name in connection.execute(
            "SELECT id, name FROM forget_programs ORDER BY name, id")),
        derived=derived)
    fields.update(extra)
    return ForgetReport(**fields)


def plan_forget(connection: apsw.Connection, since_ms: int, until_ms: int) -> ForgetReport:
    """What `forget_window` would remove; writes nothing (a read-only
    connection will do)."""
    window = {"since": since_ms, "until": until_ms}
    _memory_temp_store(connection)
    connection.execute("BEGIN")
    try:
        _collect(connection, window)
        return _report(connection, window)
    finally:
        connection.execute("ROLLBACK")


# -- forgetting ------------------------------------------------------------------------------
def forget_window(connection: apsw.Connection, db_path: Path, since_ms: int, until_ms: int, *,
                  now_ms: int, next_blind_spot_id: Callable[[], int],
                  on_forgotten: Callable[[Forgotten], None] | None = None) -> ForgetReport:
    """Remove the window's rows and derived rows in one transaction, mark
    it forgotten, then `scrub`. `now_ms` cuts a blind spot still open: what
    happens after the forget is not forgotten. `next_blind_spot_id` hands
    out ids (the daemon's writer owns the allocation while it runs);
    `on_forgotten` is told which rows went (the daemon's writer fences its
    later commits with them), inside the transaction."""
    cut = min(until_ms, now_ms)
    if cut <= since_ms:
        raise PhantomError("a forget window must start before now and before its end",
                           code="invalid_window")
    window = {"since": since_ms, "until": until_ms}
    connection.pragma("secure_delete", 1)
    _memory_temp_store(connection)
    # Checking each deleted element against every input row (there is no
    # index on input_events.element_id) took over a minute for one day; the
    # deletes keep references whole by design, and one foreign_key_check at
    # the end proves it before the transaction commits.
    checked = int(connection.pragma("foreign_keys"))
    connection.pragma("foreign_keys", 0)
    try:
        with connection:
            _collect(connection, window)
            report = _report(connection, window)
            for rows in DERIVED_ROWS:
                if has_table(connection, rows.table):
                    connection.execute(f"DELETE FROM {rows.table} WHERE {rows.where}", window)
            offset, tz_name = _zone_near(connection, since_ms)
            if on_forgotten is not None:
                on_forgotten(_forgotten_ids(connection, since_ms, cut))
            _delete(connection)
            forgot(connection, [table for table, count in report.derived if count])
            _cut_blind_spots(connection, since_ms, until_ms, cut, next_blind_spot_id)
            connection.execute(
                "INSERT INTO blind_spots(id, start_ms, end_ms, utc_offset_min, tz_name, monitor, "
                "kind, reason) VALUES (?, ?, ?, ?, ?, NULL, ?, ?)",
                (next_blind_spot_id(), since_ms, cut, offset, tz_name, FORGOTTEN, FORGOTTEN_REASON))
            for name in _TEMP_TABLES:
                connection.execute(f"DROP TABLE temp.{name}")
            dangling = connection.execute("PRAGMA foreign_key_check").fetchall()
            if dangling:
                raise StoreError(f"forgetting would leave {dangling[0][0]} rows pointing at "
                                 f"{dangling[0][2]} rows that went; nothing was forgotten",
                                 path=str(db_path))
    finally:
        connection.pragma("foreign_keys", checked)
    return replace(report, scrubbed=scrub(connection, db_path))


def _forgotten_ids(connection: apsw.Connection, since_ms: int, cut_ms: int) -> Forgotten:
    def ids(table: str) -> frozenset[int]:
        return frozenset(int(row[0]) for row in connection.execute(f"SELECT id FROM temp.{table}"))

    return Forgotten(since_ms, cut_ms, ids("forget_snapshots"), ids("forget_inputs"),
                     ids("forget_trees"), ids("forget_elements"))


def _delete(connection: apsw.Connection) -> None:
    """In the order the references allow: rows that name others first.
    An input row after the window keeps its row when the snapshot it names
    went (a burst typed after the forget into a window last seen inside it):
    its reference is cleared, and the daemon links what follows to the
    snapshot it takes after the forget."""
    statements = [
        "UPDATE input_events SET snapshot_id = NULL WHERE snapshot_id IN (SELECT id FROM "
        "forget_snapshots) AND id NOT IN (SELECT id FROM forget_inputs)",
        "UPDATE snapshots SET tree_id = NULL WHERE tree_id IN (SELECT id FROM forget_trees) "
        "AND id NOT IN (SELECT id FROM forget_snapshots)",
        "DELETE FROM click_evidence WHERE input_id IN (SELECT id FROM forget_inputs)",
        "DELETE FROM input_events WHERE id IN (SELECT id FROM forget_inputs)",
        "DELETE FROM snapshots WHERE id IN (SELECT id FROM forget_snapshots)",
        "DELETE FROM elements WHERE id IN (SELECT id FROM forget_elements)",
        # Elements of a walk that goes, kept because a click that stays hit them.
        "UPDATE elements SET tree_id = NULL, parent_id = NULL "
        "WHERE tree_id IN (SELECT id FROM forget_trees)",
        "DELETE FROM a11y_trees WHERE id IN (SELECT id FROM forget_trees)",
        "DELETE FROM blobs WHERE sha256 IN (SELECT sha256 FROM forget_blobs)",
        "DELETE FROM recordings WHERE id IN (SELECT id FROM forget_recordings)",
    ]
    if not has_table(connection, "click_evidence"):
        statements.remove("DELETE FROM click_evidence WHERE input_id IN (SELECT id FROM forget_inputs)")
    if has_table(connection, "replay_runs"):
        statements += [
            "DELETE FROM replay_steps WHERE run_id IN (SELECT id FROM forget_runs)",
            "DELETE FROM replay_runs WHERE id IN (SELECT id FROM forget_runs)",
        ]
    if has_table(connection, "programs"):
        statements.append("DELETE FROM programs WHERE id IN (SELECT id FROM forget_programs)")
    for statement in statements:
        connection.execute(statement)


def _cut_blind_spots(connection: apsw.Connection, since: int, until: int, cut: int,
                     next_id: Callable[[], int]) -> None:
    """Blind spots inside the window go; those reaching into it stop at
    `since` or start at `cut` (the window's end, or now for one still open);
    one spanning it keeps its id for the part after and a new row for the
    part before."""
    rows = connection.execute(
        "SELECT id, start_ms, end_ms, utc_offset_min, tz_name, monitor, kind, reason "
        f"FROM blind_spots WHERE id IN ({_SPOTS}) ORDER BY id",
        {"since": since, "until": until}).fetchall()
    for spot_id, start, end, offset, tz_name, monitor, kind, reason in rows:
        assert isinstance(start, int) and (end is None or isinstance(end, int))
        before = start < since
        after = end is None or end > until
        if before and after:
            connection.execute("INSERT INTO blind_spots VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                               (next_id(), start, since, offset, tz_name, monitor, kind, reason))
            connection.execute("UPDATE blind_spots SET start_ms = ? WHERE id = ?",
                               (until if end is not None else cut, spot_id))
        elif before:
            connection.execute("UPDATE blind_spots SET end_ms = ? WHERE id = ?", (since, spot_id))
        elif after:
            connection.execute("UPDATE blind_spots SET start_ms = ? WHERE id = ?",
                               (until if end is not None else cut, spot_id))
        else:
            connection.execute("DELETE FROM blind_spots WHERE id = ?", (spot_id,))


def scrub(connection: apsw.Connection, db_path: str | os.PathLike[str]) -> bool:
    """Rewrite the database from its live rows and empty the WAL; True when
    the checkpoint could copy everything (a reader holding an old snapshot
    for longer than the retries blocks it — then the next checkpoint does)."""
    connection.pragma("secure_delete", 1)
    # VACUUM builds the new database in a temporary file: in the store's own
    # private directory, not /tmp (read-only inside the daemon's sandbox).
    connection.pragma("temp_store", "default")
    connection.pragma("temp_store_directory", str(Path(db_path).resolve().parent))
    connection.execute("VACUUM")
    for attempt in range(CHECKPOINT_ATTEMPTS):
        try:
            connection.wal_checkpoint(mode=apsw.SQLITE_CHECKPOINT_TRUNCATE)
        except apsw.BusyError:
            time.sleep(0.2 * (attempt + 1))
            continue
        wal = Path(f"{db_path}-wal")
        return not wal.exists() or wal.stat().st_size == 0
    return False


def _zone_near(connection: apsw.Connection, ts_ms: int) -> tuple[int, str]:
    """The offset and zone the capture recorded nearest this instant (the
    local ones when it recorded none)."""
    for sql in ("SELECT utc_offset_min, tz_name FROM snapshots WHERE ts_ms >= ? ORDER BY ts_ms LIMIT 1",
                "SELECT utc_offset_min, tz_name FROM snapshots WHERE ts_ms < ? "
                "ORDER BY ts_ms DESC LIMIT 1"):
        row = connection.execute(sql, (ts_ms,)).fetchone()
        if row is not None:
            return int(row[0]), row[1]
    return zone_at(ts_ms)

