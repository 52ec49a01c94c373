"""Wall-clock time as the store records it: UTC milliseconds plus the local
UTC offset and IANA zone name in force at that instant, so the compiler can
render a day in the zone the user lived it, whatever the reader's TZ."""

from __future__ import annotations

import os
import time
from datetime import datetime, timezone, tzinfo
from functools import cache
from pathlib import Path


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def offset_minutes_in(zone: tzinfo, ts_ms: int) -> int:
    """`zone`'s offset from UTC at `ts_ms`, in minutes."""
    offset = datetime.fromtimestamp(ts_ms / 1000, tz=timezone.utc).astimezone(zone).utcoffset()
    assert offset is not None  # an aware datetime always has one
    return int(offset.total_seconds() // 60)


def utc_offset_minutes(ts_ms: int) -> int:
    """The local offset from UTC at that instant (DST-aware)."""
    return time.localtime(ts_ms / 1000).tm_gmtoff // 60


@cache
def local_zone_name() -> str:
    """Best-effort IANA name of the local zone: `TZ`, `/etc/timezone`, or the
    `/etc/localtime` symlink; a fixed-offset label when none is known."""
    tz = os.environ.get("TZ", "").lstrip(":")
    if tz and "/" in tz or tz == "UTC":
        return tz
    try:
        name = Path("/etc/timezone").read_text().strip()
        if name:
            return name
    except OSError:
        pass
    try:
        target = os.readlink("/etc/localtime")
        if "zoneinfo/" in target:
            return target.split("zoneinfo/", 1)[1]
    except OSError:
        pass
    offset = utc_offset_minutes(now_ms())
    if offset == 0:
        return "UTC"
    sign = "+" if offset > 0 else "-"
    return f"UTC{sign}{abs(offset) // 60:02d}:{abs(offset) % 60:02d}"


def zone_at(ts_ms: int) -> tuple[int, str]:
    """(offset minutes, zone name) to store beside a timestamp."""
    return utc_offset_minutes(ts_ms), local_zone_name()


def parse_instant_ms(text: str) -> int:
    """UTC ms of an ISO 8601 instant ("2026-03-02T09:00:00+01:00", "…Z"); a
    time without an offset is local time. Raises ValueError."""
    text = text.strip()
    value = datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text)
    return int(value.astimezone().timestamp() * 1000) if value.tzinfo is None else \
        int(value.timestamp() * 1000)
