"""Times as people type them: `today`, `yesterday`, a date, a time today
(`14:00`), an offset back from now (`-2h`, `90m ago`, `1 hour ago`), `now`,
or an ISO 8601 instant.

Pure: the current instant is passed in (`now_ms`, read once at the CLI,
D-Bus or MCP edge), and so is `zone_at`, which names the zone to read a wall
time in — the zone the capture recorded nearest that instant, or the one
`--tz` gave. Words that need the current time are refused when no `now_ms`
was given, so a library caller cannot get an answer that depends on when it
ran without saying so.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, time, timedelta, timezone
from typing import NamedTuple

from .window import FIRST_DAY, LAST_DAY, WindowError, parse_day, parse_instant, zone_info

__all__ = ["Instant", "day_of", "resolve_day", "resolve_instant", "start_of_day"]

ZoneAt = Callable[[int], str]

_UNITS = {"s": 1_000, "m": 60_000, "h": 3_600_000, "d": 86_400_000, "w": 604_800_000}
_UNIT_WORDS = {"sec": "s", "secs": "s", "second": "s", "seconds": "s", "min": "m", "mins": "m",
               "minute": "m", "minutes": "m", "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
               "day": "d", "days": "d", "week": "w", "weeks": "w"}
_OFFSET = re.compile(r"^(-\s*)?(\d{1,6})\s*([a-z]+)(\s+ago)?$", re.ASCII)
_CLOCK = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2}))?$", re.ASCII)
_DAY_WORDS = {"today": 0, "yesterday": -1}
HINT = ("use now, today, yesterday, a date (2026-03-02), a time today (14:00), an offset "
        "(-2h, 90m ago) or an ISO 8601 time (2026-03-02T09:00)")


class Instant(NamedTuple):
    """An instant, and whether it was named by a word or an offset rather
    than written out in full (a window's label then shows the instants)."""

    ms: int
    natural: bool


def _need_now(now_ms: int | None, text: str) -> int:
    if now_ms is None:
        raise WindowError(f"{text!r} is relative to the current time, which was not given")
    return now_ms


def day_of(ms: int, zone_name: str) -> date:
    """The local calendar date of an instant in a zone."""
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).astimezone(zone_info(zone_name)).date()


def start_of_day(day: date, zone_name: str) -> int:
    return int(datetime.combine(day, time.min, tzinfo=zone_info(zone_name)).timestamp() * 1000)


def _noon_utc_ms(day: date) -> int:
    return int(datetime(day.year, day.month, day.day, 12, tzinfo=timezone.utc).timestamp() * 1000)


def _ascii(text: str) -> None:
    """Times are written in ASCII. Python reads `２` and `٢` as the digit
    two, so `２h` would pass for two hours ago; a person who typed a
    full-width or Arabic-Indic digit is told, not guessed at."""
    if not text.isascii():
        raise WindowError(f"not a time: {text[:40]!r} (write times with the digits 0-9 and plain "
                          f"ASCII letters); {HINT}")


def resolve_day(text: str, now_ms: int | None, zone_at: ZoneAt) -> date:
    """`today`, `yesterday` (in the zone recorded nearest now) or YYYY-MM-DD."""
    _ascii(text)
    word = text.strip().lower()
    if word in _DAY_WORDS:
        now = _need_now(now_ms, text)
        return day_of(now, zone_at(now)) + timedelta(days=_DAY_WORDS[word])
    return parse_day(text.strip())


def resolve_instant(text: str, now_ms: int | None, zone_at: ZoneAt) -> Instant:
    """The UTC milliseconds `text` names (see the module docstring)."""
    _ascii(text)
    raw = text.strip()
    word = " ".join(raw.lower().split())
    if not word:
        raise WindowError(f"an empty time; {HINT}")
    if word == "now":
        return Instant(_need_now(now_ms, text), True)
    if word in _DAY_WORDS:
        day = resolve_day(word, now_ms, zone_at)
        return Instant(start_of_day(day, zone_at(_noon_utc_ms(day))), True)
    head, _, rest = word.partition(" ")
    if head in _DAY_WORDS and _CLOCK.match(rest):
        day = resolve_day(head, now_ms, zone_at)
        return Instant(_at_clock(day, rest, zone_at), True)
    clock = _CLOCK.match(word)
    if clock:
        now = _need_now(now_ms, text)
        return Instant(_at_clock(day_of(now, zone_at(now)), word, zone_at), True)
    offset = _OFFSET.match(word)
    if offset:
        minus, amount, unit, ago = offset.groups()
        unit = _UNIT_WORDS.get(unit, unit)
        if unit not in _UNITS:
            raise WindowError(f"unknown unit in {raw[:40]!r}; use s, m, h, d or w")
        if minus and ago:
            raise WindowError(f"{raw[:40]!r} goes back twice; write -2h or 2h ago")
        moment = _need_now(now_ms, text) - int(amount) * _UNITS[unit]
        if moment < _start_ms(FIRST_DAY):
            raise WindowError(f"{raw[:40]!r} is before the days a capture can hold")
        return Instant(moment, True)
    if len(raw) == 10 and raw[4:5] == "-" and raw[7:8] == "-":
        day = parse_day(raw)
        return Instant(start_of_day(day, zone_at(_noon_utc_ms(day))), False)
    if not raw[:1].isdigit():
        raise WindowError(f"not a time: {raw[:40]!r}; {HINT}")
    rough = parse_instant(raw, "UTC")  # only to pick the zone a time without offset is read in
    return Instant(parse_instant(raw, zone_at(rough)), False)


def _at_clock(day: date, clock: str, zone_at: ZoneAt) -> int:
    match = _CLOCK.match(clock)
    if match is None:
        raise WindowError(f"not a time of day: {clock!r} (00:00 to 23:59)")
    hours, minutes, seconds = match.groups()
    if int(hours) > 23 or int(minutes) > 59 or int(seconds or 0) > 59:
        raise WindowError(f"not a time of day: {clock!r} (00:00 to 23:59)")
    if not FIRST_DAY <= day <= LAST_DAY:
        raise WindowError(f"{day.isoformat()} is outside the days a capture can hold")
    zone = zone_info(zone_at(_noon_utc_ms(day)))
    moment = datetime(day.year, day.month, day.day, int(hours), int(minutes), int(seconds or 0),
                      tzinfo=zone)
    return int(moment.timestamp() * 1000)


def _start_ms(day: date) -> int:
    return int(datetime.combine(day, time.min, tzinfo=timezone.utc).timestamp() * 1000)
