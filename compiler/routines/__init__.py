"""The routines pipeline: the action stream, the routines that recur in it,
what each is worth, and whether to compile it for replay.

    canonical     the one rounding of floats in every to_dict below
    actions       captured rows → UI actions, split into sessions
    ids           a routine's id: a digest of its cycle's canonical rotation
    mining        maximal recurring action n-grams: the routines
    cycles        one routine per loop (rotations, enclosed sub-patterns), and
                  finding a routine by id in another window
    occurrences   counting a given n-gram the way the miner counts support
    folding       one entry per routine: padded and chained variants folded in
    measures/     what a routine is worth and how safe it is to replay
    gate/         crystallize or not: the §6.4 criteria, then the Gittins index
                  over replay evidence (dry passes of the plan, verified replays)
    report        mined, measured and gated: what `phantom routines` shows

Each module imports only those above it (the gate reads the measures, never
the reverse), and nothing here imports `compiler.frames`: the frames
pipeline's inferred tier uses the miner, not the other way round.

The names below load with their stage on first use: the frames' inferred
tier needs only the action stream and the miner, not the measures and the
gate behind them.
"""

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .actions import derive_actions, sessions, step_key
    from .cycles import distinct, find
    from .gate import CostModel, GateDecision
    from .mining import Routine, mine
    from .report import RoutineReport, report_dict, report_routines

_STAGE_OF = {
    "derive_actions": "actions", "sessions": "actions", "step_key": "actions",
    "CostModel": "gate", "GateDecision": "gate",
    "Routine": "mining", "mine": "mining",
    "distinct": "cycles", "find": "cycles",
    "RoutineReport": "report", "report_dict": "report", "report_routines": "report",
}


def __getattr__(name: str) -> object:
    stage = _STAGE_OF.get(name)
    if stage is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{stage}"), name)


__all__ = [
    "CostModel",
    "GateDecision",
    "Routine",
    "RoutineReport",
    "derive_actions",
    "distinct",
    "find",
    "mine",
    "report_dict",
    "report_routines",
    "sessions",
    "step_key",
]
