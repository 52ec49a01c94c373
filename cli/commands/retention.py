"""`phantom retention run`: keep what the `[retention]` settings say, roll
up the rest, and say what went. The run itself — which days are due, the
roll-ups in and the raw rows out, old images, the space handed back — is
core/store/retention_days.py; the compiler resolves the days and makes
their roll-ups."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from ..parsers import Subcommands

if TYPE_CHECKING:
    from core.store.retention import Removed
    from core.store.retention_days import Compiling, Done, Keep, Plan

MIB = 1024 * 1024


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
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


def run_retention(args: argparse.Namespace) -> int:
    from capturer.config import load_config
    from core.store.paths import resolve_db_path
    from core.store.retention_days import Keep, apply, plan

    from ..progress import TerminalProgress

    settings = load_config(args.config).retention
    db = resolve_db_path(args.db)
    keep = Keep(settings.raw_days, settings.max_store_mb, settings.image_days)
    if not (keep.raw_days or keep.max_store_mb or keep.image_days):
        print("no [retention] settings: everything is kept (see `phantom retention run --help`)")
        return 0
    if args.dry_run:
        print(_plan_lines(plan(db, keep, _compiling(db)), keep))
        return 0
    with TerminalProgress("retention") as bar:
        done = apply(db, keep, _compiling(db), bar)
    print(_summary(done))
    return 0


def _compiling(db: Path) -> Compiling:
    """The compiler's part of retention (core/store/retention_days.py):
    local days resolved as `phantom compile --day` resolves them, today at
    this instant, and each day's roll-up."""
    from compiler.api import resolve_window, roll_up
    from core.clock import now_ms
    from core.store.retention_days import Compiling

    now = now_ms()
    return Compiling(today=lambda: resolve_window(db, day="today", now_ms=now),
                     day=lambda day: resolve_window(db, day=day.isoformat()),
                     roll_up=lambda label: roll_up(db, label))


def _plan_lines(plan: Plan, keep: Keep) -> str:
    lines = [f"would roll up {len(plan.due)} day(s)"
             + (f", {plan.due[0]} to {plan.due[-1]}" if plan.due else "")
             + f", removing {_rows(plan.removed)}"]
    if keep.max_store_mb:
        lines.append(f"then, while the store's pages in use exceed {keep.max_store_mb} MiB "
                     f"(now {plan.live_bytes / MIB:.1f} MiB), the oldest days left, one by one")
    if plan.images is not None:
        count, size = plan.images
        lines.append(f"would remove {count} image(s) ({size / MIB:.1f} MiB) older than "
                     f"{keep.image_days} day(s)")
    return "\n".join(lines)


def _rows(removed: Removed) -> str:
    return (f"{removed.snapshots:,} snapshots, {removed.input_events:,} input rows, "
            f"{removed.elements:,} elements in {removed.trees:,} walks, {removed.images:,} images "
            f"({removed.image_bytes / MIB:.1f} MiB), {removed.blind_spots:,} blind spots")


def _summary(done: Done) -> str:
    rolled, images = done.rolled, done.images
    lines = [f"rolled up {len(rolled)} day(s)" + (f", {rolled[0]} to {rolled[-1]}" if rolled else "")
             + f": removed {_rows(done.removed)}"]
    if images[0]:
        lines.append(f"removed {images[0]:,} older image(s) ({images[1] / MIB:.1f} MiB)")
    lines.append(f"store: {done.bytes_before / MIB:.1f} MiB → {done.bytes_after / MIB:.1f} MiB")
    return "\n".join(lines)
