"""Reading a nocta-recorder / screenpipe-family capture database (tables
`frames`, `ui_events`, `elements`) into the same records as Phantom's store.

That layout records UTC instants as ISO text and no time zone, so its
snapshots carry offset 0 and zone 'UTC' (render with `--tz` for local time).
Typed text in `ui_events.text_content` is only ever measured (its length
becomes a key count) and never carried further. Device names become monitor
numbers in sorted order. Click targets come from the recorded element
name and role; a click without them is unresolved, never guessed. URLs
keep only what Phantom's own capture keeps (`core.urls.sanitize_url`):
credentials, tokens and fragments nothing reads never leave this module,
so `phantom import` never copies them either.
"""

from __future__ import annotations

from bisect import bisect_left
from datetime import datetime, timezone

import apsw

from core.urls import sanitize_url

from ..records import Capture, Element, InputEvent, Snapshot

REQUIRED_FRAME_COLUMNS = frozenset({"id", "timestamp", "app_name", "window_name", "browser_url"})
_KINDS = {"click": "click", "key": "key", "text": "text", "clipboard": "copy", "scroll": "scroll"}


def looks_like_nocta(tables: set[str]) -> bool:
    return "frames" in tables


def _columns(connection: apsw.Connection, table: str) -> set[str]:
    return {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}


def _iso(ts_ms: int) -> str:
    moment = datetime.fromtimestamp(ts_ms / 1000, tz=timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond:06d}"


def _ms(text: str) -> int | None:
    """UTC ms from the layout's ISO text (offset suffixes are UTC by contract)."""
    try:
        value = datetime.fromisoformat(text[:26] if len(text) >= 26 and text[19] == "." else text[:19])
    except (ValueError, TypeError, IndexError):
        return None
    return int(value.replace(tzinfo=timezone.utc).timestamp() * 1000)


def zone_near(connection: apsw.Connection, ts_ms: int) -> str | None:
    has_rows = connection.execute("SELECT 1 FROM frames LIMIT 1").fetchone()
    return "UTC" if has_rows else None


def span(connection: apsw.Connection) -> tuple[int | None, int | None]:
    first, last = connection.execute("SELECT min(timestamp), max(timestamp) FROM frames").fetchone()
    return (_ms(first) if first else None), (_ms(last) if last else None)


def read(connection: apsw.Connection, since_ms: int, until_ms: int) -> Capture:
    frame_columns = _columns(connection, "frames")
    missing = REQUIRED_FRAME_COLUMNS - frame_columns
    if missing:
        raise ValueError(f"frames table lacks {', '.join(sorted(missing))}")
    device = "device_name" if "device_name" in frame_columns else "''"
    focused = "focused" if "focused" in frame_columns else "1"
    trigger = "capture_trigger" if "capture_trigger" in frame_columns else "'capture'"
    bounds = (_iso(since_ms), _iso(until_ms))
    connection.execute("BEGIN")
    try:
        rows = list(connection.execute(
            f"SELECT id, timestamp, {device}, {trigger}, app_name, window_name, browser_url, {focused} "
            "FROM frames WHERE timestamp >= ? AND timestamp < ? ORDER BY timestamp, id", bounds))
        devices = sorted({r[2] or "" for r in rows})
        monitor_of = {name: index for index, name in enumerate(devices)}
        snapshots = []
        for r in rows:
            ts = _ms(r[1])
            app = (r[4] or "").strip()
            if ts is None or not app:
                continue
            snapshots.append(Snapshot(r[0], ts, 0, "UTC", monitor_of[r[2] or ""], r[3] or "capture",
                                      app, r[5] or "", sanitize_url(r[6]), False, bool(r[7])))
        inputs = _inputs(connection, bounds) if _has_table(connection, "ui_events") else ()
    finally:
        connection.execute("COMMIT")
    return Capture("nocta", 0, since_ms, until_ms, tuple(snapshots),
                   _on_nearest_monitor(inputs, snapshots), ())


def _on_nearest_monitor(inputs, snapshots) -> tuple[InputEvent, ...]:
    """The layout does not say which screen an event happened on; take the
    monitor of the nearest frame in time."""
    if len({s.monitor for s in snapshots}) <= 1:
        return tuple(inputs)
    times = [s.ts_ms for s in snapshots]
    placed = []
    for event in inputs:
        index = bisect_left(times, event.ts_ms)
        candidates = [i for i in (index - 1, index) if 0 <= i < len(times)]
        nearest = min(candidates, key=lambda i: (abs(times[i] - event.ts_ms), i))
        placed.append(event._replace(monitor=snapshots[nearest].monitor))
    return tuple(placed)


def _inputs(connection: apsw.Connection, bounds: tuple[str, str]) -> tuple[InputEvent, ...]:
    columns = _columns(connection, "ui_events")
    pick = lambda name: name if name in columns else "NULL"  # noqa: E731
    events = []
    for r in connection.execute(
            f"SELECT id, timestamp, event_type, {pick('x')}, {pick('y')}, {pick('text_content')}, "
            f"{pick('app_name')}, {pick('element_name')}, {pick('element_role')} FROM ui_events "
            "WHERE timestamp >= ? AND timestamp < ? ORDER BY timestamp, id", bounds):
        kind = _KINDS.get(r[2] or "")
        ts = _ms(r[1])
        if kind is None or ts is None:
            continue
        count = max(1, len(r[5] or "")) if kind == "text" else 1
        element = resolution = None
        if kind == "click":
            name, role = (r[7] or "").strip(), (r[8] or "").strip()
            if name or role:
                app = (r[6] or "").strip()
                path = f"{app or 'app'}/{role or 'unknown'}" + (f"[@name='{name}']" if name else "")
                element = Element(-r[0], role or "unknown", name, None, path)
                resolution = "exact" if name else "zone"
            else:
                resolution = "none"
        key = (r[5] or None) if kind == "key" and r[5] and len(r[5]) < 32 else None
        events.append(InputEvent(r[0], ts, ts, 0, kind, count, key, r[3], r[4], resolution,
                                 element, None, None))
    return tuple(events)


def _has_table(connection: apsw.Connection, name: str) -> bool:
    return connection.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?",
                              (name,)).fetchone() is not None
