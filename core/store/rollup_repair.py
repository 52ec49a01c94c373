"""`phantom doctor --repair` for roll-ups whose bytes cannot be read back.

SQLite's integrity checks never look inside a blob, so a roll-up that no
longer decodes leaves a store that `quick_check` calls healthy and a day
that cannot be compiled. Such a day's raw rows are gone (that is what a
roll-up is for), so nothing can rebuild it: the repair keeps a copy of the
store as it was (`<store>.damaged-<UTC time>`, nothing is ever deleted),
removes the unreadable roll-ups and records each day as a blind spot whose
reason names the copy, so compiling the day says what happened instead of
failing. Which roll-ups are unreadable is the compiler's to say (it owns
their encoding); this module only writes.

The caller holds the capture daemon's lock: no process may write meanwhile.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from core.clock import offset_minutes_in

from .connection import open_store

BLIND_SPOT_KIND = "capture_error"


@dataclass(frozen=True, slots=True)
class SetAside:
    """One day whose roll-up was removed: (day, zone) as the table keys it."""

    day: str
    zone: str
    since_ms: int
    until_ms: int


@dataclass(frozen=True, slots=True)
class RollupRepair:
    store: Path
    copy: Path
    days: tuple[SetAside, ...]

    def summary(self) -> str:
        named = ", ".join(f"{d.day} ({d.zone})" for d in self.days)
        return (f"repaired {self.store}: removed {len(self.days)} unreadable roll-up(s) — {named}; "
                f"each day now compiles as a blind spot; the store as it was is kept as {self.copy}")


def _offset_minutes(zone: str, ts_ms: int) -> int:
    """The day's offset, or UTC's for a zone this machine does not know (the
    blind spot must still be written)."""
    try:
        return offset_minutes_in(ZoneInfo(zone), ts_ms)
    except (ZoneInfoNotFoundError, ValueError):
        return 0


def set_aside_rollups(path: str | os.PathLike[str], days: Sequence[SetAside]) -> RollupRepair:
    """Copy the store, then in one transaction remove `days`' roll-ups and
    add a blind spot over each. Nothing changes if the copy cannot be made."""
    store = Path(path)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    copy = store.with_name(f"{store.name}.damaged-{stamp}")
    connection = open_store(store)
    try:
        connection.execute("VACUUM INTO ?", (str(copy),))
        with connection:
            row = connection.execute("SELECT max(id) FROM blind_spots").fetchone()
            next_id = row[0] + 1 if row is not None and isinstance(row[0], int) else 1
            for offset, day in enumerate(days):
                connection.execute("DELETE FROM rollup_days WHERE day = ? AND zone = ?", (day.day, day.zone))
                connection.execute(
                    "INSERT INTO blind_spots(id, start_ms, end_ms, utc_offset_min, tz_name, monitor, "
                    "kind, reason) VALUES (?, ?, ?, ?, ?, NULL, ?, ?)",
                    (next_id + offset, day.since_ms, day.until_ms, _offset_minutes(day.zone, day.since_ms),
                     day.zone, BLIND_SPOT_KIND,
                     f"this day's roll-up could not be read and was removed by `phantom doctor --repair` "
                     f"(the store before is kept as {copy.name})"))
    finally:
        connection.close()
    return RollupRepair(store, copy, tuple(days))
