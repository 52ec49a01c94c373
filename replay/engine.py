"""The step loop: Algorithm 1 of phantom.md §4.4, with stricter safety.

The front door (`replay/api.py`) has already found the program's window,
checked the whole plan and given the window the keyboard. For each step the
engine waits 250 ms (focus settles), decides the policy on a fresh view of
the run's window that has the keyboard (direct → embedding → visual →
refuse/escalate; the visual rung on a fresh picture of it), acts through
AT-SPI or XTest with one retry on a timeout
(every XTest press re-checks the keyboard and pointer, see `scene.py`),
waits 180 ms and checks the postcondition; anything else stops the run with
the step, the reason and the candidates the screen offered.

Every step is logged with its policy, scores, dispatch method and the
engine's own latency (excluding the fixed waits); `vlm_calls` is 0 always.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from compiler.programs.records import Program, ProgramStep
from core.a11y import Accessible
from core.a11y.screen import SCREEN

from . import conditions, live
from .dispatch import Dispatcher, DispatchError
from .embedding import LabelMatcher
from .outcomes import Escalation, StepOutcome, outcome_for
from .policy import Candidate, Decision, Policy, decide
from .scene import Scene
from .tree_view import TreeView
from .visual.rung import hit_problem
from .windows import FocusLost

if TYPE_CHECKING:
    from .visual.rung import Eyes


@dataclass(frozen=True, slots=True)
class Timing:
    """Fixed waits and limits (phantom.md §4.4)."""

    pre_step_s: float = 0.25
    settle_s: float = 0.18
    step_timeout_s: float = 5.0
    retries: int = 1
    # A target that is not on screen yet (a dialog still opening), or a
    # postcondition that does not hold yet, is looked at again this often,
    # up to the step's timeout: on a busy machine an application can take
    # seconds to draw what a quiet one shows at once.
    appear_poll_s: float = 0.1
    appear_timeout_s: float = 5.0


@dataclass(frozen=True, slots=True)
class StepsRun:
    """The steps' outcomes; `stopped` says where and why when one failed."""

    outcomes: tuple[StepOutcome, ...]
    stopped: Escalation | None
    status: str | None          # escalated | refused, when stopped
    sent: bool


@dataclass
class ReplayEngine:
    matcher: LabelMatcher = field(default_factory=LabelMatcher)
    timing: Timing = field(default_factory=Timing)
    on_step: Callable[[StepOutcome], None] | None = None
    stop: threading.Event = field(default_factory=threading.Event)

    def run_steps(self, program: Program, values: Mapping[str, str], scene: Scene,
                  eyes: Eyes | None = None) -> StepsRun:
        """Run every step; `eyes` (a `replay.visual.rung.Eyes`) give the
        visual rung to the steps that carry recorded crops."""
        dispatcher = Dispatcher(before_press=scene.before_press)
        outcomes: list[StepOutcome] = []
        sent = False
        try:
            for step in program.steps:
                if self.stop.is_set():
                    return StepsRun(tuple(outcomes), Escalation(step.index, Policy.ESCALATE, "the run was cancelled"),
                                    "escalated", sent)
                time.sleep(self.timing.pre_step_s)
                outcome, candidates = self._step(step, values, scene, dispatcher, eyes)
                sent = sent or outcome.dispatch is not None or outcome.outcome == "postcondition_failed"
                outcomes.append(outcome)
                if self.on_step is not None:
                    self.on_step(outcome)
                if outcome.outcome != "ok":
                    status = "refused" if outcome.outcome == "refused" else "escalated"
                    return StepsRun(tuple(outcomes), Escalation(step.index, outcome.policy, outcome.reason,
                                                                candidates), status, sent)
        finally:
            dispatcher.close()
        return StepsRun(tuple(outcomes), None, None, sent)

    def _step(self, step: ProgramStep, values: Mapping[str, str], scene: Scene,
              dispatcher: Dispatcher, eyes: Eyes | None = None) -> tuple[StepOutcome, tuple[Candidate, ...]]:
        began = time.monotonic()
        waited = 0.0
        if step.action == "switch":
            return self._switch(step, scene, began), ()
        try:
            window, decision = self._decide_when_shown(step, scene, began, eyes)
        except (FocusLost, live.LiveTreeError) as exc:
            return outcome_for(step, Decision(Policy.ESCALATE, None, str(exc)), "escalated", None, 0, began), ()
        if not decision.may_act:
            outcome = "refused" if decision.policy == Policy.REFUSED else "escalated"
            return outcome_for(step, decision, outcome, None, 0, began), decision.candidates
        attempts, dispatch, error = 0, None, None
        deadline = began + self.timing.step_timeout_s
        while attempts <= self.timing.retries:
            attempts += 1
            try:
                dispatch = _act(step, decision, values, window, dispatcher)
                error = None
                break
            except FocusLost as exc:   # nothing was pressed: stop, do not retry into another window
                error = DispatchError(str(exc))
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
            return outcome_for(step, decision, result, "partial" if getattr(error, "sent", False) else None,
                               attempts, began, waited, reason=reason), decision.candidates
        time.sleep(self.timing.settle_s)
        waited += self.timing.settle_s
        typed = values.get(step.parameter) if step.parameter else step.text
        ok, detail = self._postcondition(step, decision, window, scene, typed, deadline)
        if not ok:
            return outcome_for(step, decision, "postcondition_failed", dispatch, attempts, began, waited,
                               reason=f"postcondition failed: {detail}"), decision.candidates
        return outcome_for(step, decision, "ok", dispatch, attempts, began, waited,
                           reason=decision.reason), ()

    def _postcondition(self, step: ProgramStep, decision: Decision, window: Accessible, scene: Scene,
                       typed: str | None, deadline: float) -> tuple[bool, str]:
        """Check the step's postcondition on a fresh view until it holds or
        the step's time is up: an application on a busy machine may show
        the effect of an input well after the settle time, and a late
        effect is still the step's success."""
        while True:
            try:
                after = scene.view_of_current()
            except (FocusLost, live.LiveTreeError):
                after = TreeView(window, live.placement_of(window) or SCREEN)
            ok, detail = conditions.check(step.postcondition, decision.element, after, typed)
            if ok or time.monotonic() >= deadline:
                return ok, detail
            time.sleep(self.timing.appear_poll_s)

    def _decide_when_shown(self, step: ProgramStep, scene: Scene, began: float,
                           eyes: Eyes | None = None) -> tuple[Accessible, Decision]:
        """Decide on the window that has the keyboard; while the step cannot
        act, look again (the previous step may still be opening a dialog or
        turning a page) until `appear_timeout_s` has passed."""
        while True:
            view = scene.view_of_current()
            decision = decide(step, view, self.matcher, eyes.fresh() if eyes is not None else None)
            if decision.may_act or time.monotonic() - began >= self.timing.appear_timeout_s:
                return view.window, decision
            time.sleep(self.timing.appear_poll_s)

    @staticmethod
    def _switch(step: ProgramStep, scene: Scene, began: float) -> StepOutcome:
        decision = Decision(Policy.DIRECT, None, f"switch to {step.app}")
        try:
            scene.switch_to(step.app)
        except Exception as exc:  # noqa: BLE001 - a missing or ambiguous application stops the run
            return outcome_for(step, decision, "escalated", None, 1, began, reason=str(exc))
        return outcome_for(step, decision, "ok", "x11_activate", 1, began)


def _act(step: ProgramStep, decision: Decision, values: Mapping[str, str], window: Accessible,
         dispatcher: Dispatcher) -> str:
    if step.action == "click":
        if decision.point is not None:
            return dispatcher.click_at(decision.point, window,
                                       lambda hit: hit_problem(step, decision.anchor, hit))
        if decision.element is None:
            raise DispatchError("no element to click (the recording captured none)")
        return dispatcher.click(decision.element, window)
    if step.action == "type":
        text = values[step.parameter] if step.parameter else (step.text or "")
        if decision.element is None:
            raise DispatchError("no field to type into")
        return dispatcher.type_text(decision.element, text, step.entry or "replace")
    if step.action == "key":
        return dispatcher.key(step.key or "")
    raise DispatchError(f"unknown action {step.action!r}")
