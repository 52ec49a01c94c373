"""`phantom timeline`: a picture of a day (or any window) — per monitor a
lane per application, frames as bars, gaps and blind spots shaded, routines
marked — as PNG or SVG, the same bytes for the same rows."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import EXIT_USAGE, CliError
from ..parsers import Subcommands
from .windows import add_window_arguments, window_of


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "timeline", parents=[common], help="draw a day as a picture (PNG or SVG)",
        description="Draw a window of the store (today by default) as a timeline: for each "
        "monitor one lane per application with its frames as bars, idle and away gaps and blind "
        "spots shaded, and the occurrences of the recurring routines marked. The format follows "
        "the --out file's extension (.png or .svg). Drawn with matplotlib (Agg, no display); the "
        "same rows give the same bytes.")
    add_window_arguments(p, nothing="today")
    p.add_argument("--out", type=Path, required=True, metavar="FILE.png|FILE.svg",
                   help="where to write the picture (atomically)")
    p.set_defaults(handler=run_timeline)


def run_timeline(args: argparse.Namespace) -> int:
    from compiler.api import timeline
    from core.store.paths import resolve_db_path

    from ..output import write_output

    fmt = args.out.suffix.lower().lstrip(".")
    if fmt not in ("png", "svg"):
        raise CliError(f"phantom timeline: --out must end in .png or .svg, not {args.out.name!r}",
                       EXIT_USAGE)
    picture = timeline(resolve_db_path(args.db), fmt, **window_of(args))
    write_output(args.out, picture)
    print(f"wrote {args.out} ({len(picture):,} bytes)")
    return 0
