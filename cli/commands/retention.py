"""`phantom retention run`: keep what the `[retention]` settings say, roll
up the rest.

Every local day older than `raw_days` (and, with `max_store_mb`, more of the
oldest until the store's pages in use fit the budget; today never) is
compiled first — its document and action stream go into the store's
roll-up table — and only then, in the same transaction, are its raw rows
removed (core/store/retention.py). Images older than `image_days` go too.
Then the freed pages are handed back to the file system (incremental
auto-vacuum; an older store is converted once, by a VACUUM). The compiler
only reads; every write is a short transaction of one day, so a running
capture daemon waits at most that long for its next commit.
"""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

from ..errors import CliError

MIB = 1024 * 1024
# Days removed per transaction: fewer, larger deletes are faster, and the capture
# daemon's writer waits for one of them (about two seconds for three busy days).
CHUNK_DAYS = 3


def add_parsers(sub, common) -> None:
    p = sub.add_parser(
        "retention", help="roll up and remove old raw capture, as [retention] says",
        description="Apply the [retention] settings of the config file: days older than raw_days "
        "are compiled (the compiled day is kept for good in the store's roll-up, so `phantom "
        "compile` of that day still answers and routines still count it), then their raw rows "
        "are removed; with max_store_mb more of the oldest days go until the store fits; images "
        "older than image_days go. The freed space returns to the file system. `phantom install` "
        "adds a daily user timer that runs it.")
    actions = p.add_subparsers(dest="retention_action", metavar="ACTION", required=True)
    run = actions.add_parser(
        "run", parents=[common], help="apply the retention settings now",
        description="Roll up and remove what the [retention] settings do not keep, then return "
        "the space; a progress bar on a terminal. --dry-run says what would go and changes nothing.")
    run.add_argument("--config", type=Path, help="config file (default: "
                     "$XDG_CONFIG_HOME/phantom/config.toml)")
    run.add_argument("--dry-run", action="store_true", help="say what would go; change nothing")
    run.set_defaults(handler=run_retention)


def run_retention(args) -> int:
    from capturer.config import ConfigError, load_config
    from core.store import StoreError
    from core.store.paths import resolve_db_path

    try:
        settings = load_config(args.config).retention
    except ConfigError as exc:
        raise CliError(str(exc), 2) from None
    db = resolve_db_path(args.db)
    if not (settings.raw_days or settings.max_store_mb or settings.image_days):
        print("no [retention] settings: everything is kept (see `phantom retention run --help`)")
        return 0
    if not db.is_file():
        raise CliError(f"no store at {db}")
    try:
        return _run(db, settings, args.dry_run)
    except StoreError as exc:
        raise CliError(f"phantom retention: {exc}") from None


def _run(db: Path, settings, dry_run: bool) -> int:
    from compiler.api import resolve_window
    from core.clock import now_ms
    from core.store import open_store
    from core.store.connection import prepare_for_writing
    from core.store.retention import (
        convert_to_incremental,
        file_bytes,
        is_incremental,
        live_bytes,
        plan_raw,
        prune_images,
        release_space,
    )

    from ..progress import TerminalProgress

    now = now_ms()
    prepare_for_writing(db)
    today = resolve_window(db, day="today", now_ms=now)
    today_date = date.fromisoformat(today.label)
    raw_cut = (_day(db, today_date - timedelta(days=settings.raw_days)).since_ms
               if settings.raw_days else None)
    budget = settings.max_store_mb * MIB if settings.max_store_mb else None
    before = file_bytes(db)
    connection = open_store(db)
    try:
        days = _raw_days(connection, db, today.since_ms)
        if dry_run:
            return _dry_run(connection, days, raw_cut, budget, settings, today_date, plan_raw,
                            prune_images, live_bytes)
        with TerminalProgress("retention") as bar:
            if not is_incremental(connection):
                convert_to_incremental(connection, db, _phase(bar, "converting the store to "
                                                                   "incremental auto-vacuum (once)"))
            rolled, removed = _roll(connection, db, days, raw_cut, budget, live_bytes,
                                    _phase(bar, "rolling up old days"))
            images = (prune_images(connection, _day(db, today_date - timedelta(
                days=settings.image_days)).since_ms) if settings.image_days else (0, 0))
            release_space(connection, db, _phase(bar, "returning free space to the disk"))
    finally:
        connection.close()
    after = file_bytes(db)
    print(_summary(rolled, removed, images, before, after))
    return 0


def _phase(bar, name: str):
    return (lambda done, total: bar(name, done, total)) if bar is not None else None


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


def _dry_run(connection, days, raw_cut, budget, settings, today_date, plan_raw, prune_images,
             live_bytes) -> int:
    from core.store.retention import Removed

    due = [w for w in days if raw_cut is not None and w.until_ms <= raw_cut]
    removed = Removed()
    for window in due:
        removed = removed + plan_raw(connection, window.since_ms, window.until_ms)
    lines = [f"would roll up {len(due)} day(s)" + (f", {due[0].label} to {due[-1].label}" if due else "")
             + f", removing {_rows(removed)}"]
    if budget is not None:
        lines.append(f"then, while the store's pages in use exceed {settings.max_store_mb} MiB "
                     f"(now {live_bytes(connection) / MIB:.1f} MiB), the oldest days left, one by one")
    if settings.image_days:
        cut = _day_start(connection, today_date - timedelta(days=settings.image_days))
        count, size = prune_images(connection, cut, dry_run=True)
        lines.append(f"would remove {count} image(s) ({size / MIB:.1f} MiB) older than "
                     f"{settings.image_days} day(s)")
    print("\n".join(lines))
    return 0


def _day_start(connection, day: date) -> int:
    db = Path(connection.filename)
    return _day(db, day).since_ms


def _rows(removed) -> str:
    return (f"{removed.snapshots:,} snapshots, {removed.input_events:,} input rows, "
            f"{removed.elements:,} elements in {removed.trees:,} walks, {removed.images:,} images "
            f"({removed.image_bytes / MIB:.1f} MiB), {removed.blind_spots:,} blind spots")


def _summary(rolled: list[str], removed, images: tuple[int, int], before: int, after: int) -> str:
    lines = [f"rolled up {len(rolled)} day(s)" + (f", {rolled[0]} to {rolled[-1]}" if rolled else "")
             + f": removed {_rows(removed)}"]
    if images[0]:
        lines.append(f"removed {images[0]:,} older image(s) ({images[1] / MIB:.1f} MiB)")
    lines.append(f"store: {before / MIB:.1f} MiB → {after / MIB:.1f} MiB")
    return "\n".join(lines)
