"""Which local days retention rolls up, and rolling them up: the roll-ups
in and the raw rows out, a few days per transaction."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

# Days removed per transaction: fewer, larger deletes are faster, and the capture
# daemon's writer waits for one of them (about two seconds for three busy days).
CHUNK_DAYS = 3


def _day(db: Path, day: date):
    from compiler.api import resolve_window

    return resolve_window(db, day=day.isoformat())


def _raw_days(connection, db: Path, today_ms: int) -> list:
    """The windows of the local days before today that still hold raw rows,
    oldest first."""
    first = connection.execute(
        "SELECT min(a) FROM (SELECT min(ts_ms) AS a FROM snapshots UNION ALL "
        "SELECT min(ts_ms) FROM input_events WHERE recording_id IS NULL)").get
    if first is None or first >= today_ms:
        return []
    from datetime import datetime, timezone

    day = datetime.fromtimestamp(first / 1000, tz=timezone.utc).date() - timedelta(days=1)
    windows = []
    while True:
        window = _day(db, day)
        if window.since_ms >= today_ms:
            break
        if window.until_ms > first and _holds_raw(connection, window.since_ms, window.until_ms):
            windows.append(window)
        day += timedelta(days=1)
    return windows


def _holds_raw(connection, since_ms: int, until_ms: int) -> bool:
    return bool(connection.execute(
        "SELECT EXISTS (SELECT 1 FROM snapshots WHERE ts_ms >= ?1 AND ts_ms < ?2) OR EXISTS "
        "(SELECT 1 FROM input_events WHERE ts_ms >= ?1 AND ts_ms < ?2 AND recording_id IS NULL)",
        (since_ms, until_ms)).get)


def _roll(connection, db: Path, days: list, raw_cut, budget, live_bytes, progress):
    """Roll up the days due, oldest first: those before the cut in chunks of
    CHUNK_DAYS (one transaction each: the roll-ups in, the raw rows out),
    then, for the budget, one day at a time while the store is over it."""
    from core.store.retention import Removed

    due = [w for w in days if raw_cut is not None and w.until_ms <= raw_cut]
    rest = days[len(due):]
    rolled, removed = [], Removed()
    total = len(due) or 1
    for start in range(0, len(due), CHUNK_DAYS):
        removed = removed + _roll_chunk(connection, db, due[start:start + CHUNK_DAYS])
        rolled += [w.label for w in due[start:start + CHUNK_DAYS]]
        if progress is not None:
            progress(len(rolled), total)
    for window in rest:
        if budget is None or live_bytes(connection) <= budget:
            break
        removed = removed + _roll_chunk(connection, db, [window])
        rolled.append(window.label)
        if progress is not None:
            progress(len(rolled), max(total, len(rolled)))
    return rolled, removed


def _roll_chunk(connection, db: Path, windows: list):
    """Compile each day (read-only), then in one transaction keep their
    roll-ups and remove their raw rows: a day is never without both."""
    from compiler.api import roll_up
    from compiler.rolled import RAW_BEFORE_KEY
    from core.store.retention import remove_raw

    made = [(window, roll_up(db, window.label)) for window in windows]

    def keep(writer) -> None:
        for window, day in made:
            writer.execute("INSERT INTO rollup_days VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           (window.label, window.zone, window.since_ms, window.until_ms, day.format,
                            day.document, day.actions, day.input_digest))
        writer.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE "
                       "SET value = max(CAST(value AS INTEGER), excluded.value)",
                       (RAW_BEFORE_KEY, str(windows[-1].until_ms)))

    return remove_raw(connection, windows[0].since_ms, windows[-1].until_ms, before=keep)
