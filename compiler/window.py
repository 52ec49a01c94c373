"""The time window a compilation covers, from what the user typed.

`--day YYYY-MM-DD` means that local calendar day in the zone the capture
recorded (or `--tz`); `--since/--until` take ISO 8601 times (a time without an
offset is read in the same zone). Windows are half-open: [since, until).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from core.errors import PhantomError, quoted

MAX_WINDOW_DAYS = 400
# Days a capture can hold: from the Unix epoch to the last day whose end
# Python's datetime can still represent.
FIRST_DAY, LAST_DAY = date(1970, 1, 1), date(9998, 12, 31)


class WindowError(PhantomError, ValueError):
    """A window the user asked for that cannot be compiled (one-line message)."""

    code = "invalid_window"


@dataclass(frozen=True, slots=True)
class Window:
    since_ms: int
    until_ms: int
    zone: str          # the zone the day was cut in, or that --tz named
    label: str         # "2026-03-02" or "2026-03-02T09:00:00+01:00/…"
    note: str = ""     # what was changed from the request (a clamp), said in the output


_FIXED = re.compile(r"^UTC([+-])(\d{2}):(\d{2})$")


def zone_info(name: str) -> tzinfo:
    """A tzinfo for an IANA name or one of Phantom's fixed-offset labels
    ('UTC+02:00', written when the system zone had no IANA name)."""
    if name in ("UTC", "Etc/UTC", "Z"):
        return timezone.utc
    fixed = _FIXED.match(name)
    if fixed:
        minutes = int(fixed.group(2)) * 60 + int(fixed.group(3))
        return timezone(timedelta(minutes=minutes if fixed.group(1) == "+" else -minutes))
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):   # OSError: a name too long for a file
        raise WindowError(f"unknown time zone {quoted(name)} (use an IANA name such as Europe/Berlin)") from None


def parse_day(text: str) -> date:
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise WindowError(f"not a date: {text[:40]!r} (expected YYYY-MM-DD)") from None
    if not FIRST_DAY <= day <= LAST_DAY:
        raise WindowError(f"{day.isoformat()} is outside the days a capture can hold "
                          f"({FIRST_DAY.isoformat()} to {LAST_DAY.isoformat()})")
    return day


def day_window(day: date, zone_name: str) -> Window:
    tz = zone_info(zone_name)
    start = datetime(day.year, day.month, day.day, tzinfo=tz)
    end = datetime.combine(day + timedelta(days=1), datetime.min.time(), tzinfo=tz)
    return Window(_ms(start), _ms(end), zone_name, day.isoformat())


def parse_instant(text: str, zone_name: str) -> int:
    try:
        value = datetime.fromisoformat(text.replace("Z", "+00:00") if text.endswith("Z") else text)
    except ValueError:
        raise WindowError(f"not an ISO 8601 time: {text[:40]!r} (e.g. 2026-03-02T09:00 or "
                          f"2026-03-02T09:00:00+01:00)") from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=zone_info(zone_name))
    if not FIRST_DAY <= value.date() <= LAST_DAY:
        raise WindowError(f"{text[:40]!r} is outside the days a capture can hold")
    return _ms(value)


def range_window(since: str, until: str, zone_name: str) -> Window:
    since_ms, until_ms = parse_instant(since, zone_name), parse_instant(until, zone_name)
    return checked_window(since_ms, until_ms, zone_name, f"{since}/{until}", since, until)


def checked_window(since_ms: int, until_ms: int, zone_name: str, label: str, since: str = "",
                   until: str = "", note: str = "", limit: bool = True) -> Window:
    """A window from resolved instants, refused when reversed, empty or
    (with `limit`, for compiling) longer than MAX_WINDOW_DAYS (`since` and
    `until`: the words typed, for the message)."""
    if until_ms < since_ms:
        raise WindowError(f"reversed range: the end {until or until_ms} is before the start "
                          f"{since or since_ms}")
    if until_ms == since_ms:
        raise WindowError("empty window: the start and the end are the same instant")
    if limit and until_ms - since_ms > MAX_WINDOW_DAYS * 86_400_000:
        raise WindowError(f"window longer than {MAX_WINDOW_DAYS} days; compile it in parts")
    return Window(since_ms, until_ms, zone_name, label, note)


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)
