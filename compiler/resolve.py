"""Which instants a request names, read against the store it is about.

A request is a day, a range, or nothing:
- a day (`today`, `yesterday`, YYYY-MM-DD) is that local calendar day in the
  zone the capture recorded nearest it (or `tz`);
- a range takes any of `compiler.when`'s forms at either end; a start alone
  runs until now, an end alone starts at the beginning of its day;
- nothing is today (`compile`, `timeline`) or the whole history (`routines`,
  `search`), as the caller chooses.
A range reaching past the days the store holds is clamped to them, and the
window says so (`Window.note`), so a 1970-2100 request answers with what
there is instead of being refused as too long. Day windows are never
clamped: a day outside the capture is an empty document, as it always was.

The current instant is an argument (`now_ms`), read by the caller at the
edge; with none, words that need it are refused.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Literal, Protocol

from .when import Instant, day_of, resolve_day, resolve_instant, start_of_day
from .window import Window, WindowError, checked_window, day_window, zone_info

Default = Literal["today", "all", "none"]


def local_iso(ms: int, zone: str) -> str:
    moment = datetime.fromtimestamp(ms / 1000, tz=timezone.utc).astimezone(zone_info(zone))
    return moment.isoformat(timespec="seconds")


class Source(Protocol):
    """What resolving needs of a capture source (`sources.CaptureSource`)."""

    def zone_near(self, ts_ms: int) -> str | None: ...

    def span(self) -> tuple[int | None, int | None]: ...


def resolve(source: Source, day: str | None, since: str | None, until: str | None, tz: str | None,
            now_ms: int | None, *, default: Default = "all", clamp: bool = True) -> Window:
    """The window a request names in `source` (a `CaptureSource`)."""
    if day is not None and (since is not None or until is not None):
        raise WindowError("give either a day or a range (since and until), not both")
    if tz:
        zone_info(tz)  # an unknown zone is the first thing to say

    def zone_at(ms: int) -> str:
        return tz or source.zone_near(ms) or "UTC"

    if day is None and since is None and until is None:
        if default == "today" and now_ms is not None:
            day = "today"
        elif default == "none":
            raise WindowError("give either a day or both since and until")
        else:
            first, last = source.span()
            zone = tz or (source.zone_near(last) if last is not None else None) or "UTC"
            return Window(first or 0, (last or 0) + 1, zone, "all")
    if day is not None:
        parsed = resolve_day(day, now_ms, zone_at)
        return day_window(parsed, zone_at(start_of_day(parsed, "UTC") + 43_200_000))
    if (since is None or until is None) and now_ms is None:
        raise WindowError("give both since and until")
    if until is not None:
        end = resolve_instant(until, now_ms, zone_at)
    else:
        assert now_ms is not None  # refused above
        end = Instant(now_ms, True)
    if since is not None:
        start = resolve_instant(since, now_ms, zone_at)
    else:  # an end alone: from the start of its day
        start = Instant(start_of_day(day_of(end.ms, zone_at(end.ms)), zone_at(end.ms)), True)
    zone = zone_at(start.ms)
    if since is not None and until is not None and not start.natural and not end.natural:
        label = f"{since}/{until}"  # two exact instants: labelled as typed
    else:
        label = f"{local_iso(start.ms, zone)}/{local_iso(end.ms, zone)}"
    if clamp and end.ms > start.ms:
        clamped = _clamp(source.span(), start.ms, end.ms, zone)
        if clamped is not None:
            low, high = clamped
            return checked_window(low, high, zone, f"{local_iso(low, zone)}/{local_iso(high, zone)}",
                                  note=f"clamped to the days the store holds (asked {label})")
    return checked_window(start.ms, end.ms, zone, label, since or local_iso(start.ms, zone),
                          until or "now", limit=clamp)


def _clamp(span: tuple[int | None, int | None], since_ms: int, until_ms: int,
           zone: str) -> tuple[int, int] | None:
    """The part of [since, until) inside the whole local days from the first
    to the last captured instant, when it reaches past them and overlaps
    them; None when it stays inside (or misses them entirely)."""
    first, last = span
    if first is None or last is None:
        return None
    low = start_of_day(day_of(first, zone), zone)
    high = start_of_day(day_of(last, zone) + timedelta(days=1), zone)
    if since_ms >= low and until_ms <= high or until_ms <= low or since_ms >= high:
        return None
    return max(since_ms, low), min(until_ms, high)

