"""A screenpipe database as screenpipe itself lays it out, built row by row
for tests (no committed binary).

The tables are the ones screenpipe's migrations leave behind at
screenpipe/screenpipe 67f4c43 (crates/screenpipe-db/src/migrations):
`frames` as rebuilt by 20260220000000_event_driven_capture plus
`full_text` (20260312000000) and `cloud_blob_id` (20260309000000);
`ui_events` as created by 20250202000000_add_accessibility_and_input_tables;
`elements` as created by 20260301000000_create_elements_table — the text
is `synth.nocta_writer.SCREENPIPE_DDL`, which the synthetic corpus writes
too. Full-text tables and triggers are left out: nothing Phantom reads
depends on them. Timestamps are written the way the layout stores them:
ISO text in UTC.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import apsw

from synth.nocta_writer import SCREENPIPE_DDL


def iso(ts_ms: int) -> str:
    """The layout's timestamp text for a UTC instant."""
    moment = datetime.fromtimestamp(ts_ms // 1000, tz=timezone.utc).replace(microsecond=ts_ms % 1000 * 1000)
    return moment.isoformat()


class ScreenpipeDb:
    """Frames and input events added one call at a time; ids come back."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.connection = apsw.Connection(str(path))
        self.connection.execute(SCREENPIPE_DDL)

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
