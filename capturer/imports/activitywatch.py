"""ActivityWatch history: its JSON export, or the Python aw-server's SQLite
database, made into the moments a window was shown.

What the two formats hold (checked in ActivityWatch's own code):
- The export (`GET /api/0/export`, and a bucket's `/api/0/buckets/<id>/export`)
  is `{"buckets": {<bucket id>: bucket}}` in aw-server (aw_server/rest.py,
  api.py `export_all`) and aw-server-rust (aw-models `BucketsExport`, a map
  from id to `Bucket`). A bucket has `id`, `type`, `client`, `hostname`,
  `created`, `data` and `events`; an event has `timestamp` (RFC 3339, UTC),
  `duration` (seconds, a float; 0 when absent in the Rust model) and `data`,
  plus `id` in aw-server-rust's export only (aw-server scrubs it). aw-core's
  JSON schema (aw_core/schemas/export.json) describes `buckets` as an array;
  that form is read too.
- aw-core's peewee datastore (aw_datastore/storages/peewee.py, file
  `peewee-sqlite.v2.db`) has `bucketmodel(key, id, created, name, type,
  client, hostname, datastr)` and `eventmodel(id, bucket_id -> key,
  timestamp, duration, datastr)`; peewee stores `timestamp` as Python's
  `str(datetime)` in UTC ('2026-03-02 08:00:00.123000+00:00') and the
  event's `data` as JSON text in `datastr`.

Bucket types used: `currentwindow` (aw-watcher-window: data `app`, `title`),
`afkstatus` (aw-watcher-afk: data `status` 'afk' | 'not-afk') and
`web.tab.current` (aw-watcher-web: data `url`, `title`, `incognito`, …).
Other buckets are left alone.

How a window event becomes snapshots (monitor 0, focused; ActivityWatch
knows of no screens): one at its start, one every 30 s while it lasts (the
capture daemon's heartbeat, so the compiler's 90 s dwell cap never cuts a
long event short), one wherever an afk period starts (idle) or ends, one
wherever the browser's page changes during it (its URL from the web bucket),
and one at its end when nothing follows at once. Its dwell is then its
duration minus the afk time in it; where a gap of up to 300 s follows, the
compiler's rule credits the last snapshot up to 90 s of it, as for live
capture.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Callable, NamedTuple

import orjson

from .records import Hidden, History, Shown, merge_hidden

if TYPE_CHECKING:
    import apsw

HEARTBEAT_MS = 30_000
WINDOW, AFK, WEB = "currentwindow", "afkstatus", "web.tab.current"
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_MS = timedelta(milliseconds=1)
_WEB_BROWSER = re.compile(r"aw-watcher-web-([a-z0-9]+)")


class AwEvent(NamedTuple):
    start_ms: int
    duration_ms: int
    data: dict[str, object]          # the event's JSON `data`, as the source wrote it

    @property
    def end_ms(self) -> int:
        return self.start_ms + self.duration_ms


@dataclass(frozen=True, slots=True)
class AwBucket:
    id: str
    type: str
    hostname: str
    events: tuple[AwEvent, ...]
    unreadable: int = 0            # events whose time or data could not be read


class AwFormatError(ValueError):
    """The file is not ActivityWatch data as its servers write it."""


def instant_ms(text: object) -> int | None:
    """UTC ms from an ActivityWatch timestamp (RFC 3339 or peewee's text)."""
    if not isinstance(text, str):
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)   # aw-core writes UTC; its parser assumes it too
    return (moment - _EPOCH) // _MS


def _duration_ms(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or value < 0:
        return 0
    return round(value * 1000)


def _events(raw_events: Iterable[object]) -> tuple[tuple[AwEvent, ...], int]:
    events: list[AwEvent] = []
    unreadable = 0
    for raw in raw_events:
        if not isinstance(raw, dict):
            unreadable += 1
            continue
        start = instant_ms(raw.get("timestamp"))
        data = raw.get("data", {})
        if start is None or not isinstance(data, dict):
            unreadable += 1
            continue
        events.append(AwEvent(start, _duration_ms(raw.get("duration", 0)), data))
    events.sort(key=lambda e: (e.start_ms, e.duration_ms))
    return tuple(events), unreadable


def read_export(path: Path) -> tuple[AwBucket, ...]:
    """The buckets of an export file."""
    try:
        document = orjson.loads(path.read_bytes())
    except orjson.JSONDecodeError as exc:
        raise AwFormatError(f"{path} is not JSON ({exc.msg} at character {exc.pos})") from None
    buckets = document.get("buckets") if isinstance(document, dict) else None
    if isinstance(buckets, dict):
        items = [(key, value) for key, value in buckets.items()]
    elif isinstance(buckets, list):
        items = [(value.get("id") if isinstance(value, dict) else None, value) for value in buckets]
    else:
        raise AwFormatError(f"{path} is JSON but not an ActivityWatch export (no 'buckets')")
    result = []
    for key, bucket in items:
        if not isinstance(bucket, dict) or not isinstance(bucket.get("events", []), list):
            raise AwFormatError(f"{path}: bucket {str(key)[:80]!r} is not an ActivityWatch bucket")
        bucket_id = str(bucket.get("id") or key or "")
        events, unreadable = _events(bucket.get("events") or [])
        result.append(AwBucket(bucket_id, str(bucket.get("type", "")), str(bucket.get("hostname", "")),
                               events, unreadable))
    return tuple(sorted(result, key=lambda b: b.id))


def looks_like_aw_database(tables: set[str]) -> bool:
    return {"bucketmodel", "eventmodel"} <= tables


def read_database(connection: apsw.Connection) -> tuple[AwBucket, ...]:
    """The buckets of an aw-core peewee database (open read-only)."""
    buckets = list(connection.execute("SELECT key, id, type, hostname FROM bucketmodel ORDER BY id"))
    raw: dict[int, list[dict[str, object]]] = {key: [] for key, *_ in buckets}
    for bucket_key, timestamp, duration, datastr in connection.execute(
            "SELECT bucket_id, timestamp, duration, datastr FROM eventmodel ORDER BY timestamp, id"):
        try:
            data = orjson.loads(datastr) if datastr else {}
        except orjson.JSONDecodeError:
            data = None
        if bucket_key in raw:
            raw[bucket_key].append({"timestamp": timestamp, "duration": duration, "data": data})
    result = []
    for key, bucket_id, bucket_type, hostname in buckets:
        events, unreadable = _events(raw[key])
        result.append(AwBucket(str(bucket_id), str(bucket_type or ""), str(hostname or ""), events, unreadable))
    return tuple(result)


# -- the timeline -------------------------------------------------------------------------------------
Exclusion = Callable[..., "str | None"]   # privacy.exclusion with the rules bound


def window_hosts(buckets: tuple[AwBucket, ...]) -> tuple[str, ...]:
    return tuple(sorted({b.hostname for b in buckets if b.type == WINDOW}))


def history(buckets: tuple[AwBucket, ...], host: str, *, exclusion: Exclusion,
            sanitize_url: Callable[[str | None], str | None], browsers: tuple[str, ...],
            known: set[str], description: str) -> History:
    """The window events of `host` as snapshots and blind spots; events whose
    key is in `known` (imported before) are left out."""
    window_events = sorted(((b.id, e) for b in buckets if b.type == WINDOW and b.hostname == host
                            for e in b.events), key=lambda item: (item[1].start_ms, item[0]))
    afk = _afk_periods([b for b in buckets if b.type == AFK and b.hostname == host])
    web = _web_sources([b for b in buckets if b.type == WEB], host, browsers)
    shown: list[Shown] = []
    pieces: list[Hidden] = []
    already = 0
    for index, (bucket_id, event) in enumerate(window_events):
        key = f"{bucket_id}@{event.start_ms}"
        if key in known:
            already += 1
            continue
        app = str(event.data.get("app") or "").strip()
        title = str(event.data.get("title") or "")
        if not app:
            continue
        following = window_events[index + 1][1].start_ms if index + 1 < len(window_events) else None
        end = event.end_ms if following is None else max(event.start_ms, min(event.end_ms, following))
        pages = [source for source in web if source.shows(app)]
        points = _points(event.start_ms, end, afk, pages, closes=following is None or following > end)
        for n, (ts, trigger) in enumerate(points):
            at = min(ts, end - 1) if end > event.start_ms else ts     # the state just before an end
            page = next((p for p in (source.at(at) for source in pages) if p is not None), None)
            page_data = page.data if page is not None else {}
            reason = exclusion(app, title, page_title=str(page_data.get("title") or ""),
                               private=bool(page_data.get("incognito")))
            if reason is not None:
                until = points[n + 1][0] if n + 1 < len(points) else end
                pieces.append(Hidden((key,), ts, max(ts, until), 0, reason))
                continue
            url = sanitize_url(str(page_data.get("url") or "")) if page is not None else None
            shown.append(Shown(key, ts, 0, trigger, app, title, url, _inside(afk, at)))
    return History("activitywatch", description, tuple(shown), merge_hidden(pieces), (), already)


def _points(start: int, end: int, afk: tuple[list[int], list[int]], pages: list["_WebSource"],
            closes: bool) -> list[tuple[int, str]]:
    """(instant, trigger) of every snapshot of a window shown over [start, end)."""
    points = {start: "imported"}
    for ts in range(start + HEARTBEAT_MS, end, HEARTBEAT_MS):
        points.setdefault(ts, "heartbeat")
    starts, ends = afk
    first = bisect_right(ends, start)          # afk periods that end after the window starts
    for a, b in zip(starts[first:], ends[first:]):
        if a >= end:
            break
        if start < a < end:
            points[a] = "idle"
        if start < b < end:
            points[b] = "active"
    for source in pages:
        for ts in source.starts_between(start, end):
            points.setdefault(ts, "url")
    if closes and end > start:
        points.setdefault(end, "heartbeat")
    return sorted(points.items())


def _afk_periods(buckets: list[AwBucket]) -> tuple[list[int], list[int]]:
    """Merged afk periods as sorted start and end lists."""
    spans = sorted((e.start_ms, e.end_ms) for b in buckets for e in b.events
                   if e.data.get("status") == "afk" and e.duration_ms > 0)
    starts: list[int] = []
    ends: list[int] = []
    for a, b in spans:
        if ends and a <= ends[-1]:
            ends[-1] = max(ends[-1], b)
        else:
            starts.append(a)
            ends.append(b)
    return starts, ends


def _inside(afk: tuple[list[int], list[int]], ts: int) -> bool:
    starts, ends = afk
    index = bisect_right(starts, ts) - 1
    return index >= 0 and ts < ends[index]


class _WebSource:
    """One web bucket: the pages a browser showed, and which window apps it
    speaks for (its browser's name from the bucket id, 'aw-watcher-web-firefox'
    speaks for Firefox; a bucket id naming none speaks for every browser)."""

    def __init__(self, bucket: AwBucket, browsers: tuple[str, ...]) -> None:
        self.events = [e for e in bucket.events if e.data.get("url")]
        self.starts = [e.start_ms for e in self.events]
        match = _WEB_BROWSER.match(bucket.id)
        self.browser = match.group(1) if match else None
        self.browsers = browsers

    def shows(self, app: str) -> bool:
        name = app.casefold()
        if self.browser is not None:
            return self.browser in name
        return name in self.browsers

    def at(self, ts: int) -> AwEvent | None:
        index = bisect_right(self.starts, ts) - 1
        if index < 0:
            return None
        event = self.events[index]
        return event if ts < max(event.end_ms, event.start_ms + 1) else None

    def starts_between(self, start: int, end: int) -> list[int]:
        return self.starts[bisect_right(self.starts, start):bisect_right(self.starts, end - 1)]


def _web_sources(buckets: list[AwBucket], host: str, browsers: tuple[str, ...]) -> list[_WebSource]:
    """The host's web buckets; when none carries the host's name, those that
    carry none (the browser extension may report 'unknown')."""
    mine = [b for b in buckets if b.hostname == host]
    if not mine:
        mine = [b for b in buckets if b.hostname in ("", "unknown")]
    return [_WebSource(b, tuple(name.casefold() for name in browsers)) for b in mine]
