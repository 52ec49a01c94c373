"""Migration 4's SQL, one block per part that needs it, applied as one
migration (`schema.MIGRATIONS`); like every migration, never edited once it
has shipped.

The blind-spot kinds come first: several parts record stretches Phantom
could not see, and SQLite cannot change a CHECK in place, so the table is
rebuilt once with every kind, its rows copied with their ids:
- `not_running`: capture was not running — stopped (reason `stopped`, from
  the moment it stopped; the next start closes it), killed or crashed
  (`crashed`, from the last row it wrote), or alive but not scheduled
  (`suspended`: SIGSTOP, a suspended laptop, a hung main loop — found as a
  gap in its monotonic heartbeat);
- `clock_jump`: the wall clock moved by more than it should between two
  ticks of the monotonic one (the reason says by how much); no row spans it;
- `no_input_observation`: a session where input cannot be observed at all
  (a Wayland compositor offers no global input protocol), so counts there
  are unknown, not zero.
"""

from __future__ import annotations

_V4_BLIND_SPOTS = """
CREATE TABLE blind_spots_v4 (
    id             INTEGER PRIMARY KEY,
    start_ms       INTEGER NOT NULL,
    end_ms         INTEGER,
    utc_offset_min INTEGER NOT NULL,
    tz_name        TEXT NOT NULL,
    monitor        INTEGER,
    kind           TEXT NOT NULL CHECK (kind IN
                     ('excluded', 'paused', 'no_accessibility', 'capture_error', 'display_lost',
                      'forgotten', 'not_running', 'clock_jump', 'no_input_observation')),
    reason         TEXT NOT NULL DEFAULT ''
);
INSERT INTO blind_spots_v4 (id, start_ms, end_ms, utc_offset_min, tz_name, monitor, kind, reason)
    SELECT id, start_ms, end_ms, utc_offset_min, tz_name, monitor, kind, reason FROM blind_spots;
DROP TABLE blind_spots;
ALTER TABLE blind_spots_v4 RENAME TO blind_spots;
CREATE INDEX blind_spots_by_time ON blind_spots(start_ms);
"""

V4_SQL = _V4_BLIND_SPOTS
