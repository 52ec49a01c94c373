"""The program side of the bridge: list the active programs, find one by
what to do in words, compile recordings into one, and replay one in-process.

An agent sees and runs only `active` programs (a verified run or the
person's promotion made them so); a candidate, quarantined or deprecated
program is refused with the reason, before anything is sent. Parameters
are described by their shape (kinds of characters, length range), never by
the values the person typed.

An escalated or refused replay is a *result*, not an error: the agent gets
the step, the reason and the candidates the screen offered, and can carry
on by hand from there. Only requests that cannot start — an unknown,
corrupt or inactive program, wrong parameters, no desktop, no compatible
program for an intent — are `ToolError`s, and for each nothing was sent."""

from __future__ import annotations

import logging
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcp.server.mcpserver.exceptions import ToolError

from core.errors import PhantomError, quoted
from core.labels import once

from .errors import check_text, reports_errors

if TYPE_CHECKING:
    from compiler.programs.records import Program, ProgramStep

log = logging.getLogger(__name__)


@reports_errors
def list_stored(db: Path) -> dict[str, Any]:
    """The active programs (the only ones an agent may run)."""
    from programs.api import AGENT, list_programs

    programs = []
    for summary in list_programs(db, AGENT):
        entry = {"id": summary.id, "name": summary.name, "source": summary.source,
                 "traces": summary.traces, "created": _utc_iso(summary.created_ms),
                 "description": summary.standing.description,
                 "successes": summary.standing.successes}
        if summary.program is None:
            programs.append({**entry, "problem": f"unreadable: {summary.problem}"})
        else:
            programs.append({**entry, **describe(summary.program)})
    return {"programs": programs}


def describe(program: Program) -> dict[str, Any]:
    """What an agent needs to call a program: its app, what each step does,
    and every parameter with the field it fills and the shape of the
    recorded values (never the values)."""
    from replay.params import shape_of

    return {
        "app": program.app,
        "steps": len(program.steps),
        "outline": [_outline(step) for step in program.steps],
        "parameters": [{"name": p.name, "field": p.field, "step": p.step, "shape": shape_of(p.samples)}
                       for p in program.parameters],
    }


@reports_errors
def find(db: Path, intent: str) -> dict[str, Any]:
    """The active program an intent describes and that can run on the
    screen now (every gate, θ, no close second), with its parameters'
    shapes; `no_compatible_program` with the candidates when none."""
    from core.bus import session_bus_address
    from replay.api import find as find_program
    from replay.results import choice_dict

    session_bus_address()  # pyatspi finds the accessibility bus through it
    return choice_dict(find_program(db, intent))


@reports_errors
def compile_recordings(db: Path, name: str) -> dict[str, Any]:
    """Align the finished recordings with this name, compile, store —
    through program memory's front door, as `phantom compile-program NAME`
    does; `state` is where the program stands after saving (a recompile of
    an active body stays active)."""
    from compiler.programs.variance import DELTA
    from programs.api import compile_program

    compiled = compile_program(db, check_text(name.strip(), "the program name"))
    program, report = compiled.program, compiled.report
    return {"id": program.id, "name": program.name, "traces": program.traces, **describe(program),
            "state": compiled.standing.state, "next": NEXT[compiled.standing.state],
            "delta": DELTA,
            "distances": [{"step": d.step, "field": d.field, "distance": d.distance,
                           "parameterized": d.parameterized} for d in report.distances],
            "dropped_steps": report.dropped_steps, "warnings": list(report.warnings)}


# What an agent may do with a program it just compiled, by its state.
NEXT = {
    "candidate": "agents may run it once the person has replayed it successfully (or promoted it "
                 "with `phantom programs promote`)",
    "active": "agents may run it",
    "quarantined": "agents may run it once the person has replayed it successfully",
    "deprecated": "nobody runs it until the person promotes it with `phantom programs promote`",
}


@reports_errors
def replay(db: Path, name_or_id: str | None, parameters: dict[str, str], dry_run: bool,
           intent: str | None = None) -> dict[str, Any]:
    """Through replay's front door, like the CLI and the D-Bus service: a
    request that cannot start (unknown, corrupt or inactive program, wrong
    parameters, no desktop, a busy desktop, no compatible program for the
    intent) is a tool error, and nothing was sent."""
    from core.bus import session_bus_address
    from replay.api import ReplayRequest
    from replay.api import replay as run_replay
    from replay.results import result_dict

    if (name_or_id is None) == (intent is None):
        raise ToolError("usage: give either program or intent")
    if name_or_id is not None:   # parameters and intents: replay's own checks
        check_text(name_or_id, "the program name or id")
    session_bus_address()  # fills it in for pyatspi, which finds the accessibility bus through it
    request = ReplayRequest(name_or_id or "", parameters, dry_run=dry_run, trigger="mcp", intent=intent)
    what = name_or_id if intent is None else intent
    try:
        return result_dict(run_replay(db, request))
    except (ToolError, PhantomError):
        raise
    except Exception as exc:  # noqa: BLE001 - the agent gets one line; the traceback goes to stderr
        log.exception("replay of %s failed", quoted(what))
        raise ToolError(f"failed: replay of {quoted(what)} failed: {exc.__class__.__name__}: "
                        f"{' '.join(str(exc).split())[:200]}") from None


def _outline(step: ProgramStep) -> str:
    target = step.target
    what = ""
    if target is not None:
        # AT-SPI's repeated names ("4 4") said once; the stored body keeps them
        what = f"{target.role} {once(target.display)!r}" if target.display else (target.role or target.path)
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
