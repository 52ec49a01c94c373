"""`phantom record start NAME | stop | discard`: mark an explicit
demonstration. Only inside one is typed text kept (never in password
fields); several recordings under one name are demonstrations of one
workflow. Discarding one forgets it and everything captured while it ran."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from core.bus import CAPTURE, BusUnavailable, call

from ..errors import CliError
from ..parsers import Subcommands


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("record", help="start, stop or discard an explicit demonstration",
                       description="Record a demonstration of a workflow with the running capture "
                       "daemon: `phantom record start NAME`, do the workflow, `phantom record stop`. "
                       "Record it at least twice (with different values where they vary), then "
                       "`phantom compile-program NAME`.")
    actions = p.add_subparsers(dest="record_action", metavar="ACTION", required=True)
    start = actions.add_parser(
        "start", help="begin a demonstration named NAME",
        description="Ask the running capture daemon to start an explicit demonstration named NAME: "
        "until `phantom record stop`, the text you type is kept (never in password fields), so that "
        "values that differ between demonstrations can become parameters.")
    start.add_argument("name")
    start.set_defaults(handler=run_start)
    stop = actions.add_parser(
        "stop", help="end the demonstration in progress",
        description="End the demonstration in progress and print its id and name; typed text is "
        "no longer kept from then on.")
    stop.set_defaults(handler=run_stop)
    discard = actions.add_parser(
        "discard", parents=[common], help="erase the demonstration in progress, or the last one",
        description="Stop the demonstration being recorded, or take the last finished one, and "
        "forget it for good: its typed text, its rows and everything captured while it ran, and "
        "the programs compiled from it (as `phantom forget` does). Asks first on a terminal.")
    discard.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    discard.set_defaults(handler=run_discard)


def run_start(args: argparse.Namespace) -> int:
    from capturer.control import check_recording_name

    # Checked here too: a control character (a NUL above all) cannot even
    # travel to the daemon in a D-Bus string.
    recording_id = _call("StartRecording", "s", [check_recording_name(args.name)])[0]
    print(f"recording {args.name!r} (#{recording_id}); typed text is kept until "
          f"`phantom record stop` (never in password fields)")
    return 0


def run_stop(args: argparse.Namespace) -> int:
    recording_id, name = _call("StopRecording")
    print(f"stopped recording {name!r} (#{recording_id})")
    return 0


def run_discard(args: argparse.Namespace) -> int:
    from core.store.paths import resolve_db_path
    from core.store.recordings import finished_span, last_finished

    from .capture import daemon_status
    from .forgetting import confirm, describe, forget_windows

    status = daemon_status()
    db = Path(status["db"]) if status and not args.db else resolve_db_path(args.db)
    if status and status.get("recording") and Path(status["db"]).resolve() == db.resolve():
        name = status["recording"]
        confirm(args.yes, f"Discard the demonstration {name!r} being recorded, and everything "
                "captured since it started?", "record discard")
        recording_id, name = _call("StopRecording")
    else:
        last = last_finished(db)
        if last is None:
            raise CliError("phantom record discard: no demonstration to discard")
        recording_id, name, start_ms, end_ms = last
        confirm(args.yes, f"Discard the demonstration {name!r} recorded "
                f"{_local(start_ms)} – {_local(end_ms)}, and everything captured meanwhile?",
                "record discard")
    span = finished_span(db, recording_id)
    if span is None:
        raise CliError(f"phantom record discard: recording #{recording_id} is not in {db}")
    start_ms, end_ms = span
    for report in forget_windows(db, [(start_ms, end_ms + 1)]):
        print(describe(report, None, "discarded"))
    return 0


def _local(ms: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ms / 1000))


def _call(method: str, signature: str = "", body: list[Any] | None = None) -> list[Any]:
    try:
        return call(CAPTURE, method, signature, body)
    except BusUnavailable as exc:
        raise BusUnavailable(f"capture daemon not reachable: {exc}") from None
