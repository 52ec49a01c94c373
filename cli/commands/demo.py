"""`phantom demo`: run the whole story on a private virtual desktop."""

from __future__ import annotations

import argparse
from pathlib import Path

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

    return Demo(args.out).run()
