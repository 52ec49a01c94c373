"""The time-window options every command that reads a stretch of the store
shares (`--day`, `--since`, `--until`, `--tz`), and the one place the CLI
reads the clock for them: the compiler takes the current instant as an
argument and never reads it itself."""

from __future__ import annotations

import argparse
from typing import TypedDict

from ..parsers import ExclusiveGroup

FORMS = ("now, today, yesterday, a date (2026-03-02), a time today (14:00), an offset back from "
         "now (-2h, 90m ago) or ISO 8601 (2026-03-02T09:00, …+01:00)")


def add_window_arguments(p: argparse.ArgumentParser, *, nothing: str,
                         required: bool = False) -> ExclusiveGroup:
    """--day, or --since/--until; `nothing` says what no window means. The
    mutually exclusive group is returned for commands with more choices."""
    when = p.add_mutually_exclusive_group(required=required)
    when.add_argument("--day", help="a local calendar day: today, yesterday or YYYY-MM-DD (in the "
                      "zone the capture recorded)")
    when.add_argument("--since", help=f"start: {FORMS}; alone, it runs until now" +
                      ("" if required else f" (no window: {nothing})"))
    p.add_argument("--until", help="end (exclusive), in the same forms; alone, from the start of "
                   "its day")
    p.add_argument("--tz", help="read and render times in this IANA zone instead of the captured one")
    return when


class WindowArguments(TypedDict):
    """The compiler's window keywords, as `window_of` gives them."""

    day: str | None
    since: str | None
    until: str | None
    tz: str | None
    now_ms: int


def window_of(args: argparse.Namespace) -> WindowArguments:
    """Keyword arguments for the compiler's front door, `now_ms` included."""
    from core.clock import now_ms

    return {"day": args.day, "since": args.since, "until": args.until, "tz": args.tz,
            "now_ms": now_ms()}
