"""Crystallization gate: should a mined routine be compiled for replay? (phantom.md §6)

The gate has two layers, both from the paper:

1. Four structural criteria (§6.4) — a cheap pre-filter every candidate must pass:
   length ≥ 3 steps, recurrence ≥ 2 distinct traces, UI stability
   ``1 - H_UI_norm ≥ 0.7`` (§6.5) and timing stability ``CV ≤ 0.4``.
   Their conjunction is the *heuristic-only* verdict.
2. The Gittins gate (§6.2-6.3): with ``s`` successes in ``k`` observed outcomes the
   replay success probability has posterior ``Beta(1 + s, 1 + k - s)`` (Laplace prior);
   crystallize when its Gittins index exceeds the break-even threshold λ*.  The
   outcomes are dry passes of the routine's plan against the trees recorded at its
   occurrences and verified replays (``evidence``) — where §6.2 counts VLM-assisted
   executions, which passive capture does not have; passive occurrences only feed
   the structural criteria (docs/DESIGN.md, "Crystallization evidence").

Both verdicts are reported so the ablation of §7.5 (heuristic-only vs
heuristic+Gittins) can be read straight off every decision.

The break-even threshold λ* and the cost model behind it are in ``costs``;
what the gate is given about a routine, in ``inputs``; the index, in
``gittins``.

No observed outcomes
--------------------
With ``k = 0`` the posterior is the prior ``Beta(1, 1)``, whose index at γ = 0.95 is
0.7614 — above the break-even point of any cost model in which replay is cheap.  An
index that high is exploration value, not evidence.  We chose to treat ``k = 0``
explicitly as *insufficient evidence* (the gate refuses and says so) rather than rely
on costs alone: the rule holds for every cost model, including a user's optimistic
one.  The default costs (``costs.CostModel``) additionally keep λ* above 0.7614 for every routine
length, as a second line of defence.

Everything here is pure and deterministic: no I/O, no clock; ``GateDecision.to_dict``
gives JSON-safe builtins with floats rounded to 6 decimals for canonical rendering.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..canonical import rounded
from .costs import CostModel, break_even_threshold
from .gittins import gittins_index
from .inputs import GateInputs

__all__ = ["Criterion", "GateDecision", "decide"]

# Structural thresholds, phantom.md §6.4 (also docs/DESIGN.md, Thresholds).  All bounds are
# inclusive, as the paper writes them (≥ 3, ≥ 2, ≥ 0.7, ≤ 0.4).
MIN_STEPS = 3  # §6.4 criterion 1, length gate
MIN_TRACES = 2  # §6.4 criterion 2, recurrence gate
MIN_UI_STABILITY = 0.7  # §6.4 criterion 3, 1 - H_UI_norm (entropy defined in §6.5)
MAX_TIMING_CV = 0.4  # §6.4 criterion 4, coefficient of variation of step durations

# Laplace prior Beta(1, 1), phantom.md §6.2.
PRIOR_ALPHA = 1
PRIOR_BETA = 1


@dataclass(frozen=True, slots=True)
class Criterion:
    """One structural criterion: observed value, bound, direction and outcome."""

    name: str
    value: float
    threshold: float
    comparison: str  # ">=" or "<="
    passed: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "value": rounded(self.value),
            "threshold": rounded(self.threshold),
            "comparison": self.comparison,
            "passed": self.passed,
        }


@dataclass(frozen=True, slots=True)
class GateDecision:
    """Everything the gate looked at and concluded, for telemetry and the ablation.

    ``criteria``: the four §6.4 criteria in paper order.  ``heuristic_pass``: their
    conjunction (the heuristic-only verdict).  ``evidence``: False when no outcome was
    observed (k = 0).  ``posterior_alpha/beta``: Beta(1 + s, 1 + k - s).
    ``gittins_index`` vs ``lambda_star``: ``gittins_pass`` is ``evidence and index >
    λ*``.  ``crystallize``: ``heuristic_pass and gittins_pass`` (heuristic+Gittins).
    ``reason``: one short human-readable sentence.
    """

    criteria: tuple[Criterion, ...]
    heuristic_pass: bool
    evidence: bool
    successes: int
    trials: int
    posterior_alpha: int
    posterior_beta: int
    posterior_mean: float
    gittins_index: float
    lambda_star: float
    gamma: float
    horizon: int
    gittins_pass: bool
    crystallize: bool
    reason: str

    @property
    def heuristic_only(self) -> bool:
        """Verdict of the four-criterion heuristic alone (ablation baseline)."""
        return self.heuristic_pass

    @property
    def ablation_differs(self) -> bool:
        """True when adding the Gittins gate changed the heuristic's verdict."""
        return self.heuristic_pass != self.crystallize

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe builtins only; floats rounded to 6 decimals (canonical JSON)."""
        return {
            "criteria": [c.to_dict() for c in self.criteria],
            "heuristic_pass": self.heuristic_pass,
            "evidence": self.evidence,
            "successes": self.successes,
            "trials": self.trials,
            "posterior_alpha": self.posterior_alpha,
            "posterior_beta": self.posterior_beta,
            "posterior_mean": rounded(self.posterior_mean),
            "gittins_index": rounded(self.gittins_index),
            "lambda_star": rounded(self.lambda_star),
            "gamma": rounded(self.gamma),
            "horizon": self.horizon,
            "gittins_pass": self.gittins_pass,
            "crystallize": self.crystallize,
            "ablation_differs": self.ablation_differs,
            "reason": self.reason,
        }


def _criteria(inputs: GateInputs) -> tuple[Criterion, ...]:
    # phantom.md §6.4, in the paper's order; inclusive bounds as written there.
    stability = min(1.0, max(0.0, 1.0 - float(inputs.h_ui_normalized)))
    cv = float(inputs.timing_cv)
    steps, traces = int(inputs.steps), int(inputs.traces)
    return (
        Criterion("length", float(steps), float(MIN_STEPS), ">=", steps >= MIN_STEPS),
        Criterion("recurrence", float(traces), float(MIN_TRACES), ">=", traces >= MIN_TRACES),
        Criterion(
            "ui_stability", stability, MIN_UI_STABILITY, ">=", stability >= MIN_UI_STABILITY
        ),
        Criterion("timing_stability", cv, MAX_TIMING_CV, "<=", cv <= MAX_TIMING_CV),
    )


def _fmt(x: float) -> str:
    return f"{x:.4f}"


def _fmt_criterion(c: Criterion) -> str:
    if c.name in ("length", "recurrence"):  # counts read better without decimals
        return f"{c.name} {int(c.value)} not {c.comparison} {int(c.threshold)}"
    return f"{c.name} {_fmt(c.value)} not {c.comparison} {_fmt(c.threshold)}"


def decide(inputs: GateInputs, costs: CostModel = CostModel()) -> GateDecision:
    """Apply the §6.4 heuristic, then the §6.3 Gittins gate; report both verdicts.

    The index is computed even when the heuristic fails, so every decision carries the
    full ablation record (§6.4: "the ablation ... is logged in the details dict").
    """
    if not isinstance(inputs, GateInputs):
        raise ValueError(f"inputs must be a GateInputs, got {type(inputs).__name__}")
    if not isinstance(costs, CostModel):
        raise ValueError(f"costs must be a CostModel, got {type(costs).__name__}")

    criteria = _criteria(inputs)
    heuristic_pass = all(c.passed for c in criteria)  # §6.4: all four must pass

    s, k = int(inputs.successes), int(inputs.trials)  # builtins, even from numpy ints
    alpha, beta = PRIOR_ALPHA + s, PRIOR_BETA + (k - s)  # §6.2 posterior
    index = gittins_index(alpha, beta, costs.gamma, costs.horizon)
    lam = break_even_threshold(inputs.steps, costs)
    evidence = k > 0  # explicit rule: no outcomes, no evidence (module docstring)
    gittins_pass = bool(evidence and index > lam)  # §6.3: crystallize iff index > λ*
    crystallize = bool(heuristic_pass and gittins_pass)

    posterior = f"Beta({alpha}, {beta}), {s}/{k} successes"
    if not heuristic_pass:
        failed = ", ".join(_fmt_criterion(c) for c in criteria if not c.passed)
        reason = f"keep agent: structural criteria failed ({failed})"
    elif not evidence:
        reason = (
            "keep agent: insufficient evidence, no dry pass of the plan against a "
            "recorded tree and no verified replay "
            f"(the Beta(1, 1) prior index {_fmt(index)} is exploration value, not evidence)"
        )
    elif lam >= 1.0:
        reason = (
            f"keep agent: replay never pays under these costs "
            f"(lambda* {_fmt(lam)} >= 1), never crystallize"
        )
    elif gittins_pass:
        reason = f"crystallize: Gittins index {_fmt(index)} > lambda* {_fmt(lam)} ({posterior})"
    else:
        reason = f"keep agent: Gittins index {_fmt(index)} <= lambda* {_fmt(lam)} ({posterior})"

    return GateDecision(
        criteria=criteria,
        heuristic_pass=heuristic_pass,
        evidence=evidence,
        successes=s,
        trials=k,
        posterior_alpha=alpha,
        posterior_beta=beta,
        posterior_mean=alpha / (alpha + beta),
        gittins_index=index,
        lambda_star=lam,
        gamma=float(costs.gamma),
        horizon=int(costs.horizon),
        gittins_pass=gittins_pass,
        crystallize=crystallize,
        reason=reason,
    )
