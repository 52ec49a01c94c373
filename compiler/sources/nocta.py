"""Reading a nocta-recorder / screenpipe-family capture database (tables
`frames`, `ui_events`, `elements`) into the same records as Phantom's store.

That layout records UTC instants as ISO text and no time zone, so its
snapshots carry offset 0 and zone 'UTC' (render with `--tz` for local time).
Typed text in `ui_events.text_content` is only ever measured (its length
becomes a key count) and never carried further. Device names become monitor
numbers in sorted order. Click targets come from the recorded element
name and role; a click without them is unresolved, never guessed.

The columns read were checked against screenpipe's own migrations
(screenpipe/screenpipe, crates/screenpipe-db/src/migrations, at 67f4c43):
`frames.device_name` (20250131232938), `browser_url` (20250219212616),
`app_name`, `window_name`, `focused` (20250223204844), `capture_trigger`
(20260220000000); `ui_events` as created in 20250202000000, whose
`app_name`, `window_title` and `frame_id` say which window an event went to.
screenpipe's recorder fills `app_name` on every event and leaves `frame_id`
NULL (its `UiEvent::with_frame` has no caller at that commit); nocta-recorder
fills both. Optional columns an older database lacks are read as defaults.

Which window received an event (the "link"), in this order:
1. `frame_id` names a frame of this window showing the event's `app_name`
   (or the event names no app): that frame;
2. `app_name` names an app: the frame showing that app nearest in time (on
   any device, within 300 s);
3. neither: the frame nearest in time on any device — the layout's old
   rule, which puts input typed just before a switch on the next app's
   screen. Such events carry no `snapshot_id`, and the document's blind
   spots count them.

URLs keep only what Phantom's own capture keeps (`core.urls.sanitize_url`):
credentials, tokens and fragments nothing reads never leave this module, so
`phantom import` never copies them either.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left
from datetime import datetime, timedelta, timezone
from typing import Any, NamedTuple

import apsw
import orjson

from core.store.connection import has_table
from core.urls import sanitize_url

from ..records import CHRONOLOGICAL, Capture, Element, InputEvent, Snapshot

REQUIRED_FRAME_COLUMNS = frozenset({"id", "timestamp", "app_name", "window_name", "browser_url"})
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_MS = timedelta(milliseconds=1)
_KINDS = {"click": "click", "key": "key", "text": "text", "clipboard": "copy", "scroll": "scroll"}


def looks_like_nocta(tables: set[str]) -> bool:
    return "frames" in tables


def _columns(connection: apsw.Connection, table: str) -> set[str]:
    return {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}


def _text_bounds(since_ms: int, until_ms: int) -> tuple[str, str]:
    """Text bounds for `timestamp >= ? AND timestamp < ?` that keep every row
    of the window whatever form its text takes ('T' or a space between date
    and time, a fraction or none — screenpipe omits a zero fraction), so the
    index still narrows the scan; rows are then kept by their parsed instant.
    The lower bound uses a space and the upper a 'T' (' ' < 'T'), a second
    wider each way."""
    def text(ms: int, separator: str) -> str:
        moment = datetime.fromtimestamp(ms // 1000, tz=timezone.utc)
        return moment.strftime(f"%Y-%m-%d{separator}%H:%M:%S")

    return text(since_ms - 1000, " "), text(until_ms + 1000, "T")


def _ms(text: str) -> int | None:
    """UTC ms from the layout's ISO text ('T' or space, any fraction, an
    offset or 'Z'; a time without an offset is UTC by the layout's contract)."""
    try:
        value = datetime.fromisoformat(text)
    except (ValueError, TypeError):
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return (value - _EPOCH) // _MS   # exact: float seconds * 1000 can land a millisecond short


def zone_near(connection: apsw.Connection, ts_ms: int) -> str | None:
    has_rows = connection.execute("SELECT 1 FROM frames LIMIT 1").fetchone()
    return "UTC" if has_rows else None


def span(connection: apsw.Connection) -> tuple[int | None, int | None]:
    """First and last instant of any frame or input event."""
    bounds = list(_one_row(connection, "SELECT min(timestamp), max(timestamp) FROM frames"))
    if has_table(connection, "ui_events"):
        bounds += _one_row(connection, "SELECT min(timestamp), max(timestamp) FROM ui_events")
    parsed = [_ms(t) for t in bounds if t]
    instants = [t for t in parsed if t is not None]
    return (min(instants), max(instants)) if instants else (None, None)


def _one_row(connection: apsw.Connection, sql: str) -> tuple[Any, ...]:
    """The row of an aggregate query (which always returns exactly one)."""
    row = connection.execute(sql).fetchone()
    assert row is not None
    return tuple(row)


class Rows(NamedTuple):
    """A window's rows as SQLite returned them (with the queries that read
    them), and a sha256 of both: what the compiled-document cache checks."""

    since_ms: int
    until_ms: int
    frames: list[tuple[Any, ...]]
    events: list[tuple[Any, ...]]
    digest: str


def read(connection: apsw.Connection, since_ms: int, until_ms: int) -> Capture:
    return capture(fetch(connection, since_ms, until_ms))


def fetch(connection: apsw.Connection, since_ms: int, until_ms: int) -> Rows:
    frame_columns = _columns(connection, "frames")
    missing = REQUIRED_FRAME_COLUMNS - frame_columns
    if missing:
        raise ValueError(f"frames table lacks {', '.join(sorted(missing))}")
    device = "device_name" if "device_name" in frame_columns else "''"
    focused = "focused" if "focused" in frame_columns else "1"
    trigger = "capture_trigger" if "capture_trigger" in frame_columns else "'capture'"
    frames_sql = (f"SELECT id, timestamp, {device}, {trigger}, app_name, window_name, browser_url, "
                  f"{focused} FROM frames WHERE timestamp >= ? AND timestamp < ? ORDER BY timestamp, id")
    events_sql = _events_sql(connection) if has_table(connection, "ui_events") else ""
    bounds = _text_bounds(since_ms, until_ms)
    connection.execute("BEGIN")
    try:
        frames = connection.execute(frames_sql, bounds).fetchall()
        events = connection.execute(events_sql, bounds).fetchall() if events_sql else []
    finally:
        connection.execute("COMMIT")
    digest = hashlib.sha256()
    for sql, rows in ((frames_sql, frames), (events_sql, events)):
        digest.update(sql.encode())
        digest.update(orjson.dumps(rows, default=_opaque))
    return Rows(since_ms, until_ms, frames, events, digest.hexdigest())


def capture(rows: Rows) -> Capture:
    """The compiler's records made from fetched rows."""
    since_ms, until_ms = rows.since_ms, rows.until_ms
    devices = sorted({r[2] or "" for r in rows.frames})
    monitor_of = {name: index for index, name in enumerate(devices)}
    snapshots = []
    for r in rows.frames:
        ts = _ms(r[1])
        app = (r[4] or "").strip()
        if ts is None or not since_ms <= ts < until_ms or not app:
            continue
        snapshots.append(Snapshot(r[0], ts, 0, "UTC", monitor_of[r[2] or ""], r[3] or "capture",
                                  app, r[5] or "", sanitize_url(r[6]), False, bool(r[7])))
    snapshots.sort(key=CHRONOLOGICAL)   # timestamps as text may not sort as instants do
    raw = _inputs(rows.events, since_ms, until_ms)
    return Capture("nocta", 0, since_ms, until_ms, tuple(snapshots), _placed(raw, snapshots), ())


def _opaque(value: Any) -> str:
    """A value orjson has no form for (a blob in a foreign table), as text."""
    return bytes(value).hex() if isinstance(value, (bytes, memoryview)) else repr(value)


# A frame further away in time than the compiler's session gap is not the
# same stretch of work, so an app name does not link an event to it.
LINK_REACH_MS = 300_000


class _Timeline:
    """Frames in time order, for nearest-in-time look-ups."""

    def __init__(self, snapshots: list[Snapshot]) -> None:
        self.snapshots = snapshots
        self.times = [s.ts_ms for s in snapshots]

    def nearest(self, ts_ms: int, reach_ms: int | None = None) -> Snapshot | None:
        """The frame nearest `ts_ms` (ties: the earlier), if within reach."""
        index = bisect_left(self.times, ts_ms)
        candidates = [i for i in (index - 1, index) if 0 <= i < len(self.times)]
        if not candidates:
            return None
        best = min(candidates, key=lambda i: (abs(self.times[i] - ts_ms), i))
        if reach_ms is not None and abs(self.times[best] - ts_ms) > reach_ms:
            return None
        return self.snapshots[best]


def _placed(raw: tuple[tuple[InputEvent, int | None, str], ...],
            snapshots: list[Snapshot]) -> tuple[InputEvent, ...]:
    """Each event on the monitor of the frame that received it, with that
    frame as its `snapshot_id` (the module docstring's three rules)."""
    by_id = {s.id: s for s in snapshots}
    everything = _Timeline(snapshots)
    by_app: dict[str, list[Snapshot]] = {}
    for snapshot in snapshots:
        by_app.setdefault(snapshot.app, []).append(snapshot)
    app_timelines = {app: _Timeline(frames) for app, frames in by_app.items()}
    placed = []
    for event, frame_id, app in raw:
        owner = by_id.get(frame_id) if frame_id is not None else None
        if owner is not None and app and owner.app != app:
            owner = None
        if owner is None and app and app in app_timelines:
            owner = app_timelines[app].nearest(event.ts_ms, LINK_REACH_MS)
        if owner is not None:
            placed.append(event._replace(monitor=owner.monitor, snapshot_id=owner.id))
            continue
        nearest = everything.nearest(event.ts_ms)
        placed.append(event._replace(monitor=nearest.monitor) if nearest is not None else event)
    return tuple(placed)


def _events_sql(connection: apsw.Connection) -> str:
    """The `ui_events` query for the columns this database has."""
    columns = _columns(connection, "ui_events")

    def pick(name: str) -> str:
        return name if name in columns else "NULL"

    return (f"SELECT id, timestamp, event_type, {pick('x')}, {pick('y')}, {pick('text_content')}, "
            f"{pick('app_name')}, {pick('element_name')}, {pick('element_role')}, {pick('frame_id')} "
            "FROM ui_events WHERE timestamp >= ? AND timestamp < ? ORDER BY timestamp, id")


def _inputs(rows: list[tuple[Any, ...]], since_ms: int,
            until_ms: int) -> tuple[tuple[InputEvent, int | None, str], ...]:
    """(event, frame_id, app_name) per usable `ui_events` row, in time order."""
    events: list[tuple[InputEvent, int | None, str]] = []
    for r in rows:
        kind = _KINDS.get(r[2] or "")
        ts = _ms(r[1])
        if kind is None or ts is None or not since_ms <= ts < until_ms:
            continue
        count = max(1, len(r[5] or "")) if kind == "text" else 1
        app = (r[6] or "").strip()
        element = resolution = None
        if kind == "click":
            name, role = (r[7] or "").strip(), (r[8] or "").strip()
            if name or role:
                path = f"{app or 'app'}/{role or 'unknown'}" + (f"[@name='{name}']" if name else "")
                element = Element(-r[0], role or "unknown", name, None, path)
                resolution = "exact" if name else "zone"
            else:
                resolution = "none"
        key = (r[5] or None) if kind == "key" and r[5] and len(r[5]) < 32 else None
        frame_id = r[9] if isinstance(r[9], int) else None
        events.append((InputEvent(r[0], ts, ts, 0, kind, count, key, r[3], r[4], resolution,
                                  element, None, None), frame_id, app))
    events.sort(key=lambda item: (item[0].ts_ms, item[0].id))   # text order need not be time order
    return tuple(events)

