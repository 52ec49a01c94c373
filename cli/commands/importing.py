"""`phantom import`: bring another recorder's history into the Phantom store
— a nocta-recorder / screenpipe capture database, or ActivityWatch's JSON
export or aw-server database — so `phantom compile`, `phantom routines` and
program compilation see it too (the compiler can also read a nocta database
directly with `--db`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import CliError
from ..parsers import Subcommands


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "import", parents=[common], help="import nocta/screenpipe or ActivityWatch history into the store",
        description="Copy another recorder's history into the Phantom store, through the store's own writer: "
        "a nocta-recorder / screenpipe capture database (frames become snapshots, ui_events input counts; "
        "typed text is never imported, only its length), or ActivityWatch data — its JSON export "
        "(what aw-server and aw-server-rust answer at /api/0/export) or the Python aw-server's database "
        "(~/.local/share/activitywatch/aw-server/peewee-sqlite.v2.db): window events become snapshots, afk "
        "periods idle time, web-watcher URLs the browser's pages. Titles and URLs obey the same exclusion "
        "rules as live capture (an excluded window leaves only a blind spot), and importing the same "
        "history again adds nothing. Stop the capture daemon while importing.")
    p.add_argument("source", type=Path, help="the database or export file to read (never changed)")
    p.add_argument("--host", help="ActivityWatch: the host whose windows to import, when the history "
                   "holds several")
    p.add_argument("--tz", metavar="ZONE", default="UTC",
                   help="IANA zone the history was lived in, for local times (default: UTC; neither "
                   "source records one)")
    p.add_argument("--config", type=Path,
                   help="config file with the exclusion rules (default: $XDG_CONFIG_HOME/phantom/config.toml)")
    p.set_defaults(handler=run_import)


def run_import(args: argparse.Namespace) -> int:
    from capturer.config import load_config
    from capturer.imports import import_history
    from compiler.api import read_nocta
    from core.store.paths import resolve_db_path

    try:
        from zoneinfo import ZoneInfo

        ZoneInfo(args.tz)
    except (ValueError, KeyError, OSError):
        raise CliError(f"unknown time zone {args.tz[:80]!r} (give an IANA name such as Europe/Berlin)", 2) from None
    config = load_config(args.config)
    target = resolve_db_path(args.db)
    from ..progress import TerminalProgress

    with TerminalProgress("reading") as progress:
        report = import_history(args.source, target, rules=config.exclusions, browsers=config.browsers,
                                read_capture=read_nocta, host=args.host, zone=args.tz, progress=progress)
    written = report.written
    again = f"; {report.already:,} records were imported before" if report.already else ""
    print(f"imported {written.snapshots:,} snapshots, {written.input_events:,} input events and "
          f"{written.blind_spots:,} blind spots from the {report.description} into {target}{again}")
    return 0
