"""Routine Overhead Ratios (activity-frames §7): what a screenshot-driven
agent would pay, in tokens, to do a routine itself, against what injecting
the routine's plan costs instead (R_inject) and what the barest script that
still names it costs (R_info, the floor of any encoding).

The agent's side is a model (the token constants below); the replacements'
side is counted with a real vocabulary (`compiler.tokens`), so the
denominators are measured, not estimated.
"""

from __future__ import annotations

from dataclasses import dataclass

from compiler.tokens import count_tokens

from ..mining import Routine

__all__ = [
    "AGENT_TOKENS_PER_STEP",
    "OverheadRatios",
    "minimal_script",
    "overhead_ratios",
    "plan_text",
]

# activity-frames §7 cost model at a 1512×982 capture: image + context read +
# reasoning tokens per screenshot-driven agent step (the paper rounds to 2,500).
IMAGE_TOKENS = 1_979
CONTEXT_TOKENS = 350
REASONING_TOKENS = 180
AGENT_TOKENS_PER_STEP = IMAGE_TOKENS + CONTEXT_TOKENS + REASONING_TOKENS  # 2,509


def plan_text(routine: Routine) -> str:
    """The compact plan an agent would be injected with: a header naming the
    routine, then one line per step in words (`Step.describe`)."""
    lines = [f"routine {routine.id} ({routine.length} steps)"]
    lines += [f"{i}. {step.describe()}" for i, step in enumerate(routine.steps, 1)]
    return "\n".join(lines)


def minimal_script(routine: Routine) -> str:
    """The information-theoretic floor: only the step keys, one per line,
    their non-empty fields joined by a space. A key is exactly what makes
    two steps the same step, so nothing shorter still names the routine;
    no header, no prose."""
    lines = []
    for k in routine.keys:
        fields = k if isinstance(k, tuple) else (k,)
        lines.append(" ".join(str(f) for f in fields if str(f)))
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class OverheadRatios:
    """R = modelled agent tokens / tokens of a replacement, to 1 decimal."""

    agent_tokens: int
    plan_tokens: int
    script_tokens: int
    r_inject: float
    r_info: float


def overhead_ratios(routine: Routine) -> OverheadRatios:
    """Routine Overhead Ratios (activity-frames §7).

    Numerator: steps × 2,509 tokens, the modelled cost of a
    screenshot-driven agent doing the routine itself (1,979 image + 350
    context read + 180 reasoning at 1512×982). It is an upper bound: it
    assumes a fresh screenshot every step and no prompt caching.
    R_inject divides it by the cl100k_base tokens of `plan_text` (what
    injecting the plan costs instead); R_info by those of `minimal_script`
    (the floor any encoding of the routine must pay)."""
    agent = routine.length * AGENT_TOKENS_PER_STEP
    plan = count_tokens(plan_text(routine))
    script = count_tokens(minimal_script(routine))
    return OverheadRatios(agent, plan, script,
                          round(agent / max(plan, 1), 1), round(agent / max(script, 1), 1))
