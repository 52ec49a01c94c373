"""The store's schema as an ordered list of forward-only migrations.

Each migration is applied once, in order, inside one transaction, and bumps
`PRAGMA user_version`. A migration is never edited after it has shipped: a
change to the schema is a new migration appended to `MIGRATIONS`. A database
whose version is newer than the last migration here was written by a newer
Phantom and is refused rather than misread.

Conventions every table follows:
- times are UTC integer milliseconds (`*_ms`); rows a person reads back in
  local time also carry the capture's UTC offset in minutes and IANA zone name;
- no typed content anywhere except `input_events.text`, which is filled only
  inside an explicit recording and never for a password field;
- blobs are content-addressed by sha256 and shared between rows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .migration_3 import V3_SQL
from .migration_4 import V4_SQL
from .migration_5 import V5_SQL
from .migration_6 import apply as apply_v6

if TYPE_CHECKING:
    import apsw

# "PHAN" — lets readers tell a Phantom store from any other SQLite file.
APPLICATION_ID = 0x5048414E


@dataclass(frozen=True, slots=True)
class Migration:
    """One forward-only schema step."""

    version: int
    summary: str
    sql: str
    # A step SQL alone cannot say (it depends on what the store holds), run
    # after `sql` in the same transaction.
    apply: Callable[[apsw.Connection], None] | None = None


_V1_CAPTURE = """
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

-- Content-addressed images: downscaled screen thumbnails and click-target crops.
CREATE TABLE blobs (
    sha256     TEXT PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('thumbnail', 'click_crop')),
    media_type TEXT NOT NULL,
    width      INTEGER NOT NULL,
    height     INTEGER NOT NULL,
    data       BLOB NOT NULL,
    created_ms INTEGER NOT NULL
) WITHOUT ROWID;

-- One bounded walk of a window's accessibility tree; snapshots share a walk
-- until focus or the tree's children change.
CREATE TABLE a11y_trees (
    id         INTEGER PRIMARY KEY,
    ts_ms      INTEGER NOT NULL,
    app        TEXT NOT NULL,
    node_count INTEGER NOT NULL,
    truncated  TEXT CHECK (truncated IN ('nodes', 'depth', 'time')),
    walk_ms    INTEGER NOT NULL
);

-- AT-SPI elements. `tree_id` is NULL for an element found only by a click's
-- hit test. Extents are desktop coordinates. `states` is a sorted,
-- comma-separated list of AT-SPI state names.
CREATE TABLE elements (
    id          INTEGER PRIMARY KEY,
    tree_id     INTEGER REFERENCES a11y_trees(id),
    parent_id   INTEGER,
    depth       INTEGER NOT NULL,
    ordinal     INTEGER NOT NULL,
    role        TEXT NOT NULL,
    name        TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    labelled_by TEXT,
    states      TEXT NOT NULL DEFAULT '',
    x INTEGER, y INTEGER, w INTEGER, h INTEGER,
    path        TEXT NOT NULL
);
CREATE INDEX elements_by_tree ON elements(tree_id);

-- What was on screen, per monitor: written on focus, title and URL changes
-- and on a heartbeat. Excluded windows never produce a snapshot.
CREATE TABLE snapshots (
    id             INTEGER PRIMARY KEY,
    ts_ms          INTEGER NOT NULL,
    utc_offset_min INTEGER NOT NULL,
    tz_name        TEXT NOT NULL,
    monitor        INTEGER NOT NULL,
    trigger        TEXT NOT NULL,
    app            TEXT NOT NULL,
    wm_class       TEXT NOT NULL DEFAULT '',
    pid            INTEGER,
    executable     TEXT,
    title          TEXT NOT NULL DEFAULT '',
    url            TEXT,
    idle           INTEGER NOT NULL DEFAULT 0 CHECK (idle IN (0, 1)),
    focused        INTEGER NOT NULL DEFAULT 1 CHECK (focused IN (0, 1)),
    screenshot     TEXT REFERENCES blobs(sha256),
    tree_id        INTEGER REFERENCES a11y_trees(id)
);
CREATE INDEX snapshots_by_time ON snapshots(ts_ms);

-- Explicit demonstrations: the only time typed text may be kept.
CREATE TABLE recordings (
    id       INTEGER PRIMARY KEY,
    name     TEXT NOT NULL,
    start_ms INTEGER NOT NULL,
    end_ms   INTEGER
);
CREATE INDEX recordings_by_name ON recordings(name);

-- Input as counts. A 'text' row is a burst of printable keys into one field
-- (count = keys); 'key' rows are non-text keys and shortcuts by name
-- ('Return', 'ctrl+s'); 'click' rows carry the element under the pointer and
-- how it was resolved. `text` is NULL unless inside a recording.
CREATE TABLE input_events (
    id           INTEGER PRIMARY KEY,
    ts_ms        INTEGER NOT NULL,
    end_ms       INTEGER NOT NULL,
    monitor      INTEGER NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('key', 'click', 'scroll', 'copy', 'text')),
    count        INTEGER NOT NULL CHECK (count >= 1),
    key          TEXT,
    button       INTEGER,
    x INTEGER, y INTEGER,
    element_id   INTEGER REFERENCES elements(id),
    resolution   TEXT CHECK (resolution IN ('exact', 'tolerance', 'zone', 'none')),
    crop         TEXT REFERENCES blobs(sha256),
    recording_id INTEGER REFERENCES recordings(id),
    text         TEXT
);
CREATE INDEX input_events_by_time ON input_events(ts_ms);

-- Time the capture could not see, and why. `end_ms` is NULL while open.
CREATE TABLE blind_spots (
    id             INTEGER PRIMARY KEY,
    start_ms       INTEGER NOT NULL,
    end_ms         INTEGER,
    utc_offset_min INTEGER NOT NULL,
    tz_name        TEXT NOT NULL,
    monitor        INTEGER,
    kind           TEXT NOT NULL CHECK (kind IN
                     ('excluded', 'paused', 'no_accessibility', 'capture_error', 'display_lost')),
    reason         TEXT NOT NULL DEFAULT ''
);
CREATE INDEX blind_spots_by_time ON blind_spots(start_ms);
"""

_V2_REPLAY = """
-- Compiled programs: a canonical JSON body, addressed by a digest of it.
CREATE TABLE programs (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    source     TEXT NOT NULL CHECK (source IN ('demonstration', 'routine')),
    created_ms INTEGER NOT NULL,
    traces     INTEGER NOT NULL,
    body       TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX programs_by_name ON programs(name, created_ms);

-- One row per replay run. Parameter values are not stored (they are what
-- the user typed); only their names and lengths.
CREATE TABLE replay_runs (
    id           INTEGER PRIMARY KEY,
    program_id   TEXT NOT NULL,
    started_ms   INTEGER NOT NULL,
    finished_ms  INTEGER,
    status       TEXT NOT NULL CHECK (status IN
                   ('running', 'success', 'escalated', 'refused', 'failed', 'dry_run')),
    trigger      TEXT NOT NULL DEFAULT 'cli',
    parameters   TEXT NOT NULL DEFAULT '{}',
    steps_total  INTEGER NOT NULL,
    steps_done   INTEGER NOT NULL DEFAULT 0,
    escalations  INTEGER NOT NULL DEFAULT 0,
    reason       TEXT NOT NULL DEFAULT ''
);
CREATE INDEX replay_runs_by_time ON replay_runs(started_ms);

-- Per-step telemetry. Replay never calls a remote model: vlm_calls is 0 by
-- construction and by constraint.
CREATE TABLE replay_steps (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER NOT NULL REFERENCES replay_runs(id),
    step_index  INTEGER NOT NULL,
    started_ms  INTEGER NOT NULL,
    policy      TEXT NOT NULL CHECK (policy IN
                  ('direct', 'embed_match_then_act', 'visual_reaim', 'escalate_to_agent', 'refused')),
    outcome     TEXT NOT NULL,
    dispatch    TEXT,
    score       REAL,
    runner_up   REAL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    latency_ms  INTEGER NOT NULL,
    reason      TEXT NOT NULL DEFAULT '',
    vlm_calls   INTEGER NOT NULL DEFAULT 0 CHECK (vlm_calls = 0)
);
CREATE INDEX replay_steps_by_run ON replay_steps(run_id, step_index);
"""


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "capture tables", _V1_CAPTURE),
    Migration(2, "programs, replay runs and step telemetry", _V2_REPLAY),
    Migration(3, "input attributed to its window, click targets inline, import keys, "
                 "forgotten blind spots, program lifecycle and intent keys, the search index, "
                 "retention's day roll-ups, clicks' visual evidence", V3_SQL),
    Migration(4, "blind spots for a stopped or suspended daemon, a clock jump and unobservable input",
              V4_SQL),
    Migration(5, "per-UTC-day revisions of the rows the compiler reads, kept by triggers", V5_SQL),
    Migration(6, "images in a rowid table (their bytes in the table's pages, not overflow chains)", "",
              apply_v6),
)

SCHEMA_VERSION = MIGRATIONS[-1].version
