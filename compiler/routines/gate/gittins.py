"""Gittins index of a Bernoulli arm with a Beta posterior (phantom.md §6.3, Appendix A).

Why this exists
---------------
The crystallization gate (``crystallize``) must decide whether a routine's
observed replay outcomes justify compiling it.  Phantom models the unknown replay
success probability ``p`` as ``Beta(alpha, beta)`` and uses the Gittins index as the
optimality reference (phantom.md §6.3): the index is the largest *known* success
probability that an optimal agent would accept in exchange for never trying the
uncertain arm again.  It is therefore on the same [0, 1] scale as ``p`` and as the
break-even threshold λ* of the gate.

Formulation (calibration / "retirement", Gittins 1979; Whittle 1988)
-------------------------------------------------------------------
Pulling the arm in posterior state ``(a, b)`` pays 1 with probability ``m = a/(a+b)``
and moves to ``(a+1, b)`` or ``(a, b+1)``.  At any time we may instead retire for
ever on a known per-step reward λ, worth ``λ/(1-γ)``.  The index is the λ at which
pulling once (and continuing optimally) and retiring now are equally good.  We solve
the problem over the posterior states reachable within ``horizon`` pulls — at depth
``d`` these are ``(alpha+s, beta+d-s)`` for ``s = 0..d`` — and close the tree at depth
``H`` with the no-more-learning value ``max(m, λ)/(1-γ)``.

Truncation error.  The truncated value at depth ``H`` underestimates the true one by
at most ``(1-λ)/(1-γ)``; discounted back to the root that is ``γ^H (1-λ)/(1-γ)``,
and because ``pull - retire`` falls in λ with slope ≤ -1, the finite-horizon index is
a lower bound on the infinite-horizon one and short of it by at most
``γ^H/(1-γ)`` (see :func:`truncation_bound`).  For γ = 0.95, H = 200 that bound is
7.0e-4 (phantom.md Appendix A prints 7e-5; 0.95**200/0.05 = 7.0e-4 — the bound is
still < 1e-3, and the measured gap is far smaller, see tests/compiler/test_gittins.py).

Speed
-----
One evaluation of the sign of ``pull - retire`` at a given λ is one backward induction
over the ~H²/2 states.  The states of a depth are one numpy vector, so a sweep is ``H``
iterations of 4 in-place ufunc calls on views sliced once per index:

* We work with ``Z = V - m/(1-γ)`` (value in excess of "keep pulling without ever
  learning").  Because the posterior mean is a martingale,
  ``(1-m)·m'(s) + m·m'(s+1) = m``, the immediate reward drops out and
  ``Z_d = max(γ[(1-m) Z_{d+1}(s) + m Z_{d+1}(s+1)], (λ - m)/(1-γ))``.
* The λ-dependent thresholds ``(λ - m)/(1-γ)`` of *all* states are one flat
  subtraction per sweep.

The bisection visits the same midpoints as textbook bisection, but skips the sweep when
convexity of the value in λ already decides the sign (see :func:`_bisect`): ~6 sweeps
instead of ~18 per index, bit-identical result.  ``bench/bench_gittins.py`` measures it;
on the 2-core development VM one cold index at H = 200, γ = 0.95 took a median of
3.4-5.6 ms (p95 5.5-8.8 ms) across runs, against 12-14 ms for plain vectorized bisection
and 72-79 ms for a pure-Python backward induction (14-22x).

Everything here is pure: no I/O, no clock, no randomness; the same arguments give the
same float on every run.
"""

from __future__ import annotations

import bisect
import math
import numbers
from collections.abc import Callable
from functools import lru_cache

import numpy as np

from .checks import is_real

__all__ = [
    "BISECTION_TOLERANCE",
    "MAX_HORIZON",
    "bisection_steps",
    "gittins_index",
    "gittins_index_uncached",
    "truncation_bound",
]

#: Required precision of the returned index (absolute, on the probability scale).
BISECTION_TOLERANCE = 1e-6

#: Largest accepted horizon.  The state triangle has (H+1)(H+2)/2 entries and we keep
#: four float64 tables of it, so H = 2000 needs ~64 MB while an index is computed (and
#: ~0.2 s).  That already makes the truncation bound γ^H/(1-γ) ≤ 2e-7 for every
#: γ ≤ 0.99.
MAX_HORIZON = 2000

# Cache key precision: floats are rounded to this many significant digits before they
# are used, so representation noise (0.1 + 0.2 vs 0.3) hits the same cache entry and
# the result is a pure function of the key.  12 digits is far below any meaningful
# difference in a posterior count or a discount factor.
_KEY_DIGITS = 12
_CACHE_SIZE = 4096


def truncation_bound(gamma: float, horizon: int) -> float:
    """Upper bound on (infinite-horizon index − horizon-``H`` index): ``γ^H/(1-γ)``.

    Derivation in the module docstring.  Exposed so callers (and tests) can check that a
    chosen horizon is adequate for their discount factor.
    """
    g, h = _check_gamma(gamma), _check_horizon(horizon)
    return g**h / (1.0 - g)


def bisection_steps(width: float, tolerance: float = BISECTION_TOLERANCE) -> int:
    """Number of halvings that shrink a bracket of ``width`` to ≤ ``2·tolerance``.

    We return the midpoint of the final bracket, so its error is at most half the final
    width; halving ``n`` times leaves ``width/2**n``.  The index lies in
    ``[alpha/(alpha+beta), 1]``, whose width is at most 1, so at most
    ``ceil(log2(1/2e-6)) = 19`` steps are ever needed for 1e-6 (2**-19 ≈ 1.9e-6 wide,
    i.e. ±9.5e-7).  1e-6 is three orders below anything the gate can resolve (λ* and the
    index are compared on a probability scale, and costs are estimates).  The paper's 50
    halvings (≈1e-15, phantom.md §6.3) buy nothing: the horizon truncation bound alone is
    7e-4 at the gate's γ = 0.95, H = 200, and a halving may cost a full backward induction.
    """
    if not width > 0.0:
        return 0
    return max(0, math.ceil(math.log2(width / (2.0 * tolerance))))


def gittins_index(alpha: float, beta: float, gamma: float = 0.95, horizon: int = 200) -> float:
    """Gittins index of a Bernoulli arm with posterior ``Beta(alpha, beta)``.

    Finite-horizon (``horizon`` pulls) calibration index, computed by vectorized backward
    induction and bisection on the retirement reward λ; accurate to ±1e-6 for the
    truncated problem (see :func:`bisection_steps`) and below the infinite-horizon value
    by at most :func:`truncation_bound`.

    Results are memoised (LRU, 4096 entries) on the arguments rounded to 12 significant
    digits; the rounded values are the ones computed with, so equal keys give equal
    floats.

    Raises ``ValueError`` unless ``alpha, beta`` are finite and > 0, ``0 < gamma < 1``
    and ``horizon`` is an integer in ``[1, MAX_HORIZON]``.
    """
    return _cached_index(*_validated_key(alpha, beta, gamma, horizon))


def gittins_index_uncached(
    alpha: float, beta: float, gamma: float = 0.95, horizon: int = 200
) -> float:
    """Same as :func:`gittins_index` but always recomputes (benchmarks, cold-cache tests)."""
    return _compute_index(*_validated_key(alpha, beta, gamma, horizon))


# --------------------------------------------------------------------------- validation


def _round_key(x: float) -> float:
    return float(format(float(x), f".{_KEY_DIGITS}g"))


def _check_positive(name: str, x: object) -> float:
    if not is_real(x):
        raise ValueError(f"{name} must be a real number > 0, got {x!r}")
    v = float(x)  # type: ignore[arg-type]
    if not math.isfinite(v) or v <= 0.0:
        raise ValueError(f"{name} must be finite and > 0, got {x!r}")
    v = _round_key(v)
    if v <= 0.0:  # pragma: no cover - a positive float never rounds to 0 at 12 digits
        raise ValueError(f"{name} must be > 0, got {x!r}")
    return v


def _check_gamma(gamma: object) -> float:
    if not is_real(gamma):
        raise ValueError(f"gamma must be a real number with 0 < gamma < 1, got {gamma!r}")
    g = float(gamma)  # type: ignore[arg-type]
    if not math.isfinite(g) or not 0.0 < g < 1.0:
        raise ValueError(f"gamma must satisfy 0 < gamma < 1, got {gamma!r}")
    g = _round_key(g)
    if not 0.0 < g < 1.0:
        raise ValueError(
            f"gamma must satisfy 0 < gamma < 1 at {_KEY_DIGITS} significant digits, got {gamma!r}"
        )
    return g


def _check_horizon(horizon: object) -> int:
    if not isinstance(horizon, numbers.Integral) or isinstance(horizon, bool):
        raise ValueError(f"horizon must be an integer >= 1, got {horizon!r}")
    h = int(horizon)
    if h < 1:
        raise ValueError(f"horizon must be >= 1, got {h}")
    if h > MAX_HORIZON:
        raise ValueError(
            f"horizon must be <= {MAX_HORIZON} (memory grows as horizon**2), got {h}"
        )
    return h


def _validated_key(alpha: object, beta: object, gamma: object, horizon: object) -> tuple[float, float, float, int]:
    return (
        _check_positive("alpha", alpha),
        _check_positive("beta", beta),
        _check_gamma(gamma),
        _check_horizon(horizon),
    )


# --------------------------------------------------------------------------- computation


def _root_excess(a: float, b: float, gamma: float, horizon: int) -> Callable[[float], float]:
    """Return ``f(λ)``: value of pulling at the root minus value of retiring, horizon-H.

    ``f(λ) > 0`` exactly when the index exceeds λ.  One call is one backward induction
    over the (H+1)(H+2)/2 posterior states; everything that does not depend on λ (the
    posterior means, the transition weights, the pre-sliced views) is built once here so
    the bisection only pays for the sweep itself.
    """
    H = horizon
    inv = 1.0 / (1.0 - gamma)

    # Flat triangle of states, depth-major: depth d occupies [off[d], off[d] + d + 1).
    # Built in place so the peak stays at ~4 tables of the triangle.
    sizes = np.arange(1, H + 2)
    off = np.zeros(H + 2, dtype=np.int64)
    np.cumsum(sizes, out=off[1:])
    mean = np.arange(off[-1], dtype=np.float64)
    mean -= np.repeat(off[:-1].astype(np.float64), sizes)  # successes s within the depth
    mean += a
    denom = np.repeat(np.arange(H + 1, dtype=np.float64), sizes)
    denom += a + b
    mean /= denom  # posterior mean (a+s)/(a+b+d) at every state
    del denom
    g_succ = gamma * mean  # discounted weight of the success child
    g_fail = gamma - g_succ  # discounted weight of the failure child
    mean *= inv
    mean_inv = mean  # m/(1-γ), so all thresholds are one subtraction per λ
    del mean

    thresh = np.empty_like(mean_inv)  # retirement excess (λ - m)/(1-γ), every state
    z = np.empty(H + 1)  # Z of the depth below, overwritten in place
    acc = np.empty(H + 1)
    tmp = np.empty(H + 1)

    # Pre-sliced views, deepest non-terminal depth first.  Writing Z_d into z[:d+1] once
    # acc holds the whole result is safe: z[1:d+2] is not read again.
    plan = []
    for d in range(H - 1, -1, -1):
        lo, n = int(off[d]), d + 1
        plan.append(
            (g_fail[lo : lo + n], g_succ[lo : lo + n], thresh[lo : lo + n],
             z[:n], z[1 : n + 1], acc[:n], tmp[:n])
        )
    leaf = thresh[int(off[H]) : int(off[H]) + H + 1]
    mul, add, maximum, subtract = np.multiply, np.add, np.maximum, np.subtract

    def f(lam: float) -> float:
        subtract(lam * inv, mean_inv, out=thresh)
        maximum(leaf, 0.0, out=z)  # Z_H = max(λ - m, 0)/(1-γ): retire or pull blind
        for w_fail, w_succ, t, z_fail, z_succ, out, scratch in plan:
            mul(w_fail, z_fail, out=out)
            mul(w_succ, z_succ, out=scratch)
            add(out, scratch, out=out)
            maximum(out, t, out=z_fail)
        # acc[0]: root excess of "pull once, then act optimally"; thresh[0]: of retiring.
        return float(acc[0] - thresh[0])

    return f


def _bisect(f: Callable[[float], float], low: float, high: float, f_high: float, steps: int, slope_floor: float,
            margin: float, use_bounds: bool = True) -> float:
    """Bisection on λ for the root of the convex, decreasing ``f``; returns the midpoint.

    Plain bisection would call ``f`` at every midpoint.  ``f`` is convex in λ (each
    state's value is a maximum of affine functions of λ — one per stopping rule) with
    slope in ``[slope_floor, -1]`` (``slope_floor = -1/(1-γ)``: the pull value rises at
    most γ/(1-γ) per unit of λ, the retire value exactly 1/(1-γ)).  So the midpoints
    already evaluated bound ``f`` at a new midpoint ``c`` from both sides:

    * above by the chord between its evaluated neighbours, and by the slope limits
      continued from either neighbour;
    * below by the line through two evaluated points on the same side of ``c`` (a
      convex function lies above its secants outside the secant's interval), and by the
      slope limits.

    When a bound settles the sign of ``f(c)`` by more than ``margin`` (far above the
    rounding error of a sweep) the backward induction is skipped.  The sequence of
    midpoints and the returned value are therefore exactly those of plain bisection —
    ``use_bounds=False`` runs that, and the tests compare the two bit for bit — while a
    typical index needs ~6 sweeps instead of ~18.
    """
    xs = [high]  # evaluated points, ascending; f(high) is known analytically
    fs = [f_high]
    for _ in range(steps):
        c = 0.5 * (low + high)
        positive = None
        if use_bounds:
            i = bisect.bisect_left(xs, c)  # xs[i-1] < c < xs[i]
            upper, lower = math.inf, -math.inf
            if i > 0:
                x1, f1 = xs[i - 1], fs[i - 1]
                upper = min(upper, f1 - (c - x1))  # slope <= -1 from the left
                lower = max(lower, f1 + slope_floor * (c - x1))  # slope >= floor
                if i > 1:  # secant of the two nearest left points, continued right
                    x0, f0 = xs[i - 2], fs[i - 2]
                    lower = max(lower, f1 + (f1 - f0) / (x1 - x0) * (c - x1))
            if i < len(xs):
                x2, f2 = xs[i], fs[i]
                lower = max(lower, f2 + (x2 - c))  # slope <= -1 from the right
                upper = min(upper, f2 - slope_floor * (x2 - c))  # slope >= floor
                if i > 0:  # chord between the two neighbours
                    upper = min(upper, f1 + (f2 - f1) * (c - x1) / (x2 - x1))
                if i + 1 < len(xs):  # secant of the two nearest right points, continued left
                    x3, f3 = xs[i + 1], fs[i + 1]
                    lower = max(lower, f2 + (f3 - f2) / (x3 - x2) * (c - x2))
            if upper < -margin:
                positive = False
            elif lower > margin:
                positive = True
        if positive is None:
            fc = f(c)
            positive = fc > 0.0
            i = bisect.bisect_left(xs, c)
            xs.insert(i, c)
            fs.insert(i, fc)
        if positive:
            low = c
        else:
            high = c
    return 0.5 * (low + high)


def _compute_index(a: float, b: float, gamma: float, horizon: int) -> float:
    """Index for already-validated, already-rounded arguments."""
    inv = 1.0 / (1.0 - gamma)
    mean = a / (a + b)
    # The index lies in [mean, 1]: at λ = mean pulling for ever already matches
    # retiring and learning can only add; at λ = 1 retiring is optimal everywhere and
    # f(1) = mean - 1 exactly (pull once: mean + γ/(1-γ), retire: 1/(1-γ)).
    low, high = mean, 1.0
    f = _root_excess(a, b, gamma, horizon)
    # Rounding error of one sweep is ~H ulps of values of size 1/(1-γ); 1e-9/(1-γ)
    # keeps every skipped comparison far from any rounding-sensitive case.
    return float(
        _bisect(f, low, high, mean - 1.0, bisection_steps(high - low),
                slope_floor=-inv, margin=1e-9 * inv)
    )


_cached_index = lru_cache(maxsize=_CACHE_SIZE)(_compute_index)
