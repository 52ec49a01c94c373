"""What the gate is given about one routine: `GateInputs`, and how they are
read off the measures.

The gate depends on the measures, never the reverse: `gate_inputs` and
`measured_inputs` live here, on the gate's side, so the measures need not
know that a gate exists.

Structure (length, traces, H_UI, timing) comes from the passive
occurrences; the outcomes s and k from `evidence.Evidence` — dry passes of
the plan against the recorded trees and verified replays — never from
passive counts (issue 25; docs/DESIGN.md, "Crystallization evidence").
"""

from __future__ import annotations

from dataclasses import dataclass

from ..measures import RoutineMeasures, h_ui, timing_cv
from ..mining import Routine
from .checks import finite, is_int
from .evidence import NO_EVIDENCE, Evidence

__all__ = ["GateInputs", "gate_inputs", "measured_inputs"]

# Entropy inputs computed upstream may overshoot [0, 1] by float noise; accept that
# much and clamp, reject anything larger as a caller bug.
_UNIT_SLACK = 1e-9


@dataclass(frozen=True, slots=True)
class GateInputs:
    """What the miner knows about one candidate routine.

    ``steps``: steps in the routine (≥ 1).  ``traces``: distinct traces observed.
    ``h_ui_normalized``: normalised Shannon entropy over (action_type, aria_path) in
    [0, 1] (phantom.md §6.5).  ``timing_cv``: coefficient of variation of step durations
    (≥ 0).  ``successes`` / ``trials``: replay outcomes s and k, 0 ≤ s ≤ k — dry
    passes of the plan and verified replays (`evidence`), not passive occurrences.
    Invalid values raise ``ValueError`` on construction.
    """

    steps: int
    traces: int
    h_ui_normalized: float
    timing_cv: float
    successes: int
    trials: int

    def __post_init__(self) -> None:
        for name in ("steps", "traces", "successes", "trials"):
            v = getattr(self, name)
            if not is_int(v):
                raise ValueError(f"{name} must be an integer, got {v!r}")
            if v < 0:
                raise ValueError(f"{name} must be >= 0, got {v!r}")
        if self.steps < 1:
            raise ValueError(
                f"steps must be >= 1 (a routine has at least one step), got {self.steps}"
            )
        if self.successes > self.trials:
            raise ValueError(
                f"successes ({self.successes}) cannot exceed trials ({self.trials})"
            )
        h = finite("h_ui_normalized", self.h_ui_normalized)
        if not -_UNIT_SLACK <= h <= 1.0 + _UNIT_SLACK:
            raise ValueError(f"h_ui_normalized must be in [0, 1], got {self.h_ui_normalized!r}")
        if finite("timing_cv", self.timing_cv) < 0.0:
            raise ValueError(f"timing_cv must be >= 0, got {self.timing_cv!r}")


def gate_inputs(routine: Routine, evidence: Evidence = NO_EVIDENCE) -> GateInputs:
    """What `crystallize.decide` needs for this routine: traces are the
    counted occurrences (support), outcomes the `evidence` (none by default:
    the gate then refuses for want of it)."""
    return _inputs(routine.length, routine.support, h_ui(routine), timing_cv(routine),
                   evidence.successes, evidence.trials)


def measured_inputs(measures: RoutineMeasures, evidence: Evidence = NO_EVIDENCE) -> GateInputs:
    """The same, from a routine's measures already taken (`measure`)."""
    return _inputs(measures.length, measures.support, measures.h_ui, measures.timing_cv,
                   evidence.successes, evidence.trials)


def _inputs(steps: int, traces: int, h_ui_value: float, cv: float, successes: int,
            trials: int) -> GateInputs:
    return GateInputs(steps=steps, traces=traces, h_ui_normalized=min(1.0, max(0.0, h_ui_value)),
                      timing_cv=cv, successes=successes, trials=trials)
