"""`phantom compile`: a window of the store as activity frames — canonical
JSON, Markdown, or the compact block for a system prompt."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..errors import bounded
from ..parsers import Subcommands, integer
from .windows import add_window_arguments, window_of

MAX_BUDGET = 100_000


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "compile", parents=[common], help="compile a day or window into activity frames",
        description="Compile a window of the capture store (read-only) into activity frames: "
        "deterministic, zero-model, byte-identical for the same rows. Also reads databases in "
        "the nocta-recorder / screenpipe layout, detected automatically. With no window, today; "
        "a window reaching past the days the store holds is clamped to them, and says so.")
    add_window_arguments(p, nothing="today")
    p.add_argument("--format", choices=("compact", "json", "markdown"), default="compact",
                   help="output format (default: compact)")
    p.add_argument("--budget", type=integer, default=2000,
                   help=f"token budget of the compact block (cl100k_base, estimated; 100–{MAX_BUDGET}, "
                   "default 2000)")
    p.add_argument("--no-inferred", action="store_true",
                   help="leave out the inferred tier; the measured tier is unchanged")
    p.add_argument("--out", type=Path,
                   help="write here instead of stdout (a file atomically; a device or FIFO as it is)")
    p.add_argument("--no-cache", action="store_true",
                   help="compile afresh, without reading or writing the compiled-document cache "
                   "($XDG_CACHE_HOME/phantom/compiled; an entry is used only when the window's rows "
                   "are exactly those it was compiled from)")
    p.set_defaults(handler=run_compile)


def run_compile(args: argparse.Namespace) -> int:
    # A compile's numpy work is small vector arithmetic, never a large matrix
    # product: one BLAS thread is enough, and not starting the others saves
    # 20-40 ms of this process's life when a window has to be compiled.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from compiler.api import compile_window, render
    from core.store.paths import resolve_db_path

    from ..output import write_output
    from ..progress import busy

    bounded(args.budget, 100, MAX_BUDGET, "--budget", "compile")
    with busy("compiling"):
        compiled = compile_window(resolve_db_path(args.db), **window_of(args),
                                  inferred=not args.no_inferred, cache=not args.no_cache)
    output = render(compiled, args.format, budget=args.budget)
    if args.out is None:
        sys.stdout.buffer.write(output)
        sys.stdout.flush()
    else:
        write_output(args.out, output)
    return 0

