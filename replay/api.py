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
5. success is reported only for a verified end state (`verify.py`);
6. the run's outcome moves the program through its lifecycle
   (`programs/lifecycle.py`, through program memory's front door,
   `programs/api.py`): here, after every run, for every interface. Who may
   run what is decided in `prepare`: an agent (MCP) only active programs, a
   person anything not deprecated.

A request may name a program or say what to do in words (`intent`): then
`find` ranks the active programs by their intent keys (`intent.py`), keeps
only those that do what the request asks (`intent_gate.py`), gates them on
the live desktop (`compatibility.py`), and the one clearly compatible
program goes through the same steps — its parameters still given, never
guessed. Otherwise nothing runs and the caller gets the ranked shortlist
(`shortlist.py`) to choose from by id.

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
from typing import TYPE_CHECKING

from compiler.programs.records import Program
from core.bus import CAPTURE, call
from core.clock import now_ms
from core.errors import PhantomError
from programs import api as memory

from . import live
from .busy import busy_reason
from .compatibility import Choice, NoCompatibleProgram, choose, prescreen
from .desktop_lock import Busy, DesktopLock
from .embedding import LabelMatcher
from .engine import ReplayEngine
from .intent import IntentIndex, check_intent
from .outcomes import Escalation, RunResult, StepOutcome
from .params import ParameterError, bind
from .policy import Policy
from .preflight import preflight
from .scene import Scene
from .telemetry import Telemetry
from .verify import verify
from .visual.evidence import load_evidence, needs_evidence
from .windows import AmbiguousWindow, FocusLost, GuardMismatch, XSession

if TYPE_CHECKING:
    from .visual.evidence import StepEvidence
    from .visual.rung import Eyes
    from .visual.screen import Shot

TRIGGERS = ("cli", "dbus", "mcp")
MAX_WINDOW_CHARS = 200


@dataclass(frozen=True, slots=True)
class ReplayRequest:
    """What a caller asks for: a program by name or id — or, instead, an
    `intent` in words — its parameters, whether to only check (`dry_run`),
    who asks, and — when several windows fit the program — a fragment of
    the title of the one to use."""

    program: str = ""
    parameters: Mapping[str, str] = field(default_factory=dict)
    dry_run: bool = False
    trigger: str = "cli"
    window: str | None = None
    intent: str | None = None


@dataclass(frozen=True, slots=True)
class Prepared:
    program: Program
    values: dict[str, str]
    choice: Choice | None = None       # how an intent chose the program


def prepare(db: str | os.PathLike[str], request: ReplayRequest, *,
            matcher: LabelMatcher | None = None) -> Prepared:
    """Load the program this caller may run (for a name, the newest one its
    lifecycle state allows; for an intent, the one `find` chose) and bind
    its parameters; raises a named error."""
    if request.trigger not in TRIGGERS:
        raise PhantomError(f"unknown trigger {request.trigger!r}", code="usage")
    if request.window is not None and not 0 < len(request.window) <= MAX_WINDOW_CHARS:
        raise PhantomError(f"a window title fragment is 1–{MAX_WINDOW_CHARS} characters", code="usage")
    if (request.intent is None) == (not request.program):
        raise PhantomError("name a program or give an intent (one of them); nothing was sent",
                           code="usage")
    choice = None
    wanted = request.program
    if request.intent is not None:
        choice = find(db, request.intent, window=request.window, matcher=matcher)
        assert choice.chosen is not None, "find raises NoCompatibleProgram when it chooses none"
        wanted = choice.chosen.hit.program_id
    program = memory.load(db, memory.runnable(db, wanted, request.trigger))
    try:
        values = bind(program, request.parameters)
    except ParameterError as exc:
        chosen = f"the intent chose {program.name} ({program.id}): " if choice else ""
        raise ParameterError(f"{chosen}{exc}; nothing was sent", exc.name) from None
    return Prepared(program, values, choice)


def find(db: str | os.PathLike[str], intent: str, *, window: str | None = None,
         matcher: LabelMatcher | None = None) -> Choice:
    """The active program a request in words is about and that can run on
    the desktop as it is now (ranked by intent, then every gate and θ); a
    `NoCompatibleProgram` listing the best candidates and the gate each
    failed when there is none. Reads X and AT-SPI; sends nothing."""
    intent = check_intent(intent)
    matcher = matcher or LabelMatcher()
    screened = prescreen(db, IntentIndex(db, matcher).rank(intent))
    if screened.refusal:
        choice = screened.choice()       # nothing on the screen could change the answer
    else:
        _display(None, "finding a program by intent looks at")
        live.init()
        session = XSession()
        try:
            choice = choose(screened, matcher, session, window=window)
        finally:
            session.close()
    if choice.chosen is None:
        raise NoCompatibleProgram(f"{choice.describe()}; nothing was sent", choice=choice)
    return choice


def claim(display: str | None = None) -> DesktopLock:
    """The desktop for one run: refused (`Busy`) while a demonstration is
    recorded or another replay holds this display."""
    display = _display(display, "replay acts on")
    recording = recording_in_progress()
    if recording is not None:
        raise Busy(f"a demonstration ({recording!r}) is being recorded; stop it with `phantom "
                   "record stop` before replaying, or the replay would become part of it; "
                   "nothing was sent")
    return DesktopLock(display).acquire()


def _display(display: str | None, what: str) -> str:
    display = display if display is not None else os.environ.get("DISPLAY", "")
    if not display:
        raise PhantomError(f"DISPLAY is not set: {what} an X11 desktop (an MCP client must pass "
                           "DISPLAY and DBUS_SESSION_BUS_ADDRESS in the server's env); nothing was "
                           "sent", code="unavailable")
    return display


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
    """The whole replay: prepare, claim (unless a dry run), run, release.
    A desktop without a display or an accessibility bus is refused before
    anything is claimed."""
    engine = engine or ReplayEngine()
    prepared = prepare(db, request, matcher=engine.matcher)
    if os.environ.get("DISPLAY"):
        live.init()   # raises LiveTreeError when the accessibility bus does not answer
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
            result = _result(program, "failed", (), Escalation(0, Policy.ESCALATE, str(exc)), False)
        result = replace(result, run_id=run_id, elapsed_ms=int((time.monotonic() - clock) * 1000))
        if prepared.choice is not None:
            chosen = prepared.choice.chosen
            assert chosen is not None, "a prepared choice comes from find, which chose one"
            result = replace(result, intent=prepared.choice.intent, compatibility=chosen.score,
                             intent_gate=chosen.gate.reason if chosen.gate is not None else "")
        if telemetry is not None and run_id is not None:
            done = sum(1 for s in result.steps if s.outcome == "ok")
            telemetry.finish_run(run_id, now_ms(), result.status, done,
                                 int(result.escalation is not None),
                                 result.escalation.reason if result.escalation else "")
        if not request.dry_run:
            result = _account(db, result, request.trigger)
        return result
    finally:
        engine.on_step = on_step
        if own_telemetry and telemetry is not None:
            telemetry.close()


def _run(program: Program, values: dict[str, str], request: ReplayRequest, engine: ReplayEngine,
         logged: Callable[[StepOutcome], None], evidence: Mapping[int, StepEvidence]) -> RunResult:
    live.init()
    session = XSession()
    try:
        try:
            match = session.find(program.guard, request.window)
        except (GuardMismatch, AmbiguousWindow) as exc:
            return _result(program, "refused", (), Escalation(0, Policy.REFUSED, str(exc)), False, code=exc.code)
        busy = busy_reason(match.window.app, match.window.pid)
        if busy is not None:   # a terminal whose shell runs a job: the keys would go to the job
            return _result(program, "refused", (), Escalation(0, Policy.REFUSED, busy), False, code="window_busy")
        accessible = live.accessible_window(match.window)
        if accessible is None:
            reason = f"{match.window.describe()} has no accessible window (AT-SPI); nothing was sent"
            return _result(program, "refused", (), Escalation(0, Policy.REFUSED, reason), False,
                           code="guard_mismatch")
        scene = Scene(session, match)
        eyes = _eyes(evidence, session, scene, request.dry_run)
        plan = preflight(program, live.view_of(match.window, accessible), engine.matcher, eyes)
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
            return _result(program, "refused", (), Escalation(0, Policy.REFUSED, str(exc)), False, code=exc.code)
        steps = engine.run_steps(program, values, scene, eyes.fresh() if eyes is not None else None)
        if steps.stopped is not None:
            return _result(program, steps.status or "escalated", steps.outcomes, steps.stopped, steps.sent)
        verdict = verify(program.end_state, values, scene)
        if not verdict.ok:
            reason = f"every step was sent but the result is not what the demonstrations reached: {verdict.reason}"
            return _result(program, "failed", steps.outcomes,
                           Escalation(len(program.steps), Policy.ESCALATE, reason), steps.sent)
        return _result(program, "success", steps.outcomes, None, steps.sent, verification=verdict.how)
    finally:
        session.close()


def _eyes(evidence: Mapping[int, StepEvidence], session: XSession, scene: Scene,
          dry_run: bool) -> Eyes | None:
    """The visual rung for this run, when the program carries crops. The
    picture is of the run's window that has the keyboard; the first look
    (the pre-flight's) gives the program's window the keyboard first, as the
    run would, except in a dry run, which only looks — and reports a window
    that another one covers as not yet looked at."""
    if not evidence:
        return None
    from .visual.rung import Eyes
    from .visual.screen import Unseen, grab, windows_above

    def look() -> Shot:
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


def _account(db: str | os.PathLike[str], result: RunResult, trigger: str) -> RunResult:
    """The one place a run's outcome reaches its program's lifecycle: a
    verified success counts for it, a failure that sent input against it."""
    facts = memory.RunFacts(result.run_id, result.status, result.sent_input, result.verification,
                            trigger, now_ms())
    standing, changes = memory.record_run(db, result.program_id, facts)
    return replace(result, state=standing.state,
                   lifecycle=tuple(f"{who} {change.describe()}" for who, change in changes))


def _result(program: Program, status: str, steps: tuple[StepOutcome, ...], escalation: Escalation | None,
            sent: bool, *, code: str | None = None, verification: str = "") -> RunResult:
    return RunResult(None, program.id, program.name, status, tuple(steps), escalation, 0, sent,
                     verification=verification, code=code)
