"""`phantom synth`: write a reproducible synthetic capture corpus.

N consecutive weekdays of simulated desktop work with known routines planted
in them, as a Phantom store (or a nocta/screenpipe-layout database for
activity-frames). The same seed and arguments give a byte-identical file."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import EXIT_USAGE, CliError
from ..parsers import Subcommands, integer

if TYPE_CHECKING:
    from synth import DayCounts


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "synth", parents=[common], help="write a reproducible synthetic capture corpus",
        description="Write DAYS consecutive weekdays of simulated desktop activity (two monitors, browser, "
        "mail, editor, terminal, spreadsheet, files, chat; snapshots, input counts, accessibility trees, "
        "blind spots) with known routines planted in it, into a new database at --db. The same seed and "
        "arguments always give the same bytes. Ground truth: the 'synth_manifest' entry of the meta "
        "table (phantom layout) or the synth_manifest table (nocta layout).")
    p.add_argument("--days", type=integer, required=True, metavar="N", help="active days to generate (1-400)")
    p.add_argument("--seed", type=integer, default=7, help="random seed (default: 7)")
    p.add_argument("--layout", choices=("phantom", "nocta"), default="phantom",
                   help="phantom: a Phantom store; nocta: nocta/screenpipe tables for activity-frames")
    p.add_argument("--start", default="2026-03-02", metavar="YYYY-MM-DD",
                   help="first day; weekends are skipped (default: 2026-03-02, a Monday)")
    p.add_argument("--tz", default="Europe/Berlin", metavar="ZONE",
                   help="IANA time zone the user lives in (default: Europe/Berlin)")
    p.add_argument("--live-like", action="store_true",
                   help="also write what the live daemon writes and the default corpus leaves out: every input "
                   "row linked to its window's snapshot, each click's target inline and its visual evidence "
                   "(three crops as blobs with click_evidence rows); phantom layout only. The same seed gives "
                   "the same activity as without it")
    p.add_argument("--force", action="store_true", help="replace an existing file at --db")
    p.set_defaults(handler=run_synth)


def run_synth(args: argparse.Namespace) -> int:
    from synth import synthesize
    from synth.calendar import parse_start, zone

    if args.db is None:
        raise CliError("synth needs --db OUT: it writes a new database and never touches your capture store",
                       EXIT_USAGE)
    out = Path(args.db).expanduser()
    if not 1 <= args.days <= 400:
        raise CliError(f"--days must be between 1 and 400 (got {args.days})", EXIT_USAGE)
    if not 0 <= args.seed < 2**63:
        raise CliError(f"--seed must be between 0 and 2^63-1 (got {str(args.seed)[:40]})", EXIT_USAGE)
    if args.live_like and args.layout != "phantom":
        raise CliError("--live-like writes a Phantom store: the nocta layout links its events to frames already",
                       EXIT_USAGE)
    start = parse_start(args.start)
    zone(args.tz)
    if out.is_dir():
        raise CliError(f"{out} is a directory")
    if out.exists() and not args.force:
        raise CliError(f"{out} exists; pass --force to replace it")
    if not out.parent.exists():
        raise CliError(f"no such directory: {out.parent}")

    from ..progress import TerminalProgress

    started = time.monotonic()
    try:
        with TerminalProgress("writing days") as bar:
            def progress(counts: DayCounts, days: int) -> None:
                if bar is not None:
                    bar(f"{counts.date}: {counts.snapshots:,} snapshots, {counts.elements:,} elements",
                        counts.index + 1, days)

            summary = synthesize(out, days=args.days, seed=args.seed, start=start, tz=args.tz,
                                 layout=args.layout, overwrite=args.force, progress=progress,
                                 live_like=args.live_like)
    except OSError as exc:
        raise CliError(f"cannot write {out}: {exc.strerror or exc}") from None
    elapsed = time.monotonic() - started
    plural = "s" if summary.days != 1 else ""
    live = ", live-like" if summary.live_like else ""
    print(f"wrote {summary.path} ({summary.layout} layout{live}, seed {summary.seed}): {summary.days} day{plural} "
          f"{summary.start}..{summary.end} {summary.tz}, {summary.snapshots:,} snapshots, "
          f"{summary.input_events:,} input rows, {summary.elements:,} elements, "
          f"{summary.routine_occurrences:,} planted routine occurrences in {elapsed:.1f} s")
    return 0
