"""The program side of the bridge: list stored programs, compile recordings
into one, and replay one in-process.

An escalated or refused replay is a *result*, not an error: the agent gets
the step, the reason and the candidates the screen offered, and can carry
on by hand from there. Only requests that cannot start — an unknown or
corrupt program, wrong parameters, no desktop — are `ToolError`s, and for
each nothing was sent."""

from __future__ import annotations

import logging
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError

from .errors import check_text, reports_errors

log = logging.getLogger(__name__)


@reports_errors
def list_stored(db: Path) -> dict[str, Any]:
    from compiler.programs.store import list_programs, load_program
    from core.errors import PhantomError

    summaries = list_programs(db)
    programs = []
    for summary in summaries:
        entry = {"id": summary.id, "name": summary.name, "source": summary.source,
                 "traces": summary.traces, "created": _utc_iso(summary.created_ms)}
        if summary.problem is not None:
            programs.append({**entry, "problem": f"unreadable: {summary.problem}"})
            continue
        try:
            programs.append({**entry, **describe(load_program(db, summary.id))})
        except PhantomError as exc:  # changed since the listing
            programs.append({**entry, "problem": f"unreadable: {exc}"})
    return {"programs": programs}


def describe(program) -> dict[str, Any]:
    """What an agent needs to call a program: its app, what each step does,
    and every parameter with the field it fills and the values recorded."""
    return {
        "app": program.app,
        "steps": len(program.steps),
        "outline": [_outline(step) for step in program.steps],
        "parameters": [{"name": p.name, "field": p.field, "step": p.step, "samples": list(p.samples)}
                       for p in program.parameters],
    }


@reports_errors
def compile_recordings(db: Path, name: str) -> dict[str, Any]:
    """Mirror of `phantom compile-program NAME`: align the finished
    recordings, compile, store. The clock is read only for the row's
    creation time, which is not part of the program or its id."""
    from core.clock import now_ms
    from compiler.programs.build import compile_program
    from compiler.programs.recordings import traces_for_recordings
    from compiler.programs.store import save_program
    from compiler.programs.variance import DELTA

    name = check_text(name.strip(), "the program name")
    if not name:
        raise ToolError("usage: the program name must not be empty")
    report = compile_program(name, traces_for_recordings(db, name), source="demonstration")
    save_program(db, report, created_ms=now_ms())
    program = report.program
    return {"id": program.id, "name": program.name, "traces": program.traces, **describe(program),
            "delta": DELTA,
            "distances": [{"step": d.step, "field": d.field, "distance": d.distance,
                           "parameterized": d.parameterized} for d in report.distances],
            "dropped_steps": report.dropped_steps, "warnings": list(report.warnings)}


@reports_errors
def replay(db: Path, name_or_id: str, parameters: dict[str, str], dry_run: bool) -> dict[str, Any]:
    """Through replay's front door, like the CLI and the D-Bus service: a
    request that cannot start (unknown or corrupt program, wrong parameters,
    no desktop, a busy desktop) is a tool error, and nothing was sent."""
    from core.bus import session_bus_address
    from replay.api import ReplayRequest
    from replay.api import replay as run_replay
    from replay.results import result_dict

    from core.errors import PhantomError, quoted

    check_text(name_or_id, "the program name or id")   # parameters: replay's own binding checks them
    session_bus_address()  # fills it in for pyatspi, which finds the accessibility bus through it
    request = ReplayRequest(name_or_id, parameters, dry_run=dry_run, trigger="mcp")
    try:
        return result_dict(run_replay(db, request))
    except (ToolError, PhantomError):
        raise
    except Exception as exc:  # noqa: BLE001 - the agent gets one line; the traceback goes to stderr
        log.exception("replay of %s failed", quoted(name_or_id))
        raise ToolError(f"failed: replay of {quoted(name_or_id)} failed: {exc.__class__.__name__}: "
                        f"{' '.join(str(exc).split())[:200]}") from None


def _outline(step) -> str:
    target = step.target
    what = ""
    if target is not None:
        what = f"{target.role} {target.display!r}" if target.display else (target.role or target.path)
    if step.action == "switch":
        return f"switch to {step.app}"
    if step.action == "key":
        return f"key {step.key}"
    if step.action == "type":
        value = f"${step.parameter}" if step.parameter else repr(step.text or "")
        return f"type {value} into {what or 'the focused field'}"
    return f"click {what or '(no target)'}"


def _utc_iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).isoformat(timespec="seconds")
