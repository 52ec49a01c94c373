"""Reading a nocta-recorder / screenpipe-family capture database (tables
`frames`, `ui_events`, `elements`) into the same records as Phantom's store.

That layout records UTC instants as ISO text and no time zone, so its
snapshots carry offset 0 and zone 'UTC' (render with `--tz` for local time).
Typed text in `ui_events.text_content` is only ever measured (its length
becomes a key count) and never carried further. Device names become monitor
numbers in sorted order. Click targets come from the recorded element
name and role; a click without them is unresolved, never guessed.
"""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_left
from datetime import datetime, timedelta, timezone
from typing import NamedTuple

import apsw
import orjson

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


_USUAL = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:[0-5]\d\.\d{6}", re.ASCII)
_EPOCH = datetime(1970, 1, 1)
_MICROSECOND = timedelta(microseconds=1)
_UNSEEN = object()


class _Instants:
    """`_ms` over the many instants of one read, several times faster for
    the layout's usual text ("2026-03-02T07:18:26.034000+00:00"): each
    distinct minute is parsed once, and seconds and microseconds are added
    as integers before the same division and truncation `_ms` makes. Any
    other text, or a minute that does not parse, goes to `_ms` itself, so
    every answer is `_ms`'s."""

    def __init__(self) -> None:
        self._minutes: dict[str, int | None] = {}

    def __call__(self, text) -> int | None:
        if type(text) is str and _USUAL.match(text):
            minute = self._minutes.get(text[:16], _UNSEEN)
            if minute is _UNSEEN:
                minute = self._minutes[text[:16]] = _minute_us(text[:16])
            if minute is not None:
                return int((minute + int(text[17:19]) * 1_000_000 + int(text[20:26])) / 10**6 * 1000)
        return _ms(text)


def _minute_us(prefix: str) -> int | None:
    try:
        value = datetime.fromisoformat(prefix)
    except ValueError:
        return None
    return (value - _EPOCH) // _MICROSECOND if value.tzinfo is None else None


def zone_near(connection: apsw.Connection, ts_ms: int) -> str | None:
    has_rows = connection.execute("SELECT 1 FROM frames LIMIT 1").fetchone()
    return "UTC" if has_rows else None


def span(connection: apsw.Connection) -> tuple[int | None, int | None]:
    first, last = connection.execute("SELECT min(timestamp), max(timestamp) FROM frames").fetchone()
    return (_ms(first) if first else None), (_ms(last) if last else None)


class Rows(NamedTuple):
    """A window's rows as SQLite returned them (with the queries that read
    them), and a sha256 of both."""

    since_ms: int
    until_ms: int
    frames: list[tuple]
    events: list[tuple]
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
                  f"{focused} FROM frames "
                  "WHERE timestamp >= ? AND timestamp < ? ORDER BY timestamp, id")
    events_sql = _events_sql(connection) if _has_table(connection, "ui_events") else ""
    bounds = (_iso(since_ms), _iso(until_ms))
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
    devices = sorted({r[2] or "" for r in rows.frames})
    monitor_of = {name: index for index, name in enumerate(devices)}
    instant = _Instants()
    snapshots = []
    for r in rows.frames:
        ts = instant(r[1])
        app = (r[4] or "").strip()
        if ts is None or not app:
            continue
        snapshots.append(Snapshot(r[0], ts, 0, "UTC", monitor_of[r[2] or ""], r[3] or "capture",
                                  app, r[5] or "", r[6] or None, False, bool(r[7])))
    return Capture("nocta", 0, rows.since_ms, rows.until_ms, tuple(snapshots),
                   _inputs(rows.events, snapshots, instant), ())


def _opaque(value) -> str:
    """A value orjson has no form for (a blob in a foreign table), as text."""
    return bytes(value).hex() if isinstance(value, (bytes, memoryview)) else repr(value)


def _nearest_monitor(snapshots: list[Snapshot]):
    """The layout does not say which screen an event happened on; take the
    monitor of the nearest frame in time (ties: the earlier frame). With one
    monitor, that one."""
    if len({s.monitor for s in snapshots}) <= 1:
        return lambda ts: 0
    times = [s.ts_ms for s in snapshots]
    monitors = [s.monitor for s in snapshots]
    last = len(times) - 1

    def nearest(ts: int) -> int:
        index = bisect_left(times, ts)
        if index == 0:
            return monitors[0]
        if index > last:
            return monitors[last]
        before = index - 1
        return monitors[before if abs(times[before] - ts) <= abs(times[index] - ts) else index]

    return nearest


def _events_sql(connection: apsw.Connection) -> str:
    columns = _columns(connection, "ui_events")
    pick = lambda name: name if name in columns else "NULL"  # noqa: E731
    return (f"SELECT id, timestamp, event_type, {pick('x')}, {pick('y')}, {pick('text_content')}, "
            f"{pick('app_name')}, {pick('element_name')}, {pick('element_role')} FROM ui_events "
            "WHERE timestamp >= ? AND timestamp < ? ORDER BY timestamp, id")


def _inputs(rows: list[tuple], snapshots: list[Snapshot], instant: _Instants) -> tuple[InputEvent, ...]:
    monitor_at = _nearest_monitor(snapshots)
    kinds = _KINDS
    events = []
    for r in rows:
        kind = kinds.get(r[2] or "")
        if kind is None:
            continue
        ts = instant(r[1])
        if ts is None:
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
        events.append(InputEvent(r[0], ts, ts, monitor_at(ts), kind, count, key, r[3], r[4],
                                 resolution, element, None, None))
    return tuple(events)


def _has_table(connection: apsw.Connection, name: str) -> bool:
    return connection.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?",
                              (name,)).fetchone() is not None
