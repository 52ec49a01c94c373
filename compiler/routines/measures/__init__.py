"""What a mined routine is worth and how safe it is to replay.

    entropy      H_UI, H_task and their quadrant (phantom.md §6.5)
    overhead     Routine Overhead Ratios: agent tokens against plan and script
    recurrence   recurrence h of a set of routines, in-sample and held out
    routine      everything for one routine: `RoutineMeasures`, `measure`

Every function here is pure and reads a `compiler.routines.mining.Routine`
(and, where it says so, the sessions the routine was mined from). Nothing
depends on a clock, a locale or iteration order, and floats are summed in a
fixed order. The crystallization gate reads these measures; nothing here
imports the gate.
"""

from .entropy import LENGTH_BUCKETS, QUADRANT_THRESHOLD, h_task, h_ui, quadrant
from .overhead import AGENT_TOKENS_PER_STEP, OverheadRatios, minimal_script, overhead_ratios, plan_text
from .recurrence import Recurrence, coverage, holdout_recurrence, train_days_for
from .routine import (
                       RoutineMeasures,
                       completion_counts,
                       days_seen,
                       guard_coverage,
                       measure,
                       measure_all,
                       support,
                       timing_cv,
)

__all__ = [
    "AGENT_TOKENS_PER_STEP",
    "QUADRANT_THRESHOLD",
    "LENGTH_BUCKETS",
    "OverheadRatios",
    "Recurrence",
    "RoutineMeasures",
    "coverage",
    "days_seen",
    "guard_coverage",
    "h_task",
    "h_ui",
    "holdout_recurrence",
    "measure",
    "measure_all",
    "minimal_script",
    "completion_counts",
    "overhead_ratios",
    "plan_text",
    "quadrant",
    "support",
    "timing_cv",
    "train_days_for",
]
