"""The cost side of the crystallization gate: the break-even threshold λ*
(phantom.md §6.3) and the cost model it is computed from.

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
see ``gittins``) is compared with λ* directly.  (Appendix A's
``p(c_v - c_r) - C_c/N`` charges the replay overhead only on success; we follow §6.3,
whose λ* charges it on every run — the launch-and-check overhead is paid either way.)

λ* ≥ 1 is legal: replay cannot pay even if it never fails, and the gate never
crystallizes.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.errors import PhantomError

from .checks import finite, is_int
from .gittins import MAX_HORIZON


class CostError(PhantomError, ValueError):
    """Cost settings the gate cannot work with (a person typed them: `usage`)."""

    code = "usage"


__all__ = ["CostModel", "break_even_threshold"]


@dataclass(frozen=True, slots=True)
class CostModel:
    """Costs in agent-token equivalents, used only through λ* (see module docstring).

    ``agent_tokens_per_step = 2500`` — c_v.  The modelled screenshot-driven agent cost
    per step at a 1512×982 capture: 1,979 image + 350 context-read + 180 reasoning
    tokens (activity-frames.md, "Cost model"; docs/DESIGN.md, Thresholds).  It is an
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

    ``__post_init__`` rejects absurd settings with ``CostError`` (a ``ValueError``): non-finite or negative
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
        try:
            self._check()
        except CostError:
            raise
        except ValueError as exc:
            raise CostError(str(exc)) from None

    def _check(self) -> None:
        c_v = finite("agent_tokens_per_step", self.agent_tokens_per_step)
        if c_v <= 0.0:
            raise ValueError(
                f"agent_tokens_per_step must be > 0 (it is the cost replay saves), got {c_v!r}"
            )
        if finite("replay_tokens_per_step", self.replay_tokens_per_step) < 0.0:
            raise ValueError(
                f"replay_tokens_per_step must be >= 0, got {self.replay_tokens_per_step!r}"
            )
        if finite("compile_tokens", self.compile_tokens) < 0.0:
            raise ValueError(f"compile_tokens must be >= 0, got {self.compile_tokens!r}")
        if not is_int(self.expected_runs):
            raise ValueError(f"expected_runs must be an integer >= 1, got {self.expected_runs!r}")
        if self.expected_runs < 1:
            raise ValueError(
                f"expected_runs must be >= 1 (compile cost is amortised over N runs), "
                f"got {self.expected_runs!r}"
            )
        g = finite("gamma", self.gamma)
        if not 0.0 < g < 1.0:
            raise ValueError(f"gamma must satisfy 0 < gamma < 1, got {self.gamma!r}")
        if not is_int(self.horizon) or not 1 <= self.horizon <= MAX_HORIZON:
            raise ValueError(
                f"horizon must be an integer in [1, {MAX_HORIZON}], got {self.horizon!r}"
            )


def break_even_threshold(steps: int, costs: CostModel) -> float:
    """λ* = (C_c/N + c_r·L) / (c_v·L) for a routine of ``L = steps`` (phantom.md §6.3).

    Derivation in the module docstring.  May be ≥ 1 (replay never pays).
    """
    if not is_int(steps) or steps < 1:
        raise ValueError(f"steps must be an integer >= 1, got {steps!r}")
    if not isinstance(costs, CostModel):
        raise ValueError(f"costs must be a CostModel, got {type(costs).__name__}")
    steps = int(steps)
    per_run_agent = float(costs.agent_tokens_per_step) * steps  # C_v
    per_run_replay = float(costs.replay_tokens_per_step) * steps  # C_r
    amortised_compile = float(costs.compile_tokens) / int(costs.expected_runs)  # C_c / N
    return float((amortised_compile + per_run_replay) / per_run_agent)
