"""The read side of the bridge: context blocks, measured frames and routine
candidates, compiled from the store exactly as the CLI compiles them.

Each function calls `compiler.api` and nothing else, so the text an agent
gets over MCP is byte for byte what `phantom compile` prints for the same
window. A request the compiler cannot honour raises the compiler's error,
which the server's edge makes a tool error (`errors.translated`): the client
sees it as `isError`, starting with its kind."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcp.server.mcpserver.exceptions import ResourceError

from core.errors import PhantomError

# The measured part of the JSON document: what was observed, how much of
# the window the capture covers, what it could not see, and which rows it
# rests on. The inferred tier is left out on purpose (ask for the full JSON
# with `phantom_context(format="json")`).
MEASURED_KEYS = ("schema", "window", "coverage", "frames", "blind_spots", "provenance")


def _now() -> int:
    """The current instant, read here at the edge: the compiler takes it
    as an argument for `now`, `today` and offsets such as `-2h`."""
    from core.clock import now_ms

    return now_ms()


def context_text(db: Path, since: str | None, until: str | None, fmt: str, budget: int) -> str:
    from compiler.api import compile_window, render

    compiled = compile_window(db, since=since, until=until, now_ms=_now())
    return render(compiled, fmt, budget=budget).decode("utf-8")


def measured_frames(db: Path, since: str | None, until: str | None) -> dict[str, Any]:
    from compiler.api import compile_window
    from compiler.render.json_doc import document_dict

    compiled = compile_window(db, since=since, until=until, now_ms=_now())
    document = document_dict(compiled.document, compiled.times, compiled.window.label,
                             compiled.window.note)
    return {key: document[key] for key in MEASURED_KEYS}


def routine_candidates(db: Path, since: str | None, until: str | None, limit: int) -> dict[str, Any]:
    from compiler.api import report_dict, routine_report

    report, window = routine_report(db, since=since, until=until, now_ms=_now(),
                                    limit=limit or None)
    return {"window": {"label": window.label, "zone": window.zone}, **report_dict(report)}


def search_text(db: Path, text: str, since: str | None, until: str | None,
                limit: int) -> dict[str, Any]:
    """Stretches of time when the words were on screen, as `phantom search
    --format json` gives them; the index is brought up to date first (a
    derived copy of what the store holds, like the compiled-document cache)."""
    from compiler.api import search
    from compiler.search import search_dict
    from core.store.search_index import update_index

    warning = update_index(db)
    result, window = search(db, text, since=since, until=until, now_ms=_now(), limit=limit)
    answer = search_dict(result, window)
    if warning:
        answer["note"] = warning
    return answer


def today_text(db: Path) -> str:
    """Today's compact block: today in the zone the capture recorded
    nearest now, as `phantom compile` with no window prints it."""
    from compiler.api import compile_window, render

    try:
        return render(compile_window(db, now_ms=_now()), "compact").decode("utf-8")
    except PhantomError as exc:
        raise ResourceError(str(exc)) from None
