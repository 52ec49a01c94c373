"""The replay engine: Algorithm 1 of phantom.md §4.4, with stricter safety.

For a program and bound parameters:
1. guard — the application runs and has a window; otherwise nothing is sent;
2. pre-flight — every step up to and including the first click on a control
   (a button, a menu: anything that may change the screen) is resolved
   against the screen as it is, without acting; if one would escalate or be
   refused, the run stops before any input (a removed button or a wrong
   application costs no typing into the wrong place);
3. per step: wait 250 ms (focus settles), decide the policy (direct →
   embedding → refuse/escalate), act through AT-SPI or XTest with one retry
   on a timeout, wait 180 ms, check the postcondition; escalate on failure.

Every step is logged with its policy, scores, dispatch method and the
engine's own latency (excluding the fixed waits); `vlm_calls` is 0 always.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from core.clock import now_ms
from core.a11y.roles import LABELLED_ROLES
from compiler.programs.records import Program, ProgramStep

from . import conditions, live
from .dispatch import DispatchError, Dispatcher
from .embedding import LabelMatcher
from .params import bind
from .policy import ESCALATE, REFUSED, Candidate, Decision, decide

from core.errors import PhantomError


@dataclass(frozen=True, slots=True)
class Timing:
    """Fixed waits and limits (phantom.md §4.4)."""

    pre_step_s: float = 0.25
    settle_s: float = 0.18
    step_timeout_s: float = 5.0
    retries: int = 1


@dataclass(frozen=True, slots=True)
class StepOutcome:
    index: int
    action: str
    target: str
    policy: str
    outcome: str               # ok | escalated | refused | timeout | postcondition_failed | planned
    dispatch: str | None
    score: float | None
    runner_up: float | None
    attempts: int
    latency_ms: int            # engine time, fixed waits excluded
    started_ms: int
    reason: str


@dataclass(frozen=True, slots=True)
class Escalation:
    """Where the agent must take over, and what Phantom saw there."""

    step: int
    policy: str
    reason: str
    candidates: tuple[Candidate, ...] = ()


@dataclass(frozen=True, slots=True)
class RunResult:
    run_id: int | None
    program_id: str
    program: str
    status: str                # success | escalated | refused | failed | dry_run
    steps: tuple[StepOutcome, ...]
    escalation: Escalation | None
    elapsed_ms: int
    sent_input: bool
    vlm_calls: int = 0


class GuardMismatch(PhantomError):
    """The program's application or window is not on the screen."""

    code = "guard_mismatch"


@dataclass
class ReplayEngine:
    matcher: LabelMatcher = field(default_factory=LabelMatcher)
    dispatcher: Dispatcher = field(default_factory=Dispatcher)
    timing: Timing = field(default_factory=Timing)
    telemetry: object | None = None
    on_step: Callable[[StepOutcome], None] | None = None
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self, program: Program, supplied: Mapping[str, object], *, dry_run: bool = False,
            trigger: str = "cli") -> RunResult:
        """Replay; parameter errors raise `ParameterError` before anything else."""
        values = bind(program, supplied)
        started = now_ms()
        clock = time.monotonic()
        run_id = None
        if self.telemetry is not None and not dry_run:
            run_id = self.telemetry.start_run(program.id, started, len(program.steps), values, trigger)
        try:
            result = self._run(program, values, dry_run, run_id, clock)
        except live.LiveTreeError as exc:
            result = RunResult(run_id, program.id, program.name, "failed", (),
                               Escalation(0, ESCALATE, str(exc)), _ms_since(clock), False)
        if self.telemetry is not None and run_id is not None:
            done = sum(1 for s in result.steps if s.outcome == "ok")
            self.telemetry.finish_run(run_id, now_ms(), result.status, done,
                                      int(result.escalation is not None),
                                      result.escalation.reason if result.escalation else "")
            result = replace(result, elapsed_ms=_ms_since(clock))  # the telemetry is the engine's too
        return result

    # -- the run ------------------------------------------------------------------------
    def _run(self, program: Program, values: dict[str, str], dry_run: bool, run_id, clock) -> RunResult:
        window = self._guard(program)
        if window is None:
            reason = f"{program.app} is not running with a window"
            return self._stopped(program, run_id, clock, (), Escalation(0, REFUSED, reason), "refused")
        planned, blocked_candidates = self._preflight(program, window, dry_run)
        blocked = next((o for o in planned if o.outcome in ("escalated", "refused")), None)
        if blocked is not None or dry_run:
            if blocked is not None:
                escalation = Escalation(blocked.index, blocked.policy, blocked.reason,
                                        blocked_candidates)
                status = "refused" if blocked.outcome == "refused" else "escalated"
                return self._stopped(program, run_id, clock, tuple(planned), escalation, status)
            return RunResult(None, program.id, program.name, "dry_run", tuple(planned), None,
                             _ms_since(clock), False)
        outcomes: list[StepOutcome] = []
        sent = False
        for step in program.steps:
            if self.stop.is_set():
                escalation = Escalation(step.index, ESCALATE, "the run was cancelled")
                return self._stopped(program, run_id, clock, tuple(outcomes), escalation,
                                     "escalated", sent)
            time.sleep(self.timing.pre_step_s)
            outcome, candidates = self._step(program, step, values, window)
            sent = sent or outcome.dispatch is not None
            outcomes.append(outcome)
            self._log(run_id, outcome)
            if outcome.outcome != "ok":
                escalation = Escalation(step.index, outcome.policy, outcome.reason, candidates)
                status = "refused" if outcome.outcome == "refused" else "escalated"
                return self._stopped(program, run_id, clock, tuple(outcomes), escalation, status,
                                     sent, logged=True)
            window = live.main_window(live.find_application(program.app)) or window
        return RunResult(run_id, program.id, program.name, "success", tuple(outcomes), None,
                         _ms_since(clock), sent)

    def _guard(self, program: Program):
        application = live.find_application(program.guard.app)
        if application is None:
            return None
        return live.main_window(application)

    def _preflight(self, program: Program, window,
                   dry_run: bool) -> tuple[list[StepOutcome], tuple[Candidate, ...]]:
        """Decide (without acting) every step the starting screen must hold;
        returns the outcomes and, when a step is blocked, its near candidates."""
        outcomes = []
        for step in program.steps:
            began = time.monotonic()
            decision = decide(step, window, self.matcher)
            outcome = "planned" if decision.may_act else (
                "refused" if decision.policy == REFUSED else "escalated")
            outcomes.append(_outcome(step, decision, outcome, None, 0, began))
            if not decision.may_act:
                return outcomes, decision.candidates
            if not dry_run and _may_change_screen(step):
                break
        return outcomes, ()

    def _step(self, program: Program, step: ProgramStep, values: dict[str, str], window):
        began = time.monotonic()
        waited = 0.0
        decision = decide(step, window, self.matcher)
        if not decision.may_act:
            outcome = "refused" if decision.policy == REFUSED else "escalated"
            return _outcome(step, decision, outcome, None, 0, began), decision.candidates
        attempts, dispatch, error = 0, None, None
        deadline = began + self.timing.step_timeout_s
        while attempts <= self.timing.retries:
            attempts += 1
            try:
                dispatch = self._act(step, decision, values, window)
                error = None
                break
            except DispatchError as exc:
                error = exc
                if exc.sent or time.monotonic() > deadline:
                    break
            except Exception as exc:  # noqa: BLE001 - AT-SPI timeouts and dead apps
                error = DispatchError(f"{exc.__class__.__name__}: {exc}")
                if time.monotonic() > deadline:
                    break
        if error is not None:
            reason = f"could not perform the step after {attempts} attempt(s): {error}"
            result = "timeout" if time.monotonic() > deadline else "escalated"
            return _outcome(step, decision, result, None, attempts, began, waited,
                            reason=reason), decision.candidates
        time.sleep(self.timing.settle_s)
        waited += self.timing.settle_s
        typed = values.get(step.parameter) if step.parameter else step.text
        ok, detail = conditions.check(step.postcondition, decision.element, window, typed)
        if not ok:
            return _outcome(step, decision, "postcondition_failed", dispatch, attempts, began, waited,
                            reason=f"postcondition failed: {detail}"), decision.candidates
        return _outcome(step, decision, "ok", dispatch, attempts, began, waited,
                        reason=decision.reason), ()

    def _act(self, step: ProgramStep, decision: Decision, values: dict[str, str], window) -> str:
        if step.action == "click":
            if decision.element is None:
                raise DispatchError("no element to click (the recording captured none)")
            return self.dispatcher.click(decision.element, window)
        if step.action == "type":
            text = values[step.parameter] if step.parameter else (step.text or "")
            if decision.element is None:
                raise DispatchError("no field to type into")
            return self.dispatcher.type_text(decision.element, text)
        if step.action == "key":
            self.dispatcher.focus_window(window)
            return self.dispatcher.key(step.key or "")
        if step.action == "switch":
            application = live.find_application(step.app or program_app(step))
            target = live.main_window(application) if application is not None else None
            if target is None:
                raise DispatchError(f"{step.app} is not running with a window")
            self.dispatcher.focus_window(target)
            return "atspi_focus"
        raise DispatchError(f"unknown action {step.action!r}")

    # -- bookkeeping ------------------------------------------------------------------------
    def _log(self, run_id, outcome: StepOutcome) -> None:
        if self.telemetry is not None and run_id is not None:
            self.telemetry.step(run_id, outcome)
        if self.on_step is not None:
            self.on_step(outcome)

    def _stopped(self, program, run_id, clock, outcomes, escalation, status, sent=False,
                 logged=False) -> RunResult:
        if not logged:
            for outcome in outcomes:
                if outcome.outcome != "planned":
                    self._log(run_id, outcome)
        return RunResult(run_id, program.id, program.name, status, outcomes, escalation,
                         _ms_since(clock), sent)


def program_app(step: ProgramStep) -> str:
    return step.target.app if step.target is not None else ""


def _may_change_screen(step: ProgramStep) -> bool:
    """A click on anything but a text field may open, close or replace UI."""
    return step.action == "click" and (step.target is None or step.target.role not in LABELLED_ROLES) \
        or step.action in ("switch", "key")


def _outcome(step: ProgramStep, decision: Decision, outcome: str, dispatch, attempts: int,
             began: float, waited: float = 0.0, reason: str | None = None) -> StepOutcome:
    elapsed = time.monotonic() - began - waited
    target = step.target.display if step.target is not None else (step.key or step.app or "")
    return StepOutcome(step.index, step.action, target, decision.policy, outcome, dispatch,
                       decision.score, decision.runner_up, attempts, max(0, int(elapsed * 1000)),
                       now_ms(), reason or decision.reason)


def _ms_since(clock: float) -> int:
    return int((time.monotonic() - clock) * 1000)
