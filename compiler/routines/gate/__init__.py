"""The crystallization gate: should a mined routine be compiled for replay?

    inputs        what the gate is given about a routine, read off its measures
    costs         the cost model and the break-even threshold λ* (phantom.md §6.3)
    gittins       the Gittins index of the replay success posterior
    crystallize   the §6.4 structural criteria, then index > λ*: the decision

The gate reads the measures; the measures never import the gate.
"""

from .costs import CostModel, break_even_threshold
from .crystallize import Criterion, GateDecision, decide
from .gittins import gittins_index
from .inputs import GateInputs, gate_inputs, measured_inputs

__all__ = [
    "CostModel",
    "Criterion",
    "GateDecision",
    "GateInputs",
    "break_even_threshold",
    "decide",
    "gate_inputs",
    "gittins_index",
    "measured_inputs",
]
