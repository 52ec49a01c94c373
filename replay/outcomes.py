"""What a replay reports: one outcome per step, where it stopped and why, and
the run's result — as frozen records every interface renders its own way
(`replay/results.py`)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from compiler.programs.records import ProgramStep
from core.clock import now_ms

from .policy import Candidate, Decision, Policy

if TYPE_CHECKING:
    from .visual.rung import Aim

PLANNED = "planned"     # pre-flight: the step can act on the starting screen
PENDING = "pending"     # pre-flight: its target may appear after an earlier step

# How success was established (RunResult.verification).
BY_END_STATE = "end_state"            # the demonstrations' end state was reached
BY_NO_NEW_WINDOWS = "no_new_windows"  # weaker: postconditions held, nothing unexpected left open


@dataclass(frozen=True, slots=True)
class StepOutcome:
    index: int
    action: str
    target: str
    policy: Policy
    outcome: str               # ok | escalated | refused | timeout | postcondition_failed | planned | pending
    dispatch: str | None
    score: float | None
    runner_up: float | None
    attempts: int
    latency_ms: int            # engine time, fixed waits excluded
    started_ms: int
    reason: str
    aim: Aim | None = None     # the visual rung's figures, when it looked


@dataclass(frozen=True, slots=True)
class Escalation:
    """Where the agent must take over, and what Phantom saw there."""

    step: int
    policy: Policy
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
    verification: str = ""     # success only: BY_END_STATE or BY_NO_NEW_WINDOWS
    code: str | None = None    # a refusal before any input: its error kind (guard_mismatch, …)
    state: str = ""            # the program's lifecycle state after the run ("" for a dry run)
    lifecycle: tuple[str, ...] = ()   # the state changes the run caused, described
    intent: str = ""                  # the request in words that chose the program, if any
    compatibility: float | None = None  # its compatibility score
    intent_gate: str = ""             # why the intent gate let the request run this program


def broken_off(program_id: str, program: str, reason: str, intent: str = "") -> RunResult:
    """A run that an unexpected error stopped: failed at step 0, for the
    agent to take over, with the error as the reason."""
    return RunResult(None, program_id, program, "failed", (), Escalation(0, Policy.ESCALATE, reason), 0, False,
                     intent=intent)


def outcome_for(step: ProgramStep, decision: Decision, outcome: str, dispatch: str | None,
                attempts: int, began: float, waited: float = 0.0,
                reason: str | None = None) -> StepOutcome:
    elapsed = time.monotonic() - began - waited
    target = step.target.display if step.target is not None else (step.key or step.app or "")
    return StepOutcome(step.index, step.action, target, decision.policy, outcome, dispatch,
                       decision.score, decision.runner_up, attempts, max(0, int(elapsed * 1000)),
                       now_ms(), reason or decision.reason, decision.aim)
