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

from core.store.retention_days import _day, _raw_days, _roll

from ..errors import CliError

MIB = 1024 * 1024


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
