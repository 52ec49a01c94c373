"""`phantom demo`: run the whole story on a private virtual desktop."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from ..errors import EXIT_USAGE, CliError
from ..parsers import Subcommands


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("demo", help="run Phantom end to end on a private virtual desktop",
                       description="Start a private Xvfb + D-Bus + AT-SPI desktop with Phantom's "
                       "fixture apps, let a scripted user work while the real capture daemon "
                       "records, then show what each stage makes of it.")
    p.add_argument("--out", type=Path, default=Path("demo-output"),
                   help="directory for the demo's store and logs (default: ./demo-output, replaced)")
    p.set_defaults(handler=run_demo)


def run_demo(args: argparse.Namespace) -> int:
    from testbed.demo.story import Demo

    if os.path.lexists(args.out) and (args.out.is_symlink() or not args.out.is_dir()):
        # The directory is replaced whole: only a directory is taken for one.
        raise CliError(f"phantom demo: --out {args.out} is not a directory; name a directory "
                       "(it is replaced) or a new path", EXIT_USAGE)
    return Demo(args.out).run()
