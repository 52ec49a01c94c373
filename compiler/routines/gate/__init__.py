"""The crystallization gate: should a mined routine be compiled for replay?

    inputs        what the gate is given about a routine, read off its measures
    costs         the cost model and the break-even threshold λ* (phantom.md §6.3)
    evidence      what the posterior counts: dry passes of the plan against the
                  recorded trees, and verified replays (not passive counts)
    gittins       the Gittins index of the replay success posterior
    crystallize   the §6.4 structural criteria, then index > λ*: the decision

The gate reads the measures; the measures never import the gate.
"""

from .costs import CostModel, break_even_threshold
from .crystallize import Criterion, GateDecision, decide
from .evidence import NO_EVIDENCE, Evidence, RecordedTree, TreeElement, plan_evidence, tree_wants
from .gittins import gittins_index
from .inputs import GateInputs, gate_inputs, measured_inputs

__all__ = [
    "NO_EVIDENCE",
    "CostModel",
    "Criterion",
    "Evidence",
    "GateDecision",
    "GateInputs",
    "RecordedTree",
    "TreeElement",
    "break_even_threshold",
    "decide",
    "gate_inputs",
    "gittins_index",
    "measured_inputs",
    "plan_evidence",
    "tree_wants",
]
