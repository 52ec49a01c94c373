"""A screenpipe database as screenpipe itself lays it out, built row by row
for tests (no committed binary).

The tables are the ones screenpipe's migrations leave behind at
screenpipe/screenpipe 67f4c43 (crates/screenpipe-db/src/migrations):
`frames` as rebuilt by 20260220000000_event_driven_capture plus
`full_text` (20260312000000) and `cloud_blob_id` (20260309000000);
`ui_events` as created by 20250202000000_add_accessibility_and_input_tables;
`elements` as created by 20260301000000_create_elements_table. Full-text
tables and triggers are left out: nothing Phantom reads depends on them.
Timestamps are written the way the layout stores them: ISO text in UTC.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import apsw

FRAMES = """
CREATE TABLE frames (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    video_chunk_id INTEGER DEFAULT NULL,
    offset_index INTEGER NOT NULL DEFAULT 0,
    timestamp TIMESTAMP NOT NULL,
    name TEXT,
    app_name TEXT DEFAULT NULL,
    window_name TEXT DEFAULT NULL,
    focused BOOLEAN DEFAULT NULL,
    browser_url TEXT DEFAULT NULL,
    device_name TEXT NOT NULL DEFAULT '',
    sync_id TEXT,
    machine_id TEXT,
    synced_at DATETIME,
    snapshot_path TEXT DEFAULT NULL,
    accessibility_text TEXT DEFAULT NULL,
    accessibility_tree_json TEXT DEFAULT NULL,
    content_hash INTEGER DEFAULT NULL,
    simhash INTEGER DEFAULT NULL,
    capture_trigger TEXT DEFAULT NULL,
    text_source TEXT DEFAULT NULL,
    cloud_blob_id TEXT DEFAULT NULL,
    full_text TEXT DEFAULT NULL
);
CREATE INDEX idx_frames_timestamp ON frames(timestamp);
CREATE INDEX idx_frames_timestamp_device ON frames(timestamp, device_name);
"""

UI_EVENTS = """
CREATE TABLE ui_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    timestamp DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    session_id TEXT,
    relative_ms INTEGER NOT NULL DEFAULT 0,
    event_type TEXT NOT NULL,
    x INTEGER,
    y INTEGER,
    delta_x INTEGER,
    delta_y INTEGER,
    button INTEGER,
    click_count INTEGER,
    key_code INTEGER,
    modifiers INTEGER,
    text_content TEXT,
    text_length INTEGER,
    app_name TEXT,
    app_pid INTEGER,
    window_title TEXT,
    browser_url TEXT,
    element_role TEXT,
    element_name TEXT,
    element_value TEXT,
    element_description TEXT,
    element_automation_id TEXT,
    element_bounds TEXT,
    frame_id INTEGER,
    sync_id TEXT,
    machine_id TEXT,
    synced_at DATETIME
);
CREATE INDEX idx_ui_events_timestamp ON ui_events(timestamp);
CREATE INDEX idx_ui_events_frame_id ON ui_events(frame_id);
"""

ELEMENTS = """
CREATE TABLE elements (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    frame_id INTEGER NOT NULL,
    source TEXT NOT NULL,
    role TEXT NOT NULL,
    text TEXT,
    parent_id INTEGER,
    depth INTEGER NOT NULL DEFAULT 0,
    left_bound REAL,
    top_bound REAL,
    width_bound REAL,
    height_bound REAL,
    confidence REAL,
    sort_order INTEGER NOT NULL DEFAULT 0,
    FOREIGN KEY (frame_id) REFERENCES frames(id),
    FOREIGN KEY (parent_id) REFERENCES elements(id)
);
"""


def iso(ts_ms: int) -> str:
    """The layout's timestamp text for a UTC instant."""
    moment = datetime.fromtimestamp(ts_ms // 1000, tz=timezone.utc).replace(microsecond=ts_ms % 1000 * 1000)
    return moment.isoformat()


class ScreenpipeDb:
    """Frames and input events added one call at a time; ids come back."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.connection = apsw.Connection(str(path))
        self.connection.execute(FRAMES + UI_EVENTS + ELEMENTS)

    def frame(self, ts_ms: int, app: str, title: str, *, device: str = "monitor_0", url: str | None = None,
              focused: bool = True, trigger: str = "app_switch") -> int:
        self.connection.execute(
            "INSERT INTO frames(timestamp, app_name, window_name, focused, browser_url, device_name, "
            "capture_trigger) VALUES(?, ?, ?, ?, ?, ?, ?)", (iso(ts_ms), app, title, focused, url, device, trigger))
        return self.connection.last_insert_rowid()

    def event(self, ts_ms: int, event_type: str, *, app: str | None = None, title: str | None = None,
              frame_id: int | None = None, x: int | None = None, y: int | None = None,
              role: str | None = None, name: str | None = None, text: str | None = None) -> int:
        self.connection.execute(
            "INSERT INTO ui_events(timestamp, event_type, x, y, text_content, text_length, app_name, "
            "window_title, element_role, element_name, frame_id) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (iso(ts_ms), event_type, x, y, text, len(text) if text else None, app, title, role, name, frame_id))
        return self.connection.last_insert_rowid()

    def close(self) -> None:
        self.connection.close()
