"""Which days the corpus covers and how local wall-clock times become the
store's UTC milliseconds, with the zone's offset (DST-aware) beside them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from core.errors import PhantomError

MAX_DAYS = 400


class CalendarError(PhantomError, ValueError):
    """A start date or zone the generator cannot use."""

    code = "usage"


@dataclass(frozen=True, slots=True)
class Day:
    """One active (week)day of the corpus."""

    index: int          # 0-based position among the active days
    date: date
    tz: str

    @property
    def iso(self) -> str:
        return self.date.isoformat()

    def at(self, hour: int, minute: int = 0, second: int = 0) -> int:
        """UTC ms of a local wall-clock time on this day."""
        return local_to_ms(self.date, self.tz, hour, minute, second)


@lru_cache(maxsize=64)
def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise CalendarError(f"unknown time zone {name!r} (use an IANA name such as Europe/Berlin)") from None


def parse_start(text: str) -> date:
    try:
        start = date.fromisoformat(text)
    except (TypeError, ValueError):
        raise CalendarError(f"bad start date {text!r} (expected YYYY-MM-DD)") from None
    if not 1971 <= start.year <= 9000:
        raise CalendarError(f"start date {text} is out of range (years 1971-9000)")
    return start


def active_days(start: date, days: int, tz: str) -> tuple[Day, ...]:
    """The first `days` weekdays on or after `start`."""
    zone(tz)
    if not 1971 <= start.year <= 9000:
        raise CalendarError(f"start date {start} is out of range (years 1971-9000)")
    result: list[Day] = []
    current = start
    while len(result) < days:
        if current.weekday() < 5:
            result.append(Day(len(result), current, tz))
        current += timedelta(days=1)
    return tuple(result)


def local_to_ms(day: date, tz: str, hour: int, minute: int = 0, second: int = 0) -> int:
    local = datetime(day.year, day.month, day.day, tzinfo=zone(tz)) + timedelta(
        hours=hour, minutes=minute, seconds=second)
    # Re-attach the zone after the arithmetic so the offset is the one in
    # force at that wall-clock time (adding a timedelta keeps the old fold).
    local = local.replace(tzinfo=None).replace(tzinfo=zone(tz))
    return round(local.timestamp()) * 1000


def utc_offset_min(ts_ms: int, tz: str) -> int:
    moment = datetime.fromtimestamp(ts_ms / 1000, tz=timezone.utc).astimezone(zone(tz))
    offset = moment.utcoffset()
    return int(offset.total_seconds() // 60) if offset is not None else 0


def iso_utc(ts_ms: int) -> str:
    """The nocta/screenpipe timestamp text: UTC, 'T', microseconds, '+00:00'."""
    seconds, millis = divmod(ts_ms, 1000)
    moment = datetime.fromtimestamp(seconds, tz=timezone.utc)
    return f"{moment:%Y-%m-%dT%H:%M:%S}.{millis:03d}000+00:00"
