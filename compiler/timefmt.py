"""Rendering instants as local times, deterministically.

By default an instant renders with the UTC offset the capture recorded next
to it (a frame's first snapshot), so a day reads as the user lived it
whatever the reader's TZ. With `--tz` every instant converts to that zone.
Arithmetic is on integer milliseconds; no clock, no process time zone."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta, timezone, tzinfo

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


class TimeFormat:
    def __init__(self, override: tzinfo | None, default_offset_min: int) -> None:
        self._override = override
        self._default = default_offset_min

    def local(self, ms: int, offset_min: int | None = None) -> datetime:
        moment = _EPOCH + timedelta(milliseconds=ms)
        if self._override is not None:
            return moment.astimezone(self._override)
        minutes = self._default if offset_min is None else offset_min
        return moment.astimezone(timezone(timedelta(minutes=minutes)))

    def hm(self, ms: int, offset_min: int | None = None) -> str:
        if self._override is None:  # integer arithmetic: no datetime per call
            minutes = (ms // 60_000 + (self._default if offset_min is None else offset_min)) % 1440
            return f"{minutes // 60:02d}:{minutes % 60:02d}"
        return self.local(ms, offset_min).strftime("%H:%M")

    def iso(self, ms: int, offset_min: int | None = None) -> str:
        return self.local(ms, offset_min).isoformat(timespec="seconds")


def utc_iso(ms: int) -> str:
    return (_EPOCH + timedelta(milliseconds=ms)).strftime("%Y-%m-%dT%H:%M:%SZ")


def minutes(ms: int) -> float:
    """Minutes with one decimal, rounded half away from zero on integers."""
    return (ms + 3000) // 6000 / 10 if ms >= 0 else -((-ms + 3000) // 6000) / 10


def duration(ms: int) -> str:
    """'45m', '2h05m', '30s' — compact and exact to the minute. Under a
    minute it is seconds: rounding 30–59 s up to "1m" put a 45 s stretch
    next to a 22 s one as if it were three times as long."""
    seconds = (ms + 500) // 1000
    if seconds < 60:
        return f"{seconds}s"
    total_minutes = (ms + 30_000) // 60_000
    hours, mins = divmod(total_minutes, 60)
    return f"{hours}h{mins:02d}m" if hours else f"{mins}m"


def ranges(ids: Iterable[int]) -> str:
    """Evidence ids as compact ranges: 12-40,44,50-52."""
    parts = []
    ordered = sorted(ids)
    index = 0
    while index < len(ordered):
        start = end = ordered[index]
        while index + 1 < len(ordered) and ordered[index + 1] == end + 1:
            index += 1
            end = ordered[index]
        parts.append(str(start) if start == end else f"{start}-{end}")
        index += 1
    return ",".join(parts)
