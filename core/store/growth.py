"""How fast a store grows, and when it reaches its budget: for `phantom
status`, so that a full disk is something a person sees coming.

No table records a store's size by day, and measuring what each day's rows
take page by page (`dbstat`) reads the whole file. So a day's bytes are
estimated: the images it made (their own bytes) plus its share of the
rest — the store's other pages in use, spread over the rows by count
(snapshots, input rows, and the element rows of its accessibility walks,
which are most of them). Each count is an indexed range or a small scan;
the result is close, not exact, and said with "≈".

The rate is over the last `RECENT_DAYS` full local days before today (the
days since the first capture, when fewer): a weekend counts, as it does on
the calendar the cap is reached by. With `raw_days` retention the store
levels off near `raw_days` days of raw rows — then the cap is reached only
when that level lies above it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

import apsw

RECENT_DAYS = 7


@dataclass(frozen=True, slots=True)
class Growth:
    """Recent days (oldest first, with their estimated bytes), the rate
    per calendar day, and where that leads."""

    days: tuple[tuple[str, int], ...]
    per_day: int
    live_bytes: int
    cap_bytes: int | None
    days_to_cap: float | None      # None: no cap, no growth, or retention keeps it below
    level_bytes: int | None        # where raw_days retention levels the store off (None: keeps all)

    def as_dict(self) -> dict[str, object]:
        return {"days": [{"day": day, "bytes": size} for day, size in self.days],
                "per_day_bytes": self.per_day, "live_bytes": self.live_bytes,
                "cap_bytes": self.cap_bytes, "days_to_cap": self.days_to_cap,
                "level_bytes": self.level_bytes}


def _local_midnight_ms(day: date) -> int:
    return int(datetime(day.year, day.month, day.day).astimezone().timestamp() * 1000)


def store_growth(connection: apsw.Connection, now_ms: int, *, cap_bytes: int | None = None,
                 raw_days: int = 0) -> Growth:
    """The store's recent growth per day and when it reaches `cap_bytes`."""
    pages = int(connection.pragma("page_count")) - int(connection.pragma("freelist_count"))
    live = pages * int(connection.pragma("page_size"))
    first = connection.execute("SELECT min(ts_ms) FROM snapshots").get
    today = datetime.fromtimestamp(now_ms / 1000).astimezone().date()
    days = [today - timedelta(days=n) for n in range(RECENT_DAYS, 0, -1)]
    if first is not None:
        since_first = datetime.fromtimestamp(int(first) / 1000).astimezone().date()
        days = [d for d in days if d >= since_first]
    else:
        days = []
    per_row = _bytes_per_row(connection, live)
    sized = tuple((d.isoformat(), _day_bytes(connection, d, per_row)) for d in days)
    per_day = sum(size for _, size in sized) // len(sized) if sized else 0
    return Growth(sized, per_day, live, cap_bytes, *_outlook(live, per_day, cap_bytes, raw_days))


def _outlook(live: int, per_day: int, cap: int | None, raw_days: int) -> tuple[float | None, int | None]:
    """(days until the cap, the level retention holds the store at): pure."""
    level = per_day * raw_days if raw_days and per_day else None
    if cap is None or per_day <= 0:
        return None, level
    if live >= cap:
        return 0.0, level
    if level is not None and level < cap:
        return None, level
    return (cap - live) / per_day, level


def _bytes_per_row(connection: apsw.Connection, live: int) -> float:
    images = int(connection.execute("SELECT coalesce(sum(length(data)), 0) FROM blobs").get)
    rows = int(connection.execute("SELECT (SELECT count(*) FROM snapshots) + (SELECT count(*) "
                                  "FROM input_events) + (SELECT count(*) FROM elements)").get)
    return max(0, live - images) / rows if rows else 0.0


def _day_bytes(connection: apsw.Connection, day: date, per_row: float) -> int:
    since, until = _local_midnight_ms(day), _local_midnight_ms(day + timedelta(days=1))
    rows = int(connection.execute(
        "SELECT (SELECT count(*) FROM snapshots WHERE ts_ms >= ?1 AND ts_ms < ?2) + "
        "(SELECT count(*) FROM input_events WHERE ts_ms >= ?1 AND ts_ms < ?2) + "
        "(SELECT coalesce(sum(node_count), 0) FROM a11y_trees WHERE ts_ms >= ?1 AND ts_ms < ?2)",
        (since, until)).get)
    images = int(connection.execute("SELECT coalesce(sum(length(data)), 0) FROM blobs "
                                    "WHERE created_ms >= ? AND created_ms < ?", (since, until)).get)
    return int(rows * per_row) + images
