"""`phantom forget` and `phantom export`: the person's own control over what
is stored. Forget erases a window (or the demonstrations of a name) for good
— through the running capture daemon's own writer when one writes to the
store, so nothing it holds survives, else directly while holding the
daemon's lock. Export writes what the store holds about a window as JSON
Lines, for an audit. Neither is an MCP tool: an agent must not erase a
person's memory or read its raw rows."""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Iterable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, BinaryIO, TypeAlias

import orjson

from ..errors import EXIT_USAGE, CliError
from ..output import write_output
from ..parsers import ExclusiveGroup, Subcommands

# What goes (or went) from one window: `ForgetReport.as_dict()`, or the
# daemon's JSON of it, with "nothing" added.
Report: TypeAlias = dict[str, Any]


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "forget", parents=[common], help="erase a stretch of time, or a demonstration, for good",
        description="Erase everything captured in a window: snapshots, input rows, accessibility "
        "walks and elements, images, replay runs, the demonstrations that overlap it (whole) and "
        "the programs compiled from them; blind spots are cut at the window's edges and the "
        "window is marked 'forgotten'. Then the store is rewritten (VACUUM) and its WAL emptied, "
        "so no freed page keeps a copy, and Phantom's cache is emptied. A running capture daemon "
        "does it with its own writer. Asks before erasing on a terminal (--yes to skip); "
        "--dry-run only says what would go.")
    when = _window_arguments(p)
    when.add_argument("--recording", metavar="NAME",
                      help="every finished demonstration recorded under NAME, with all that was "
                      "captured while it ran")
    p.add_argument("--dry-run", action="store_true", help="say what would go; change nothing")
    p.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(handler=run_forget)

    p = sub.add_parser(
        "export", parents=[common], help="what is stored about a window, as JSON Lines",
        description="Write every row the store holds about a window — snapshots, input rows, "
        "accessibility walks and elements, image descriptions, blind spots, recordings, replay "
        "runs, programs — one JSON object per line with its table's name, for your own audit. "
        "Nothing is stored that this could reveal and the store does not hold: no typed text "
        "outside a recording, no password, no URL token. Reads the store read-only.")
    _window_arguments(p)
    p.add_argument("--images", action="store_true", help="include the images' bytes (base64)")
    p.add_argument("--out", type=Path, help="write here (0600, atomically) instead of stdout")
    p.set_defaults(handler=run_export)


# -- windows ------------------------------------------------------------------------------
def _window_arguments(p: argparse.ArgumentParser) -> ExclusiveGroup:
    """--day, or --since (until now, or --until), and --tz; the group, for
    more choices. A window is required: nothing is forgotten by default."""
    from .windows import add_window_arguments

    return add_window_arguments(p, nothing="", required=True)


def _window(args: argparse.Namespace, db: Path) -> tuple[int, int, str]:
    from compiler.api import resolve_window

    from .windows import window_of

    window = resolve_window(db, **window_of(args))
    return window.since_ms, window.until_ms, window.zone


# -- forget -----------------------------------------------------------------------------------
def run_forget(args: argparse.Namespace) -> int:
    from core.store.paths import resolve_db_path
    from core.store.recordings import finished_spans

    db = resolve_db_path(args.db)
    if args.recording is not None:
        if args.until is not None:
            raise CliError("phantom forget: --until goes with --since, not --recording", EXIT_USAGE)
        windows = finished_spans(db, args.recording)
        zone = None
    else:
        since, until, zone = _window(args, db)
        windows = [(since, until)]
    plans = [plan(db, since, until) for since, until in windows]
    if args.dry_run:
        _print(plans, zone, args.format, "would go")
        return 0
    if all(p["nothing"] for p in plans):
        _print(plans, zone, args.format, "would go")
        print("nothing is stored there; nothing was changed", file=sys.stderr)
        return 0
    if args.format == "text":
        _print(plans, zone, "text", "will go")
    confirm(args.yes, "Erase this for good?", "forget")
    reports = forget_windows(db, windows)
    _print(reports, zone, args.format, "forgotten")
    return 0


def plan(db: Path, since: int, until: int) -> Report:
    from core.store import open_readonly
    from core.store.forget import plan_forget

    connection = open_readonly(db)
    try:
        report = plan_forget(connection, since, until)
    finally:
        connection.close()
    return {**report.as_dict(), "nothing": report.nothing()}


def confirm(yes: bool, question: str, command: str) -> None:
    """Ask on a terminal; elsewhere only --yes confirms."""
    if yes:
        return
    if not sys.stdin.isatty():
        raise CliError(f"phantom {command}: nothing was changed — confirm with --yes (standard input "
                       "is not a terminal to ask on)", EXIT_USAGE)
    try:
        answer = input(f"{question} [y/N] ")
    except EOFError:
        answer = ""
    if answer.strip().lower() not in ("y", "yes"):
        raise CliError(f"phantom {command}: not confirmed; nothing was changed")


def forget_windows(db: Path, windows: list[tuple[int, int]]) -> list[Report]:
    """Forget each window, through the capture daemon when it writes to this
    store, else directly (holding its lock, so none starts meanwhile)."""
    from capturer.forget import forget_windows as forget

    return forget(db, windows)


def _iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).isoformat(timespec="milliseconds")


def _print(reports: list[Report], zone: str | None, fmt: str, verb: str) -> None:
    if fmt == "json":
        for report in reports:
            report = dict(report)
            report.pop("nothing", None)
            print(json.dumps(report, sort_keys=True))
        return
    for report in reports:
        print(describe(report, zone, verb))


def describe(report: Report, zone: str | None, verb: str) -> str:
    """A report as a person reads it: the window, then what goes."""
    what = [f"{report['snapshots']} snapshots",
            f"{report['input_events']} input rows ({report['typed_texts']} with typed text)",
            f"{report['elements']} accessibility elements in {report['trees']} walks",
            f"{report['images']} images ({report['image_bytes']} bytes)",
            f"{report['replay_runs']} replay runs",
            f"{report['blind_spots']} blind spots removed or cut"]
    what += [f"{n} {table} rows" for table, n in report.get("derived", ()) if n]
    if report["recordings"]:
        what.append("demonstrations " + ", ".join(repr(name) for name in report["recordings"]))
    if report["programs"]:
        what.append("programs " + ", ".join(report["programs"]))
    lines = [f"{_local(report['since_ms'], zone)} – {_local(report['until_ms'], zone)}: {verb}: "
             + "; ".join(what)]
    if report.get("scrubbed") is True:
        lines.append("  the store was rewritten and its WAL emptied: no freed page keeps a copy"
                     + (f"; {report['caches']} cached files removed" if report.get("caches") else ""))
    elif report.get("scrubbed") is False:
        lines.append("  warning: a reader kept the WAL from being emptied; its freed pages are "
                     "overwritten at the next checkpoint")
    return "\n".join(lines)


def _local(ms: int, zone: str | None) -> str:
    from compiler.window import zone_info

    moment = datetime.fromtimestamp(ms / 1000, tz=timezone.utc)
    if zone:
        try:
            moment = moment.astimezone(zone_info(zone))
        except Exception:  # noqa: BLE001 - an unknown zone name: show UTC
            pass
    return moment.isoformat(timespec="seconds")


# -- export -----------------------------------------------------------------------------------
def run_export(args: argparse.Namespace) -> int:
    from core.store import open_readonly
    from core.store.export import export_rows
    from core.store.paths import resolve_db_path

    db = resolve_db_path(args.db)
    since, until, _ = _window(args, db)
    connection = open_readonly(db)
    rows = export_rows(connection, since, until, images=args.images)
    try:
        header = {"export": "phantom", "db": str(db), "since": _iso(since), "until": _iso(until),
                  "schema_version": int(connection.pragma("user_version"))}
        lines = itertools.chain([header], rows)
        if args.out is None:
            _write(sys.stdout.buffer, lines)
            sys.stdout.flush()
        else:
            write_output(args.out, lambda handle: _write(handle, lines), private=True)
    finally:
        # The rows' read transaction ends before its connection does, also when
        # the reader went away mid-stream (`phantom export | head`).
        rows.close()
        connection.close()
    return 0


def _write(stream: BinaryIO, lines: Iterable[dict[str, Any]]) -> None:
    for line in lines:
        stream.write(orjson.dumps(line, option=orjson.OPT_SORT_KEYS) + b"\n")
