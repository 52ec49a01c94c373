"""Write planned days as a nocta-recorder / screenpipe-family database
(`frames`, `ui_events`, `elements`), the layout activity-frames 0.2.2 reads.

Conventions (docs/DESIGN.md, the nocta layout): UTC ISO timestamps with 'T'
and '+00:00'; one `device_name` per monitor; `browser_url` only on browser
frames; a frame's accessibility tree is stored once, on the first frame that
showed it, and later frames point at it through `elements_ref_frame_id`;
element bounds are normalized to the monitor. Input events keep no typed
text (`text_content` is NULL, `text_length` holds the count). activity-frames
drops events that fall after a segment's last frame, so where input is the
last thing that happened in a context before a different one, an extra
frame (capture_trigger 'input', as event-driven recorders write) closes the
span just after it.

The tables carry every column screenpipe's migrations give them
(screenpipe/screenpipe 67f4c43, crates/screenpipe-db/src/migrations:
`frames` as rebuilt by 20260220000000 plus 20260309000000's `cloud_blob_id`
and 20260312000000's `full_text`, and the later `elements_ref_frame_id`;
`ui_events` as created by 20250202000000), unused ones left NULL. Every
input event names the window that received it, as the layout allows:
`app_name` and `window_title` always, and `frame_id` — the latest frame on
its screen at or before it that shows that app, or NULL when the screen has
none within 300 s (a click into a window whose frame comes after it)."""

from __future__ import annotations

import bisect
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import apsw

from .calendar import iso_utc
from .records import DayPlan, PlannedInput, PlannedSnapshot
from .trees import UiNode
from .world import MONITORS

if TYPE_CHECKING:
    from apsw import SQLiteValue, SQLiteValues

# screenpipe's own tables, as its migrations leave them (module docstring);
# tests/support/screenpipe.py builds its test databases from this text too.
SCREENPIPE_DDL = """
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
CREATE TABLE ui_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    timestamp DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    session_id TEXT,
    relative_ms INTEGER NOT NULL DEFAULT 0,
    event_type TEXT NOT NULL,
    x INTEGER, y INTEGER, delta_x INTEGER, delta_y INTEGER,
    button INTEGER, click_count INTEGER, key_code INTEGER, modifiers INTEGER,
    text_content TEXT, text_length INTEGER,
    app_name TEXT, app_pid INTEGER, window_title TEXT, browser_url TEXT,
    element_role TEXT, element_name TEXT, element_value TEXT, element_description TEXT,
    element_automation_id TEXT, element_bounds TEXT,
    frame_id INTEGER,
    sync_id TEXT, machine_id TEXT, synced_at DATETIME
);
CREATE INDEX idx_ui_events_timestamp ON ui_events(timestamp);
CREATE INDEX idx_ui_events_frame_id ON ui_events(frame_id);
CREATE TABLE elements (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    frame_id INTEGER NOT NULL,
    source TEXT NOT NULL,
    role TEXT NOT NULL,
    text TEXT,
    parent_id INTEGER,
    depth INTEGER NOT NULL DEFAULT 0,
    left_bound REAL, top_bound REAL, width_bound REAL, height_bound REAL,
    confidence REAL,
    sort_order INTEGER NOT NULL DEFAULT 0,
    FOREIGN KEY (frame_id) REFERENCES frames(id),
    FOREIGN KEY (parent_id) REFERENCES elements(id)
);
CREATE INDEX idx_elements_frame_id ON elements(frame_id);
"""

DDL = SCREENPIPE_DDL + """
-- a frame showing a tree stored with an earlier frame points at it (nocta-recorder, later screenpipe)
ALTER TABLE frames ADD COLUMN elements_ref_frame_id INTEGER DEFAULT NULL;
CREATE TABLE synth_manifest (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

AX_ROLES = {
    "push button": "AXButton", "toggle button": "AXCheckBox", "link": "AXLink", "entry": "AXTextField",
    "password text": "AXTextField", "text": "AXTextArea", "document text": "AXTextArea",
    "document web": "AXWebArea", "list item": "AXRow", "table cell": "AXCell", "table row": "AXRow",
    "page tab": "AXRadioButton", "menu": "AXMenuBarItem", "menu item": "AXMenuItem", "tree item": "AXRow",
    "combo box": "AXComboBox", "heading": "AXHeading", "paragraph": "AXStaticText", "label": "AXStaticText",
    "section": "AXGroup", "panel": "AXGroup", "form": "AXGroup", "status bar": "AXGroup", "frame": "AXWindow",
    "dialog": "AXSheet", "tool bar": "AXToolbar", "list": "AXList", "table": "AXTable", "scroll pane": "AXScrollArea",
    "split pane": "AXSplitGroup", "tree": "AXOutline", "page tab list": "AXTabGroup", "menu bar": "AXMenuBar",
    "check box": "AXCheckBox", "radio button": "AXRadioButton",
}
LINK_REACH_MS = 300_000
MODIFIER_BITS = {"shift": 1, "ctrl": 2, "alt": 4, "super": 8}
KEYSYMS = {"Return": 0xFF0D, "Tab": 0xFF09, "Escape": 0xFF1B, "Delete": 0xFFFF, "BackSpace": 0xFF08,
           "Up": 0xFF52, "Down": 0xFF54, "Left": 0xFF51, "Right": 0xFF53, "Home": 0xFF50, "End": 0xFF57,
           "Page_Up": 0xFF55, "Page_Down": 0xFF56, "space": 0x20, "plus": 0x2B, "minus": 0x2D,
           **{f"F{n}": 0xFFBE + n - 1 for n in range(1, 13)}}


def _host(url: str | None) -> str:
    if not url:
        return ""
    host = urlsplit(url).netloc.lower()
    return host[4:] if host.startswith("www.") else host


def _key_code(name: str) -> tuple[int | None, int]:
    parts = name.split("+")
    modifiers = sum(MODIFIER_BITS.get(p, 0) for p in parts[:-1])
    last = parts[-1]
    code = KEYSYMS.get(last)
    if code is None and len(last) == 1:
        code = ord(last.lower())
    return code, modifiers


class NoctaSink:
    def __init__(self, path: Path) -> None:
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))   # private like a capture store
        self.connection = apsw.Connection(str(path))
        self.connection.execute(DDL)
        self.next_frame = 1
        self.next_element = 1
        self.next_event = 1

    def write_day(self, plan: DayPlan) -> None:
        frames = self._frames(plan)
        frame_rows, element_rows = [], []
        tree_frame: dict[int, int] = {}
        frame_times: dict[int, list[tuple[int, int, str]]] = {0: [], 1: []}
        for ts, _order, snap, trigger in frames:
            frame_id = self.next_frame
            self.next_frame += 1
            ref = None
            if snap.tree is not None:
                if snap.tree in tree_frame:
                    ref = tree_frame[snap.tree]
                else:
                    tree_frame[snap.tree] = frame_id
                    element_rows.extend(self._elements(plan.trees[snap.tree].tree.nodes, frame_id, snap.monitor))
            url = snap.browser_url if snap.app.app == "firefox" else None
            frame_rows.append((frame_id, iso_utc(ts), snap.app.display, snap.title, int(snap.focused), url,
                               MONITORS[snap.monitor].device, trigger, ref))
            frame_times[snap.monitor].append((ts, frame_id, snap.app.display))
        events = self._events(plan, frame_times)
        with self.connection:
            self.connection.executemany(
                "INSERT INTO frames(id, timestamp, app_name, window_name, focused, browser_url, device_name, "
                "capture_trigger, elements_ref_frame_id) VALUES(?,?,?,?,?,?,?,?,?)", frame_rows)
            self.connection.executemany(
                "INSERT INTO elements(id, frame_id, source, role, text, parent_id, depth, left_bound, top_bound, "
                "width_bound, height_bound, confidence, sort_order) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)", element_rows)
            self.connection.executemany(
                "INSERT INTO ui_events(id, timestamp, relative_ms, event_type, x, y, delta_x, delta_y, button, "
                "click_count, key_code, modifiers, text_content, text_length, app_name, app_pid, window_title, "
                "browser_url, element_role, element_name, element_description, element_bounds, frame_id) "
                "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", events)

    # -- frames ---------------------------------------------------------------------------------------
    def _frames(self, plan: DayPlan) -> list[tuple[int, int, PlannedSnapshot, str]]:
        """Snapshots as frames, plus a closing frame after input that would
        otherwise fall outside its context's frame span."""
        frames = [(s.ts_ms, i, s, s.trigger) for i, s in enumerate(plan.snapshots)]
        closing: dict[tuple[int, int], PlannedInput] = {}
        for monitor in (0, 1):
            snaps = [s for s in plan.snapshots if s.monitor == monitor]
            times = [s.ts_ms for s in snaps]
            for event in plan.inputs:
                if event.monitor != monitor:
                    continue
                i = bisect.bisect_right(times, event.end_ms)
                following = snaps[i] if i < len(snaps) else None
                if (following is not None and following.app.app == event.app.app
                        and _host(following.browser_url) == _host(event.url)
                        and following.ts_ms - event.end_ms <= 300_000):
                    continue
                key = (monitor, i)
                if key not in closing or closing[key].end_ms <= event.end_ms:
                    closing[key] = event
        times_by_monitor = {m: [s.ts_ms for s in plan.snapshots if s.monitor == m] for m in (0, 1)}
        for n, ((monitor, _following), event) in enumerate(sorted(closing.items(), key=lambda kv: kv[0])):
            times = times_by_monitor[monitor]
            after = bisect.bisect_right(times, event.end_ms)
            room = (times[after] - event.end_ms) // 2 if after < len(times) else 150
            ts = event.end_ms + min(150, room)
            snap = PlannedSnapshot(ts, monitor, "input", event.app, 0, event.title, event.url, False, True, None,
                                   None, event.url)
            frames.append((ts, len(plan.snapshots) + n, snap, "input"))
        frames.sort(key=lambda f: (f[0], f[1]))
        return frames

    def _elements(self, nodes: tuple[UiNode, ...], frame_id: int, monitor: int) -> list[SQLiteValues]:
        screen = MONITORS[monitor]
        base = self.next_element
        self.next_element += len(nodes)
        rows: list[SQLiteValues] = []
        for index, node in enumerate(nodes):
            text = node.name or node.labelled_by or None
            rows.append((base + index, frame_id, "accessibility", AX_ROLES.get(node.role, "AXGroup"), text,
                         base + node.parent if node.parent >= 0 else None, node.depth,
                         round((node.x - screen.x) / screen.w, 6), round((node.y - screen.y) / screen.h, 6),
                         round(node.w / screen.w, 6), round(node.h / screen.h, 6), None, node.ordinal))
        return rows

    # -- events ---------------------------------------------------------------------------------------
    def _events(self, plan: DayPlan, frame_times: dict[int, list[tuple[int, int, str]]]) -> list[SQLiteValues]:
        keys = {m: [ts for ts, _, _ in frame_times[m]] for m in frame_times}
        rows: list[SQLiteValues] = []

        def frame_at(monitor: int, ts: int, app: str) -> int | None:
            """The latest frame on `monitor` at or before `ts` showing `app`
            (at most 300 s back), as a recorder links an event to the frame
            of the window that received it."""
            i = bisect.bisect_right(keys[monitor], ts) - 1
            while i >= 0 and ts - keys[monitor][i] <= LINK_REACH_MS:
                if frame_times[monitor][i][2] == app:
                    return frame_times[monitor][i][1]
                i -= 1
            return None

        staged: list[tuple[int, *tuple[SQLiteValue, ...]]] = []   # (ts, the event's other columns)
        previous_app = None
        for snap in plan.snapshots:
            if not snap.focused or snap.trigger not in ("focus", "resume"):
                continue
            if snap.app.app != previous_app:
                staged.append((snap.ts_ms, 0, "app_switch", None, None, None, None, None, None, None, None, None,
                               None, snap.app.display, snap.pid, snap.title,
                               snap.url if snap.app.app == "firefox" else None, None, None, None, None,
                               frame_at(snap.monitor, snap.ts_ms, snap.app.display)))
            previous_app = snap.app.app
        for event in plan.inputs:
            screen = MONITORS[event.monitor]
            url = event.url if event.app.app == "firefox" else None
            common = (event.app.display, None, event.title, url)
            frame = frame_at(event.monitor, event.ts_ms, event.app.display)
            x = event.x - screen.x if event.x is not None else None
            y = event.y - screen.y if event.y is not None else None
            role = name = bounds = None
            if event.element is not None:
                node = plan.trees[event.element[0]].tree.nodes[event.element[1]]
                role, name = AX_ROLES.get(node.role, "AXGroup"), (node.name or node.labelled_by or "")
                bounds = json.dumps({"x": node.x - screen.x, "y": node.y - screen.y, "width": node.w,
                                     "height": node.h}, separators=(",", ":"))
            if event.kind == "click":
                staged.append((event.ts_ms, 0, "click", x, y, None, None, event.button, 1, None, None, None, None,
                               *common, role, name, None, bounds, frame))
            elif event.kind == "text":
                staged.append((event.ts_ms, event.end_ms - event.ts_ms, "text", None, None, None, None, None, None,
                               None, None, None, event.count, *common, role, name, None, bounds, frame))
            elif event.kind == "copy":
                staged.append((event.ts_ms, 0, "clipboard", None, None, None, None, None, None, None, None, None,
                               None, *common, None, None, None, None, frame))
            elif event.kind == "scroll":
                staged.append((event.ts_ms, event.end_ms - event.ts_ms, "scroll", x, y, 0, -event.count, None, None,
                               None, None, None, None, *common, None, None, None, None, frame))
            else:
                code, modifiers = _key_code(event.key or "")
                step = (event.end_ms - event.ts_ms) // max(1, event.count - 1) if event.count > 1 else 0
                for n in range(event.count):
                    staged.append((event.ts_ms + n * step, 0, "key", None, None, None, None, None, None, code,
                                   modifiers, None, None, *common, None, None, None, None, frame))
        staged.sort(key=lambda row: row[0])
        for row in staged:
            rows.append((self.next_event, iso_utc(row[0]), *row[1:]))
            self.next_event += 1
        return rows

    def write_manifest(self, text: str) -> None:
        with self.connection:
            self.connection.execute("INSERT INTO synth_manifest(key, value) VALUES('synth_manifest', ?)",
                                    (text,))

    def close(self) -> None:
        self.connection.close()
