"""Crystallization gate: should a mined routine be compiled for replay? (phantom.md §6)

The gate has two layers, both from the paper:

1. Four structural criteria (§6.4) — a cheap pre-filter every candidate must pass:
   length ≥ 3 steps, recurrence ≥ 2 distinct traces, UI stability
   ``1 - H_UI_norm ≥ 0.7`` (§6.5) and timing stability ``CV ≤ 0.4``.
   Their conjunction is the *heuristic-only* verdict.
2. The Gittins gate (§6.2-6.3): with ``s`` successes in ``k`` observed outcomes the
   replay success probability has posterior ``Beta(1 + s, 1 + k - s)`` (Laplace prior);
   crystallize when its Gittins index exceeds the break-even threshold λ*.

Both verdicts are reported so the ablation of §7.5 (heuristic-only vs
heuristic+Gittins) can be read straight off every decision.

Break-even threshold λ*
-----------------------
For a routine of ``L`` steps let ``C_v = c_v·L`` be what the agent pays to run it
itself, ``C_r = c_r·L`` the overhead it still pays to launch and check a replay,
``C_c`` the one-time cost of compiling, and ``N`` the expected number of future runs.
If a replay succeeds with probability ``p`` and a failed replay escalates to the agent,
which then redoes the run, the expected cost per run is::

    with replay:     C_c/N + C_r + (1 - p)·C_v
    without replay:  C_v

Replay is cheaper exactly when ``p·C_v > C_c/N + C_r``, i.e. when ``p > λ*`` with::

    λ* = (C_c/N + C_r) / C_v          (phantom.md §6.3)

So λ* is a break-even *success probability*.  Equivalently, relative to the agent a
replayed run earns ``C_v·(p - λ*)``: an uncertain Bernoulli arm against a known arm
worth ``λ*`` on the same scale.  Gittins' theorem says to play the uncertain arm iff
its index exceeds the known arm's rate, which is why the index (a success probability,
see ``compiler.gittins``) is compared with λ* directly.  (Appendix A's
``p(c_v - c_r) - C_c/N`` charges the replay overhead only on success; we follow §6.3,
whose λ* charges it on every run — the launch-and-check overhead is paid either way.)

λ* ≥ 1 is legal: replay cannot pay even if it never fails, and the gate never
crystallizes.

No observed outcomes
--------------------
With ``k = 0`` the posterior is the prior ``Beta(1, 1)``, whose index at γ = 0.95 is
0.7614 — above the break-even point of any cost model in which replay is cheap.  An
index that high is exploration value, not evidence.  We chose to treat ``k = 0``
explicitly as *insufficient evidence* (the gate refuses and says so) rather than rely
on costs alone: the rule holds for every cost model, including a user's optimistic
one.  The default costs below additionally keep λ* above 0.7614 for every routine
length, as a second line of defence.

Everything here is pure and deterministic: no I/O, no clock; ``GateDecision.to_dict``
gives JSON-safe builtins with floats rounded to 6 decimals for canonical rendering.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

from compiler.gittins import MAX_HORIZON, gittins_index

__all__ = [
    "CostModel",
    "Criterion",
    "GateDecision",
    "GateInputs",
    "break_even_threshold",
    "decide",
]

# Structural thresholds, phantom.md §6.4 (also DESIGN.md "Thresholds").  All bounds are
# inclusive, as the paper writes them (≥ 3, ≥ 2, ≥ 0.7, ≤ 0.4).
MIN_STEPS = 3  # §6.4 criterion 1, length gate
MIN_TRACES = 2  # §6.4 criterion 2, recurrence gate
MIN_UI_STABILITY = 0.7  # §6.4 criterion 3, 1 - H_UI_norm (entropy defined in §6.5)
MAX_TIMING_CV = 0.4  # §6.4 criterion 4, coefficient of variation of step durations

# Laplace prior Beta(1, 1), phantom.md §6.2.
PRIOR_ALPHA = 1
PRIOR_BETA = 1

# Entropy inputs computed upstream may overshoot [0, 1] by float noise; accept that
# much and clamp, reject anything larger as a caller bug.
_UNIT_SLACK = 1e-9

_DECIMALS = 6  # to_dict rounding: the compiler renders canonical JSON


def _is_real(x: object) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def _is_int(x: object) -> bool:
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def _finite(name: str, x: object) -> float:
    if not _is_real(x):
        raise ValueError(f"{name} must be a real number, got {x!r}")
    v = float(x)  # type: ignore[arg-type]
    if not math.isfinite(v):
        raise ValueError(f"{name} must be finite, got {x!r}")
    return v


def _round(x: float) -> float:
    # + 0.0 turns -0.0 into 0.0 so the canonical JSON never shows "-0.0".
    return round(float(x), _DECIMALS) + 0.0


@dataclass(frozen=True, slots=True)
class CostModel:
    """Costs in agent-token equivalents, used only through λ* (see module docstring).

    ``agent_tokens_per_step = 2500`` — c_v.  The modelled screenshot-driven agent cost
    per step at a 1512×982 capture: 1,979 image + 350 context-read + 180 reasoning
    tokens (activity-frames.md, "Cost model"; DESIGN.md thresholds table).  It is an
    upper bound (fresh screenshots, no prompt caching), which flatters replay; the
    other defaults lean the other way.

    ``replay_tokens_per_step = 1979`` — c_r.  Phantom's replay itself calls no model
    (phantom.md §3.2), but the agent that launches a replay still has to *check* it.
    We price the conservative way an agent does that today: one fresh screenshot per
    replayed step (the 1,979 image tokens of c_v), while replay saves the per-step
    context read and reasoning (350 + 180).  Replay is then credited with saving ~21 %
    of c_v — in line with activity-frames.md, whose live comparison saved only ~14 %
    against 40.8 % modelled.  An agent that trusts Phantom's own AT-SPI verification
    pays far less; set a lower value once live billing supports it.  With this default
    c_r/c_v = 0.7916 > 0.7614, the prior Beta(1,1) index at γ = 0.95, so λ* alone
    already refuses a routine with no observed outcomes at any length.

    ``compile_tokens = 25000`` — C_c, one time.  Compiling is model-free (phantom.md
    §3.2); what the agent pays is reviewing the compiled program (graph, parameter
    slots, pre/postconditions) before trusting it — we price that at ten agent steps,
    less than one agent run of the paper's median workflow (13.5 steps over the six of
    phantom.md Appendix C.1).  Demonstrations are *not* included: the ≥ 2 traces the
    recurrence gate needs already exist when the gate is consulted, and sunk costs must
    not sway the decision.  Over N = 100 runs this adds 0.1/L to λ*: it matters for
    short routines only, as it should.

    ``expected_runs = 100`` (N), ``gamma = 0.95``, ``horizon = 200`` — phantom.md §6.3.

    Resulting thresholds: λ*(3) = 0.8249, λ*(6) = 0.8083, λ*(12) = 0.7999 (→ 0.7916
    for long routines).  A routine needs roughly ≥ 80 % observed replay success to be
    crystallized: 10/10 (index 0.9477) and 9/10 (0.8838) pass, 8/10 (0.8139) only for
    routines of 5+ steps, 3/10 (0.4154) never; 0/0 is refused outright.  Note that a
    single observed success, 1/1 (0.8381), passes at every length: that is the Gittins
    optimism the paper asks for, tempered by the structural gates (≥ 2 traces).

    ``__post_init__`` rejects absurd settings with ``ValueError``: non-finite or negative
    costs, a zero agent cost (λ* would divide by zero and replay would be pointless),
    ``N < 1``, γ outside (0, 1), horizon outside [1, MAX_HORIZON].
    """

    agent_tokens_per_step: float = 2500.0
    replay_tokens_per_step: float = 1979.0
    compile_tokens: float = 25000.0
    expected_runs: int = 100
    gamma: float = 0.95
    horizon: int = 200

    def __post_init__(self) -> None:
        c_v = _finite("agent_tokens_per_step", self.agent_tokens_per_step)
        if c_v <= 0.0:
            raise ValueError(
                f"agent_tokens_per_step must be > 0 (it is the cost replay saves), got {c_v!r}"
            )
        if _finite("replay_tokens_per_step", self.replay_tokens_per_step) < 0.0:
            raise ValueError(
                f"replay_tokens_per_step must be >= 0, got {self.replay_tokens_per_step!r}"
            )
        if _finite("compile_tokens", self.compile_tokens) < 0.0:
            raise ValueError(f"compile_tokens must be >= 0, got {self.compile_tokens!r}")
        if not _is_int(self.expected_runs):
            raise ValueError(f"expected_runs must be an integer >= 1, got {self.expected_runs!r}")
        if self.expected_runs < 1:
            raise ValueError(
                f"expected_runs must be >= 1 (compile cost is amortised over N runs), "
                f"got {self.expected_runs!r}"
            )
        g = _finite("gamma", self.gamma)
        if not 0.0 < g < 1.0:
            raise ValueError(f"gamma must satisfy 0 < gamma < 1, got {self.gamma!r}")
        if not _is_int(self.horizon) or not 1 <= self.horizon <= MAX_HORIZON:
            raise ValueError(
                f"horizon must be an integer in [1, {MAX_HORIZON}], got {self.horizon!r}"
            )


@dataclass(frozen=True, slots=True)
class GateInputs:
    """What the miner knows about one candidate routine.

    ``steps``: steps in the routine (≥ 1).  ``traces``: distinct traces observed.
    ``h_ui_normalized``: normalised Shannon entropy over (action_type, aria_path) in
    [0, 1] (phantom.md §6.5).  ``timing_cv``: coefficient of variation of step durations
    (≥ 0).  ``successes`` / ``trials``: observed replay outcomes s and k, 0 ≤ s ≤ k.
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
            if not _is_int(v):
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
        h = _finite("h_ui_normalized", self.h_ui_normalized)
        if not -_UNIT_SLACK <= h <= 1.0 + _UNIT_SLACK:
            raise ValueError(f"h_ui_normalized must be in [0, 1], got {self.h_ui_normalized!r}")
        if _finite("timing_cv", self.timing_cv) < 0.0:
            raise ValueError(f"timing_cv must be >= 0, got {self.timing_cv!r}")


@dataclass(frozen=True, slots=True)
class Criterion:
    """One structural criterion: observed value, bound, direction and outcome."""

    name: str
    value: float
    threshold: float
    comparison: str  # ">=" or "<="
    passed: bool

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "value": _round(self.value),
            "threshold": _round(self.threshold),
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

    def to_dict(self) -> dict:
        """JSON-safe builtins only; floats rounded to 6 decimals (canonical JSON)."""
        return {
            "criteria": [c.to_dict() for c in self.criteria],
            "heuristic_pass": self.heuristic_pass,
            "evidence": self.evidence,
            "successes": self.successes,
            "trials": self.trials,
            "posterior_alpha": self.posterior_alpha,
            "posterior_beta": self.posterior_beta,
            "posterior_mean": _round(self.posterior_mean),
            "gittins_index": _round(self.gittins_index),
            "lambda_star": _round(self.lambda_star),
            "gamma": _round(self.gamma),
            "horizon": self.horizon,
            "gittins_pass": self.gittins_pass,
            "crystallize": self.crystallize,
            "ablation_differs": self.ablation_differs,
            "reason": self.reason,
        }


def break_even_threshold(steps: int, costs: CostModel) -> float:
    """λ* = (C_c/N + c_r·L) / (c_v·L) for a routine of ``L = steps`` (phantom.md §6.3).

    Derivation in the module docstring.  May be ≥ 1 (replay never pays).
    """
    if not _is_int(steps) or steps < 1:
        raise ValueError(f"steps must be an integer >= 1, got {steps!r}")
    if not isinstance(costs, CostModel):
        raise ValueError(f"costs must be a CostModel, got {type(costs).__name__}")
    steps = int(steps)
    per_run_agent = float(costs.agent_tokens_per_step) * steps  # C_v
    per_run_replay = float(costs.replay_tokens_per_step) * steps  # C_r
    amortised_compile = float(costs.compile_tokens) / int(costs.expected_runs)  # C_c / N
    return float((amortised_compile + per_run_replay) / per_run_agent)


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
            "keep agent: insufficient evidence, no replay outcomes observed "
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
