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

from dataclasses import dataclass

# "PHAN" — lets readers tell a Phantom store from any other SQLite file.
APPLICATION_ID = 0x5048414E


@dataclass(frozen=True, slots=True)
class Migration:
    """One forward-only schema step."""

    version: int
    summary: str
    sql: str


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

_V3_PROGRAMS = """
-- A program's standing, beside its body: the body's id is a digest of what
-- the program does, so what happens to it later cannot live in it. One row
-- per program, made when the program is saved (a program without a row, in
-- a store written before this migration, is a candidate).
--   state          candidate → active (a verified run, or the person
--                  promotes it) → quarantined (two counted failures in a row)
--                  / deprecated (on request, or a successor became active)
--   derived_from   the program this one was recompiled from (the latest
--                  program of the same name when it was saved)
--   replaced_by    the successor whose activation deprecated this one
--   failure_streak run ids of the counted failures since the last success
--                  (a failure counts only when the run sent input)
--   verified_by    the strongest evidence it works: end_state |
--                  no_new_windows (a verified run) | promotion (the person's word)
CREATE TABLE program_memory (
    program_id     TEXT PRIMARY KEY,
    state          TEXT NOT NULL DEFAULT 'candidate'
                     CHECK (state IN ('candidate', 'active', 'quarantined', 'deprecated')),
    state_ms       INTEGER NOT NULL,
    state_reason   TEXT NOT NULL DEFAULT '',
    description    TEXT NOT NULL DEFAULT '',
    derived_from   TEXT,
    replaced_by    TEXT,
    successes      INTEGER NOT NULL DEFAULT 0,
    failures       INTEGER NOT NULL DEFAULT 0,
    failure_streak TEXT NOT NULL DEFAULT '',
    verified_by    TEXT NOT NULL DEFAULT ''
                     CHECK (verified_by IN ('', 'end_state', 'no_new_windows', 'promotion')),
    last_run_id    INTEGER,
    last_outcome   TEXT NOT NULL DEFAULT '',
    last_run_ms    INTEGER
) WITHOUT ROWID;
CREATE INDEX program_memory_by_state ON program_memory(state, program_id, description);

-- The embedding of a program's intent keys (its title words, name,
-- description and step labels), float32 unit vectors, and the model that
-- made them: kept apart from the state rows so that reading who is active
-- stays small. `description` is the one they were made with: a vector made
-- before the description changed is made again.
CREATE TABLE program_intents (
    program_id  TEXT PRIMARY KEY,
    description TEXT NOT NULL,
    model       TEXT NOT NULL,
    vectors     BLOB NOT NULL
);

-- Every change of a program's state, with the runs that caused it.
CREATE TABLE program_transitions (
    id         INTEGER PRIMARY KEY,
    program_id TEXT NOT NULL,
    ts_ms      INTEGER NOT NULL,
    from_state TEXT,
    to_state   TEXT NOT NULL,
    reason     TEXT NOT NULL,
    runs       TEXT NOT NULL DEFAULT ''
);
CREATE INDEX program_transitions_by_program ON program_transitions(program_id, ts_ms);
"""

_V3_CAPTURE = """
-- Input knows the window that received it (the focused window for keys and
-- text, the window under the pointer for clicks and scrolls): a reference to
-- that window's snapshot, written before the input row. A click also keeps
-- what it hit inline (role, name, path), so readers need no element lookup.
-- `field_chars` is how many characters the field held when a text burst
-- began, inside an explicit recording only (replay sets a field's whole
-- content only where every demonstration typed into an empty one).
ALTER TABLE input_events ADD COLUMN snapshot_id INTEGER REFERENCES snapshots(id);
ALTER TABLE input_events ADD COLUMN target_role TEXT;
ALTER TABLE input_events ADD COLUMN target_name TEXT;
ALTER TABLE input_events ADD COLUMN target_path TEXT;
ALTER TABLE input_events ADD COLUMN field_chars INTEGER;
CREATE INDEX input_events_by_snapshot ON input_events(snapshot_id);
-- The X window a snapshot shows (ids are reused by X; the snapshot's pid and
-- time tell two windows with one id apart).
ALTER TABLE snapshots ADD COLUMN window_id INTEGER;
"""

# Migration 3 is shared by the engineers of one landing: each adds a block
# here and `_V3` joins them.
_V3_IMPORTS = """
-- What `phantom import` brought in, keyed by where it came from, so importing
-- the same history again adds nothing. `source` names the kind of history
-- ('activitywatch', 'nocta'); `source_id` is stable across copies and
-- re-exports of it (an ActivityWatch event is its bucket and start instant, a
-- nocta row its table, id and timestamp); `row_table`/`row_id` is the first
-- store row made from it (an AW event becomes several snapshots; excluded
-- windows share one blind spot).
--
-- A table of its own rather than source columns on snapshots, input_events
-- and blind_spots: the capture tables stay as the daemon writes them (no
-- column and no index paid on every live row for the few imported ones), one
-- source record may make several rows or none, and the keys outlive the rows
-- — a range forgotten later is not brought back by importing the file again.
CREATE TABLE import_keys (
    source    TEXT NOT NULL,
    source_id TEXT NOT NULL,
    row_table TEXT NOT NULL CHECK (row_table IN ('snapshots', 'input_events', 'blind_spots')),
    row_id    INTEGER NOT NULL,
    PRIMARY KEY (source, source_id)
) WITHOUT ROWID;
"""


_V3_PRIVACY = """
-- 'forgotten': a stretch the person erased (`phantom forget`, `phantom record
-- discard`). SQLite cannot change a CHECK in place: the table is rebuilt,
-- its rows copied with their ids.
CREATE TABLE blind_spots_v3 (
    id             INTEGER PRIMARY KEY,
    start_ms       INTEGER NOT NULL,
    end_ms         INTEGER,
    utc_offset_min INTEGER NOT NULL,
    tz_name        TEXT NOT NULL,
    monitor        INTEGER,
    kind           TEXT NOT NULL CHECK (kind IN
                     ('excluded', 'paused', 'no_accessibility', 'capture_error', 'display_lost',
                      'forgotten')),
    reason         TEXT NOT NULL DEFAULT ''
);
INSERT INTO blind_spots_v3 (id, start_ms, end_ms, utc_offset_min, tz_name, monitor, kind, reason)
    SELECT id, start_ms, end_ms, utc_offset_min, tz_name, monitor, kind, reason FROM blind_spots;
DROP TABLE blind_spots;
ALTER TABLE blind_spots_v3 RENAME TO blind_spots;
CREATE INDEX blind_spots_by_time ON blind_spots(start_ms);
"""

_V3_EVERYDAY = """
-- The search index (`phantom search`): titles and URLs of snapshots, the
-- labels of each accessibility walk, the labels of what input landed on.
-- Contentless (the text stays in the capture tables; the index keeps only
-- tokens and row ids, which are the snapshot, walk and input row ids), with
-- deletes and secure-delete on, so forgetting a window or retention takes
-- its tokens out of the file too. `search_progress` is the last row id of
-- each source indexed: `phantom search` brings the index up to date from the
-- rows added since, so the capture daemon never indexes anything.
CREATE VIRTUAL TABLE search_snapshots USING fts5(title, url, content='', contentless_delete=1,
    tokenize='unicode61 remove_diacritics 2');
INSERT INTO search_snapshots(search_snapshots, rank) VALUES ('secure-delete', 1);
CREATE VIRTUAL TABLE search_trees USING fts5(labels, content='', contentless_delete=1,
    tokenize='unicode61 remove_diacritics 2');
INSERT INTO search_trees(search_trees, rank) VALUES ('secure-delete', 1);
CREATE VIRTUAL TABLE search_inputs USING fts5(label, content='', contentless_delete=1,
    tokenize='unicode61 remove_diacritics 2');
INSERT INTO search_inputs(search_inputs, rank) VALUES ('secure-delete', 1);
CREATE TABLE search_progress (
    source  TEXT PRIMARY KEY CHECK (source IN ('snapshots', 'a11y_trees', 'input_events')),
    last_id INTEGER NOT NULL
) WITHOUT ROWID;
-- A label found in a walk is shown on every snapshot that shares the walk.
CREATE INDEX snapshots_by_tree ON snapshots(tree_id);

-- Retention's roll-up: before a day's raw rows go, the day is compiled and
-- kept here for good — the document (as `phantom compile --day` made it) and
-- the day's action stream (so routines still count the day). Both are
-- zlib-compressed canonical JSON of the compiler's records, `format` says
-- which encoding. `input_digest` is the sha256 of the raw rows it came from.
CREATE TABLE rollup_days (
    day          TEXT NOT NULL,
    zone         TEXT NOT NULL,
    since_ms     INTEGER NOT NULL,
    until_ms     INTEGER NOT NULL,
    format       INTEGER NOT NULL,
    document     BLOB NOT NULL,
    actions      BLOB NOT NULL,
    input_digest TEXT NOT NULL,
    PRIMARY KEY (day, zone)
) WITHOUT ROWID;
CREATE INDEX rollup_days_by_time ON rollup_days(since_ms);
"""

_V3_VISUAL = """
-- A click's visual evidence (docs/VISUAL.md §1): up to three crops of the
-- screen around it — 'target' (64 px), 'context' (128 px), 'wide' (256 px) —
-- each a PNG blob, where it lay on the desktop (x, y, width, height), where
-- the click lay inside it as a share of its width and height (the pixel
-- centre: (click − left + 0.5) / width), and the rectangle of the window
-- that received the click then (NULL when the click lay outside it). A
-- variant missing was a repeat of a smaller one or mostly masked.
-- `input_events.crop` names the target variant's blob, as before, so readers
-- of the single crop need nothing new. Excluded windows and editable
-- fields' interiors are transparent (alpha 0) in every variant.
CREATE TABLE click_evidence (
    input_id INTEGER NOT NULL REFERENCES input_events(id),
    kind     TEXT NOT NULL CHECK (kind IN ('target', 'context', 'wide')),
    blob     TEXT NOT NULL REFERENCES blobs(sha256),
    x        INTEGER NOT NULL,
    y        INTEGER NOT NULL,
    width    INTEGER NOT NULL CHECK (width > 0),
    height   INTEGER NOT NULL CHECK (height > 0),
    ratio_x  REAL NOT NULL,
    ratio_y  REAL NOT NULL,
    window_x INTEGER,
    window_y INTEGER,
    window_w INTEGER,
    window_h INTEGER,
    PRIMARY KEY (input_id, kind)
) WITHOUT ROWID;
CREATE INDEX click_evidence_by_blob ON click_evidence(blob);
"""

_V3 = _V3_CAPTURE + _V3_IMPORTS + _V3_PRIVACY + _V3_PROGRAMS + _V3_EVERYDAY + _V3_VISUAL

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "capture tables", _V1_CAPTURE),
    Migration(2, "programs, replay runs and step telemetry", _V2_REPLAY),
    Migration(3, "input attributed to its window, click targets inline, import keys, "
                 "forgotten blind spots, program lifecycle and intent keys, the search index, "
                 "retention's day roll-ups, clicks' visual evidence", _V3),
)

SCHEMA_VERSION = MIGRATIONS[-1].version
