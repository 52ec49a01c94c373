"""Replay's one front door. The CLI, the D-Bus service and the MCP bridge
all replay through here, so every rule holds for all of them at once:

1. the program loads and every declared parameter is bound (or a named
   error, and nothing is sent);
2. the desktop is claimed: no demonstration is being recorded (its input
   would become part of it) and no other replay runs on this display, in any
   process (`desktop_lock.py`) — else `Busy`;
3. the program's window is found — exactly one window of its application
   whose title fits (`windows.py`) — and the whole plan is checked on it
   before the first input (`preflight.py`); steps that need the visual rung
   are checked on one picture of the window, taken once it has been raised
   and given the keyboard (`visual/`);
4. the window gets the keyboard, confirmed by X and AT-SPI (`scene.py`),
   and the steps run (`engine.py`), each XTest press re-checking where it goes;
5. success is reported only for a verified end state (`verify.py`).

Errors before a run starts are `PhantomError`s with a code; a run that
starts ends as a `RunResult` (success, escalated, refused, failed, dry run),
logged in the store's telemetry.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from compiler.programs.records import Program
from compiler.programs.store import load_program
from core.bus import CAPTURE, call
from core.clock import now_ms
from core.errors import PhantomError

from . import live
from .desktop_lock import Busy, DesktopLock
from .engine import ReplayEngine
from .outcomes import Escalation, RunResult, StepOutcome
from .params import ParameterError, bind
from .policy import ESCALATE, REFUSED
from .preflight import preflight
from .scene import Scene
from .telemetry import Telemetry
from .tree_view import TreeView
from .verify import verify
from .visual.evidence import load_evidence, needs_evidence
from .windows import AmbiguousWindow, FocusLost, GuardMismatch, XSession

TRIGGERS = ("cli", "dbus", "mcp")
MAX_WINDOW_CHARS = 200


@dataclass(frozen=True, slots=True)
class ReplayRequest:
    """What a caller asks for: a program by name or id, its parameters,
    whether to only check (`dry_run`), who asks, and — when several windows
    fit the program — a fragment of the title of the one to use."""

    program: str
    parameters: Mapping[str, str] = field(default_factory=dict)
    dry_run: bool = False
    trigger: str = "cli"
    window: str | None = None


@dataclass(frozen=True, slots=True)
class Prepared:
    program: Program
    values: dict[str, str]


def prepare(db: str | os.PathLike[str], request: ReplayRequest) -> Prepared:
    """Load the program and bind its parameters; raises a named error."""
    if request.trigger not in TRIGGERS:
        raise PhantomError(f"unknown trigger {request.trigger!r}", code="usage")
    if request.window is not None and not 0 < len(request.window) <= MAX_WINDOW_CHARS:
        raise PhantomError(f"a window title fragment is 1–{MAX_WINDOW_CHARS} characters", code="usage")
    program = load_program(db, request.program)
    try:
        values = bind(program, request.parameters)
    except ParameterError as exc:
        raise ParameterError(f"{exc}; nothing was sent", exc.name) from None
    return Prepared(program, values)


def claim(display: str | None = None) -> DesktopLock:
    """The desktop for one run: refused (`Busy`) while a demonstration is
    recorded or another replay holds this display."""
    display = display if display is not None else os.environ.get("DISPLAY", "")
    if not display:
        raise PhantomError("DISPLAY is not set: replay acts on an X11 desktop (an MCP client must "
                           "pass DISPLAY and DBUS_SESSION_BUS_ADDRESS in the server's env); "
                           "nothing was sent", code="unavailable")
    recording = recording_in_progress()
    if recording is not None:
        raise Busy(f"a demonstration ({recording!r}) is being recorded; stop it with `phantom "
                   "record stop` before replaying, or the replay would become part of it; "
                   "nothing was sent")
    return DesktopLock(display).acquire()


def recording_in_progress() -> str | None:
    """The name of the demonstration the capture daemon is recording, if any
    (no daemon, or no bus, means none)."""
    try:
        status = json.loads(call(CAPTURE, "Status", timeout=2)[0])
    except (PhantomError, ValueError, IndexError, TypeError):
        return None
    return status.get("recording") if isinstance(status, dict) else None


def replay(db: str | os.PathLike[str], request: ReplayRequest, *,
           engine: ReplayEngine | None = None, telemetry: Telemetry | None = None) -> RunResult:
    """The whole replay: prepare, claim (unless a dry run), run, release."""
    prepared = prepare(db, request)
    lock = None if request.dry_run else claim()
    try:
        return run(db, prepared, request, engine=engine, telemetry=telemetry)
    finally:
        if lock is not None:
            lock.release()


def run(db: str | os.PathLike[str], prepared: Prepared, request: ReplayRequest, *,
        engine: ReplayEngine | None = None, telemetry: Telemetry | None = None) -> RunResult:
    """Run a prepared request on the claimed desktop, with telemetry (a
    `Telemetry` the caller keeps, or one opened for this run)."""
    engine = engine or ReplayEngine()
    own_telemetry = telemetry is None and not request.dry_run
    if own_telemetry:
        telemetry = Telemetry(Path(db))
    program, values = prepared.program, prepared.values
    clock = time.monotonic()
    run_id = None
    if telemetry is not None and not request.dry_run:
        run_id = telemetry.start_run(program.id, now_ms(), len(program.steps), values, request.trigger)
    on_step = engine.on_step

    def logged(outcome: StepOutcome) -> None:
        if telemetry is not None and run_id is not None:
            telemetry.step(run_id, outcome)
        if on_step is not None:
            on_step(outcome)

    engine.on_step = logged
    try:
        try:
            evidence = load_evidence(db, program) if needs_evidence(program) else {}
            result = _run(program, values, request, engine, logged, evidence)
        except live.LiveTreeError as exc:
            result = _result(program, "failed", (), Escalation(0, ESCALATE, str(exc)), False)
        result = replace(result, run_id=run_id, elapsed_ms=int((time.monotonic() - clock) * 1000))
        if telemetry is not None and run_id is not None:
            done = sum(1 for s in result.steps if s.outcome == "ok")
            telemetry.finish_run(run_id, now_ms(), result.status, done,
                                 int(result.escalation is not None),
                                 result.escalation.reason if result.escalation else "")
        return result
    finally:
        engine.on_step = on_step
        if own_telemetry and telemetry is not None:
            telemetry.close()


def _run(program: Program, values: dict[str, str], request: ReplayRequest, engine: ReplayEngine,
         logged: Callable[[StepOutcome], None], evidence: dict) -> RunResult:
    live.init()
    session = XSession()
    try:
        try:
            match = session.find(program.guard, request.window)
        except (GuardMismatch, AmbiguousWindow) as exc:
            return _result(program, "refused", (), Escalation(0, REFUSED, str(exc)), False, code=exc.code)
        accessible = live.accessible_window(match.window)
        if accessible is None:
            reason = f"{match.window.describe()} has no accessible window (AT-SPI); nothing was sent"
            return _result(program, "refused", (), Escalation(0, REFUSED, reason), False,
                           code="guard_mismatch")
        scene = Scene(session, match)
        eyes = _eyes(evidence, session, scene, request.dry_run)
        plan = preflight(program, TreeView(accessible), engine.matcher, eyes)
        if plan.blocked is not None:
            logged(plan.blocked)
            blocked = plan.blocked
            status = "refused" if blocked.outcome == "refused" else "escalated"
            return _result(program, status, plan.outcomes,
                           Escalation(blocked.index, blocked.policy, blocked.reason, plan.candidates), False)
        if request.dry_run:
            return _result(program, "dry_run", plan.outcomes, None, False)
        try:
            scene.activate()
        except FocusLost as exc:
            return _result(program, "refused", (), Escalation(0, REFUSED, str(exc)), False, code=exc.code)
        steps = engine.run_steps(program, values, scene, eyes.fresh() if eyes is not None else None)
        if steps.stopped is not None:
            return _result(program, steps.status or "escalated", steps.outcomes, steps.stopped, steps.sent)
        verdict = verify(program.end_state, values, scene)
        if not verdict.ok:
            reason = f"every step was sent but the result is not what the demonstrations reached: {verdict.reason}"
            return _result(program, "failed", steps.outcomes,
                           Escalation(len(program.steps), ESCALATE, reason), steps.sent)
        return _result(program, "success", steps.outcomes, None, steps.sent, verification=verdict.how)
    finally:
        session.close()


def _eyes(evidence: dict, session: XSession, scene: Scene, dry_run: bool):
    """The visual rung for this run, when the program carries crops. The
    picture is of the run's window that has the keyboard; the first look
    (the pre-flight's) gives the program's window the keyboard first, as the
    run would, except in a dry run, which only looks — and reports a window
    that another one covers as not yet looked at."""
    if not evidence:
        return None
    from .visual.rung import Eyes
    from .visual.screen import Unseen, grab, windows_above

    def look():
        try:
            if dry_run:
                window = session.refresh(scene.main) or scene.main
            else:
                scene.activate()
                window = scene.current()
        except FocusLost as exc:
            raise Unseen(str(exc)) from None
        return grab(window, windows_above(session.connection, session.atoms, window))

    return Eyes(evidence, look, defer_covered=dry_run)


def _result(program: Program, status: str, steps: tuple[StepOutcome, ...], escalation: Escalation | None,
            sent: bool, *, code: str | None = None, verification: str = "") -> RunResult:
    return RunResult(None, program.id, program.name, status, tuple(steps), escalation, 0, sent,
                     verification=verification, code=code)


def load(db: str | os.PathLike[str], name_or_id: str) -> Program:
    """A stored program by name (the latest) or id, for callers that only
    describe it (shortcuts, listings)."""
    return load_program(db, name_or_id)
