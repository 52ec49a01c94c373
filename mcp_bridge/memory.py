"""The read side of the bridge: context blocks, measured frames and routine
candidates, compiled from the store exactly as the CLI compiles them.

Each function calls `compiler.api` and nothing else, so the text an agent
gets over MCP is byte for byte what `phantom compile` prints for the same
window. A request the compiler cannot honour becomes a `ToolError` with the
compiler's one-line message, which the client sees as `isError`."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from mcp.server.mcpserver.exceptions import ResourceError, ToolError

from core.errors import PhantomError

from .errors import reports_errors

# The measured part of the JSON document: what was observed, how much of
# the window the capture covers, what it could not see, and which rows it
# rests on. The inferred tier is left out on purpose (ask for the full JSON
# with `phantom_context(format="json")`).
MEASURED_KEYS = ("schema", "window", "coverage", "frames", "blind_spots", "provenance")


@reports_errors
def context_text(db: Path, since: str, until: str, fmt: str, budget: int) -> str:
    from compiler.api import compile_window, render

    return render(compile_window(db, since=since, until=until), fmt, budget=budget).decode("utf-8")


@reports_errors
def measured_frames(db: Path, since: str, until: str) -> dict[str, Any]:
    from compiler.api import compile_window
    from compiler.render.json_doc import document_dict

    compiled = compile_window(db, since=since, until=until)
    document = document_dict(compiled.document, compiled.times, compiled.window.label)
    return {key: document[key] for key in MEASURED_KEYS}


@reports_errors
def routine_candidates(db: Path, since: str | None, until: str | None, limit: int) -> dict[str, Any]:
    from compiler.api import report_dict, routine_report

    if (since is None) != (until is None):
        raise ToolError("give both since and until, or neither for the whole history")
    report, window = routine_report(db, since=since, until=until, limit=limit or None)
    return {"window": {"label": window.label, "zone": window.zone}, **report_dict(report)}


def today_text(db: Path) -> str:
    """Today's compact block. The clock is read here, at the edge: the date
    is today's in the local zone, and the compiler then renders that day in
    the zone the capture recorded (they differ only after travel)."""
    from compiler.api import compile_window, render
    from compiler.window import WindowError, zone_info
    from core.clock import local_zone_name, now_ms

    try:
        zone = zone_info(local_zone_name())
    except WindowError:  # a local zone name zoneinfo does not know: UTC's today
        zone = timezone.utc
    day = datetime.fromtimestamp(now_ms() / 1000, tz=timezone.utc).astimezone(zone).date()
    try:
        return render(compile_window(db, day=day.isoformat()), "compact").decode("utf-8")
    except PhantomError as exc:
        raise ResourceError(str(exc)) from None
