"""Migration 3's SQL, one block per part of the store it extends: input
attributed to its window and click targets inline (capture), import keys,
forgotten blind spots (privacy), program lifecycle and intent keys
(programs), the search index and retention's day roll-ups (everyday) and
clicks' visual evidence. Applied as one migration (`schema.MIGRATIONS`);
like every migration, never edited once it has shipped.
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

# Each part of the store keeps its own block of SQL; `_V3` joins them into
# the one migration.
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

V3_SQL = _V3_CAPTURE + _V3_IMPORTS + _V3_PRIVACY + _V3_PROGRAMS + _V3_EVERYDAY + _V3_VISUAL
