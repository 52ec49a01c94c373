"""The program side of the bridge: list stored programs, compile recordings
into one, and replay one in-process.

An escalated or refused replay is a *result*, not an error: the agent gets
the step, the reason and the candidates the screen offered, and can carry
on by hand from there. Only requests that cannot start — an unknown or
corrupt program, wrong parameters, no desktop — are `ToolError`s, and for
each nothing was sent."""

from __future__ import annotations

import logging
import os
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError

log = logging.getLogger(__name__)

# One replay at a time: two runs would type into the same desktop.
_REPLAY_LOCK = threading.Lock()


def list_stored(db: Path) -> dict[str, Any]:
    from core.store import StoreError
    from compiler.programs.records import ProgramFormatError
    from compiler.programs.store import list_programs, load_program

    try:
        summaries = list_programs(db)
    except StoreError as exc:
        raise ToolError(str(exc)) from None
    programs = []
    for summary in summaries:
        entry = {"id": summary.id, "name": summary.name, "source": summary.source,
                 "traces": summary.traces, "created": _utc_iso(summary.created_ms)}
        if summary.problem is not None:
            programs.append({**entry, "problem": f"unreadable: {summary.problem}"})
            continue
        try:
            programs.append({**entry, **describe(load_program(db, summary.id))})
        except (ProgramFormatError, StoreError) as exc:  # changed since the listing
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


def compile_recordings(db: Path, name: str) -> dict[str, Any]:
    """Mirror of `phantom compile-program NAME`: align the finished
    recordings, compile, store. The clock is read only for the row's
    creation time, which is not part of the program or its id."""
    from core.clock import now_ms
    from core.store import StoreError
    from compiler.api import CompileError
    from compiler.programs.build import compile_program
    from compiler.programs.errors import ProgramCompileError
    from compiler.programs.records import ProgramFormatError
    from compiler.programs.recordings import traces_for_recordings
    from compiler.programs.store import save_program
    from compiler.programs.variance import DELTA

    name = name.strip()
    if not name:
        raise ToolError("the program name must not be empty")
    try:
        report = compile_program(name, traces_for_recordings(db, name), source="demonstration")
        save_program(db, report, created_ms=now_ms())
    except (ProgramCompileError, CompileError, StoreError, ProgramFormatError) as exc:
        raise ToolError(str(exc)) from None
    program = report.program
    return {"id": program.id, "name": program.name, "traces": program.traces, **describe(program),
            "delta": DELTA,
            "distances": [{"step": d.step, "field": d.field, "distance": d.distance,
                           "parameterized": d.parameterized} for d in report.distances],
            "dropped_steps": report.dropped_steps, "warnings": list(report.warnings)}


def replay(db: Path, name_or_id: str, parameters: dict[str, str], dry_run: bool) -> dict[str, Any]:
    from core.store import StoreError
    from compiler.programs.errors import UnknownProgram
    from compiler.programs.records import ProgramFormatError
    from compiler.programs.store import load_program
    from replay.params import ParameterError, bind

    try:
        program = load_program(db, name_or_id)
    except (UnknownProgram, ProgramFormatError, StoreError) as exc:
        raise ToolError(str(exc).strip("'\"")) from None
    try:
        bind(program, parameters)
    except ParameterError as exc:
        raise ToolError(f"{exc}; nothing was sent") from None
    if not os.environ.get("DISPLAY"):
        raise ToolError("DISPLAY is not set: replay acts on the X11 desktop, so the MCP client must "
                        "pass DISPLAY (and DBUS_SESSION_BUS_ADDRESS) in the server's env; nothing was sent")
    if not _REPLAY_LOCK.acquire(blocking=False):
        raise ToolError("a replay is already running; wait for its result; nothing was sent")
    try:
        return _run(db, program, parameters, dry_run)
    finally:
        _REPLAY_LOCK.release()


def _run(db: Path, program, parameters: dict[str, str], dry_run: bool) -> dict[str, Any]:
    from core.bus import session_bus_address
    from replay.engine import ReplayEngine
    from replay.live import LiveTreeError
    from replay.params import ParameterError
    from replay.results import result_dict
    from replay.telemetry import Telemetry

    session_bus_address()  # fills it in for pyatspi, which finds the accessibility bus through it
    engine = ReplayEngine(telemetry=None if dry_run else Telemetry(db))
    try:
        result = engine.run(program, parameters, dry_run=dry_run, trigger="mcp")
    except ParameterError as exc:
        raise ToolError(f"{exc}; nothing was sent") from None
    except LiveTreeError as exc:
        raise ToolError(str(exc)) from None
    except Exception as exc:  # noqa: BLE001 - the agent gets one line; the traceback goes to stderr
        log.exception("replay of %s failed", program.id)
        raise ToolError(f"replay of {program.id} failed: {exc.__class__.__name__}: {exc}") from None
    finally:
        engine.dispatcher.close()
        if engine.telemetry is not None:
            engine.telemetry.close()
    return result_dict(result)


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
