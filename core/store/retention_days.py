"""Retention's run over the store: which local days still hold raw rows,
which of them are due, and rolling them up — the roll-ups in and the raw
rows out, a few days per transaction — then old images and the freed space.

Every local day older than `raw_days` (and, with `max_store_mb`, more of the
oldest until the store's pages in use fit the budget; today never) is
compiled first — its document and action stream go into the store's roll-up
table — and only then, in the same transaction, are its raw rows removed
(`retention.remove_raw`). Images older than `image_days` go too. Then the
freed pages are handed back to the file system (incremental auto-vacuum; an
older store is converted once, by a VACUUM). Every write is a short
transaction, so a running capture daemon waits at most that long for its
next commit.

A day is a local day in the zone the capture recorded, and its roll-up is
the compiler's work; core imports nothing above it, so both arrive as
`Compiling`, which the caller builds from `compiler.api` (`resolve_window`,
`roll_up`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Protocol

import apsw

from .connection import open_store, prepare_for_writing
from .errors import StoreError
from .retention import (
    RAW_BEFORE_KEY,
    Removed,
    convert_to_incremental,
    file_bytes,
    is_incremental,
    live_bytes,
    plan_raw,
    prune_images,
    release_space,
    remove_raw,
)

MIB = 1024 * 1024
# Days removed per transaction: fewer, larger deletes are faster, and the capture
# daemon's writer waits for one of them (about two seconds for three busy days).
CHUNK_DAYS = 3

Progress = Callable[[str, int, int], None]   # (phase, done, total)


class DayWindow(Protocol):
    """A local day as the compiler resolves it (`compiler.window.Window`)."""

    @property
    def label(self) -> str: ...

    @property
    def zone(self) -> str: ...

    @property
    def since_ms(self) -> int: ...

    @property
    def until_ms(self) -> int: ...


class DayRollUp(Protocol):
    """A day compiled for the roll-up table (`compiler.api.RollUp`)."""

    @property
    def format(self) -> int: ...

    @property
    def document(self) -> bytes: ...

    @property
    def actions(self) -> bytes: ...

    @property
    def input_digest(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Compiling:
    """What retention asks of the compiler: today's window (read at the
    caller's instant), the window of any local day, and a day's roll-up."""

    today: Callable[[], DayWindow]
    day: Callable[[date], DayWindow]
    roll_up: Callable[[str], DayRollUp]


@dataclass(frozen=True, slots=True)
class Keep:
    """The `[retention]` settings: 0 keeps everything of that kind."""

    raw_days: int = 0
    max_store_mb: int = 0
    image_days: int = 0


@dataclass(frozen=True, slots=True)
class Plan:
    """What a run would do: the days due before the byte budget (oldest
    first), what removing them takes out, the store's pages in use, and the
    old images (count, bytes; None without `image_days`)."""

    due: tuple[str, ...]
    removed: Removed
    live_bytes: int
    images: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class Done:
    """What a run did: the days rolled up, what went with them, the old
    images (count, bytes), and the store's size before and after."""

    rolled: tuple[str, ...]
    removed: Removed
    images: tuple[int, int]
    bytes_before: int
    bytes_after: int


def plan(db: Path, keep: Keep, compiling: Compiling) -> Plan:
    """What `apply` would do now; writes nothing."""
    prepare_for_writing(_existing(db))
    today = compiling.today()
    today_date = date.fromisoformat(today.label)
    raw_cut = _cut(compiling, today_date, keep.raw_days)
    connection = open_store(db)
    try:
        due = [w for w in _raw_days(connection, compiling, today.since_ms)
               if raw_cut is not None and w.until_ms <= raw_cut]
        removed = Removed()
        for window in due:
            removed = removed + plan_raw(connection, window.since_ms, window.until_ms)
        image_cut = _cut(compiling, today_date, keep.image_days)
        images = prune_images(connection, image_cut, dry_run=True) if image_cut is not None else None
        return Plan(tuple(w.label for w in due), removed, live_bytes(connection), images)
    finally:
        connection.close()


def apply(db: Path, keep: Keep, compiling: Compiling, progress: Progress | None = None) -> Done:
    """Roll up and remove what `keep` does not keep, then return the space;
    `progress(phase, done, total)` follows each phase."""
    prepare_for_writing(_existing(db))
    today = compiling.today()
    today_date = date.fromisoformat(today.label)
    raw_cut = _cut(compiling, today_date, keep.raw_days)
    budget = keep.max_store_mb * MIB if keep.max_store_mb else None
    before = file_bytes(db)
    connection = open_store(db)
    try:
        days = _raw_days(connection, compiling, today.since_ms)
        if not is_incremental(connection):
            convert_to_incremental(connection, db, _phase(progress, "converting the store to "
                                                                    "incremental auto-vacuum (once)"))
        rolled, removed = _roll(connection, compiling, days, raw_cut, budget,
                                _phase(progress, "rolling up old days"))
        image_cut = _cut(compiling, today_date, keep.image_days)
        images = prune_images(connection, image_cut) if image_cut is not None else (0, 0)
        release_space(connection, db, _phase(progress, "returning free space to the disk"))
    finally:
        connection.close()
    return Done(tuple(rolled), removed, images, before, file_bytes(db))


def _existing(db: Path) -> Path:
    if not db.is_file():
        raise StoreError(f"no store at {db}", path=str(db))
    return db


def _cut(compiling: Compiling, today: date, days: int) -> int | None:
    """The start of the local day `days` before today (None for 0: keep all)."""
    return compiling.day(today - timedelta(days=days)).since_ms if days else None


def _phase(progress: Progress | None, name: str) -> Callable[[int, int], None] | None:
    return (lambda done, total: progress(name, done, total)) if progress is not None else None


def _raw_days(connection: apsw.Connection, compiling: Compiling, today_ms: int) -> list[DayWindow]:
    """The windows of the local days before today that still hold raw rows,
    oldest first."""
    first = connection.execute(
        "SELECT min(a) FROM (SELECT min(ts_ms) AS a FROM snapshots UNION ALL "
        "SELECT min(ts_ms) FROM input_events WHERE recording_id IS NULL)").get
    if first is None or first >= today_ms:
        return []
    day = datetime.fromtimestamp(first / 1000, tz=timezone.utc).date() - timedelta(days=1)
    windows = []
    while True:
        window = compiling.day(day)
        if window.since_ms >= today_ms:
            break
        if window.until_ms > first and _holds_raw(connection, window.since_ms, window.until_ms):
            windows.append(window)
        day += timedelta(days=1)
    return windows


def _holds_raw(connection: apsw.Connection, since_ms: int, until_ms: int) -> bool:
    return bool(connection.execute(
        "SELECT EXISTS (SELECT 1 FROM snapshots WHERE ts_ms >= ?1 AND ts_ms < ?2) OR EXISTS "
        "(SELECT 1 FROM input_events WHERE ts_ms >= ?1 AND ts_ms < ?2 AND recording_id IS NULL)",
        (since_ms, until_ms)).get)


def _roll(connection: apsw.Connection, compiling: Compiling, days: list[DayWindow],
          raw_cut: int | None, budget: int | None,
          progress: Callable[[int, int], None] | None) -> tuple[list[str], Removed]:
    """Roll up the days due, oldest first: those before the cut in chunks of
    CHUNK_DAYS (one transaction each: the roll-ups in, the raw rows out),
    then, for the budget, one day at a time while the store is over it."""
    due = [w for w in days if raw_cut is not None and w.until_ms <= raw_cut]
    rest = days[len(due):]
    rolled: list[str] = []
    removed = Removed()
    total = len(due) or 1
    for start in range(0, len(due), CHUNK_DAYS):
        removed = removed + _roll_chunk(connection, compiling, due[start:start + CHUNK_DAYS])
        rolled += [w.label for w in due[start:start + CHUNK_DAYS]]
        if progress is not None:
            progress(len(rolled), total)
    for window in rest:
        if budget is None or live_bytes(connection) <= budget:
            break
        removed = removed + _roll_chunk(connection, compiling, [window])
        rolled.append(window.label)
        if progress is not None:
            progress(len(rolled), max(total, len(rolled)))
    return rolled, removed


def _roll_chunk(connection: apsw.Connection, compiling: Compiling,
                windows: list[DayWindow]) -> Removed:
    """Compile each day (read-only), then in one transaction keep their
    roll-ups and remove their raw rows: a day is never without both."""
    made = [(window, compiling.roll_up(window.label)) for window in windows]

    def keep(writer: apsw.Connection) -> None:
        for window, day in made:
            writer.execute("INSERT INTO rollup_days VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           (window.label, window.zone, window.since_ms, window.until_ms, day.format,
                            day.document, day.actions, day.input_digest))
        writer.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE "
                       "SET value = max(CAST(value AS INTEGER), excluded.value)",
                       (RAW_BEFORE_KEY, str(windows[-1].until_ms)))

    return remove_raw(connection, windows[0].since_ms, windows[-1].until_ms, before=keep)
