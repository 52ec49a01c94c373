"""`phantom record start NAME | stop`: mark an explicit demonstration. Only
inside one is typed text kept (never in password fields); several
recordings under one name are demonstrations of one workflow."""

from __future__ import annotations

from core.bus import CAPTURE, BusUnavailable, call

from ..errors import CliError


def add_parsers(sub, common) -> None:
    p = sub.add_parser("record", help="start or stop an explicit demonstration",
                       description="Record a demonstration of a workflow with the running capture "
                       "daemon: `phantom record start NAME`, do the workflow, `phantom record stop`. "
                       "Record it at least twice (with different values where they vary), then "
                       "`phantom compile-program NAME`.")
    actions = p.add_subparsers(dest="record_action", metavar="ACTION", required=True)
    start = actions.add_parser("start", help="begin a demonstration named NAME")
    start.add_argument("name")
    start.set_defaults(handler=run_start)
    stop = actions.add_parser("stop", help="end the demonstration in progress")
    stop.set_defaults(handler=run_stop)


def run_start(args) -> int:
    from capturer.control import check_recording_name

    # Checked here too: a control character (a NUL above all) cannot even
    # travel to the daemon in a D-Bus string.
    recording_id = _call("StartRecording", "s", [check_recording_name(args.name)])[0]
    print(f"recording {args.name!r} (#{recording_id}); typed text is kept until "
          f"`phantom record stop` (never in password fields)")
    return 0


def run_stop(args) -> int:
    recording_id, name = _call("StopRecording")
    print(f"stopped recording {name!r} (#{recording_id})")
    return 0


def _call(method: str, signature: str = "", body: list | None = None):
    try:
        return call(CAPTURE, method, signature, body)
    except BusUnavailable as exc:
        raise CliError(f"capture daemon not reachable: {exc}") from None
