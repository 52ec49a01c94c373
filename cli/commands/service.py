"""`phantom replay-service` (what D-Bus activation starts) and `phantom
shortcut` (the exact `gdbus call` line to bind to a key)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from ..errors import bounded
from ..parsers import Subcommands, number

MAX_IDLE_TIMEOUT_S = 86_400.0


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "replay-service", parents=[common], help="serve org.phantom.Replay1 on the session bus",
        description="Serve org.phantom.Replay1 (ListPrograms, Describe, Replay, ReplayIntent, "
        "FindProgram, ReplayAsync, "
        "Context, ListRoutines) until idle. D-Bus activation and the phantom-replay systemd unit "
        "start this; you rarely run it by hand.")
    p.add_argument("--idle-timeout", type=number, default=120.0,
                   help="exit after this many seconds without a call (default 120)")
    p.add_argument("--notify-success", action="store_true",
                   help="also post a desktop notification when a replay succeeds (failures always do)")
    p.add_argument("-v", "--verbose", action="store_true")
    p.set_defaults(handler=run_service)

    p = sub.add_parser(
        "shortcut", parents=[common],
        help="print the gdbus command that replays a program (for a key binding)",
        description="Check that the program exists and that the parameters are exactly the ones "
        "it declares, then print the command to bind to a keyboard shortcut: it asks the replay "
        "service (started on demand) to replay the program with these parameters. A replay "
        "started this way that escalates, is refused or fails shows a desktop notification, and the "
        "gdbus call exits non-zero (org.phantom.Error.Escalated, Refused or Failed).")
    p.add_argument("program", help="program name or id")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    p.set_defaults(handler=run_shortcut)


def run_service(args: argparse.Namespace) -> int:
    from dbus_fast.errors import AuthError, InvalidAddressError

    from core.bus import BusUnavailable, session_bus_address
    from core.store.paths import resolve_db_path
    from replay.service import ReplayService

    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, stream=sys.stderr,
                        format="phantom-replay: %(levelname)s %(message)s")
    bounded(args.idle_timeout, 0.1, MAX_IDLE_TIMEOUT_S, "--idle-timeout", "replay-service")
    if session_bus_address() is None:
        raise BusUnavailable("phantom replay-service: no session D-Bus (DBUS_SESSION_BUS_ADDRESS is not set, "
                             "and there is no bus socket under $XDG_RUNTIME_DIR)")
    # Without --db the service reads the store on every call (PHANTOM_DB, the
    # store `phantom install --db` recorded, the default): one chosen after
    # D-Bus activation started it is the one the next call reaches.
    service = ReplayService(resolve_db_path(args.db) if args.db else None, idle_timeout=args.idle_timeout,
                            notify_success=args.notify_success)
    try:
        return asyncio.run(service.serve())
    except (OSError, ValueError, AuthError, InvalidAddressError) as exc:
        raise BusUnavailable(f"cannot serve on the session bus: {' '.join(str(exc).split())[:160]}") from None


def run_shortcut(args: argparse.Namespace) -> int:
    from core.store.paths import resolve_db_path
    from replay.api import ReplayRequest, prepare
    from replay.params import parse_assignments
    from replay.shortcut import gdbus_command

    parameters = parse_assignments(args.param)
    # A key binding that cannot work must fail now, not silently when pressed.
    prepare(resolve_db_path(args.db), ReplayRequest(args.program, parameters, dry_run=True))
    print(gdbus_command(args.program, parameters))
    return 0
