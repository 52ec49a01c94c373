"""Benchmark: one Gittins index at horizon 200, cold cache.

Run from the repository root:  python bench/bench_gittins.py [--repeats N]

Times three implementations of the same finite-horizon calibration index on the same
grid of Beta(alpha, beta) posteriors (γ = 0.95, H = 200, precision 1e-6):

* ``gittins_index_uncached`` — what Phantom uses: numpy sweeps, bisection whose
  convexity-implied steps skip the sweep;
* plain vectorized bisection — the same sweep evaluated at every midpoint;
* a naive pure-Python backward induction with plain bisection (the baseline).

Prints median and p95 milliseconds per index and the speed-up over the baseline.  It
also checks the three agree.  Timings go to stdout only; nothing here is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from compiler.routines.gate import gittins  # noqa: E402
from compiler.routines.gate.gittins import bisection_steps, gittins_index_uncached  # noqa: E402

GAMMA = 0.95
HORIZON = 200
GRID = [(a, b) for a in (1, 2, 4, 11) for b in (1, 3, 8, 20)]


def naive_index(alpha: float, beta: float, gamma: float = GAMMA, horizon: int = HORIZON) -> float:
    """Plain bisection over a state-by-state backward induction in pure Python."""
    retire_scale = 1.0 / (1.0 - gamma)
    low, high = alpha / (alpha + beta), 1.0
    for _ in range(bisection_steps(high - low)):
        lam = 0.5 * (low + high)
        retire = lam * retire_scale
        n = alpha + beta + horizon
        values = [max((alpha + s) / n, lam) * retire_scale for s in range(horizon + 1)]
        pull = 0.0
        for d in range(horizon - 1, -1, -1):
            n = alpha + beta + d
            below = values
            values = []
            for s in range(d + 1):
                m = (alpha + s) / n
                pull = m * (1.0 + gamma * below[s + 1]) + (1.0 - m) * gamma * below[s]
                values.append(pull if pull > retire else retire)
        if pull > retire:  # pull is the root's value of pulling once
            low = lam
        else:
            high = lam
    return 0.5 * (low + high)


def plain_vectorized_index(alpha: float, beta: float, gamma: float = GAMMA,
                           horizon: int = HORIZON) -> float:
    inv = 1.0 / (1.0 - gamma)
    mean = alpha / (alpha + beta)
    f = gittins._root_excess(alpha, beta, gamma, horizon)
    return gittins._bisect(f, mean, 1.0, mean - 1.0, bisection_steps(1.0 - mean),
                           slope_floor=-inv, margin=1e-9 * inv, use_bounds=False)


def _time(fn, repeats: int) -> tuple[list[float], list[float]]:
    samples, values = [], []
    for alpha, beta in GRID:
        for _ in range(repeats):
            start = time.perf_counter()
            value = fn(alpha, beta)
            samples.append((time.perf_counter() - start) * 1000.0)
        values.append(value)
    return samples, values


def _summary(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10,
                        help="timed calls per grid point for the numpy versions (default 10)")
    args = parser.parse_args(argv)

    print(f"gittins_index at gamma={GAMMA}, horizon={HORIZON}, {len(GRID)} (alpha, beta) "
          f"pairs, cold cache")
    fast, fast_values = _time(gittins_index_uncached, args.repeats)
    plain, plain_values = _time(plain_vectorized_index, args.repeats)
    naive, naive_values = _time(naive_index, 1)

    rows = [("numpy + convexity shortcuts (used)", fast),
            ("numpy, plain bisection", plain),
            ("pure Python, plain bisection", naive)]
    for label, samples in rows:
        median, p95 = _summary(samples)
        print(f"  {label:<36} median {median:8.2f} ms   p95 {p95:8.2f} ms   (n={len(samples)})")

    fast_median = _summary(fast)[0]
    print(f"  speed-up over pure Python: {_summary(naive)[0] / fast_median:.0f}x "
          f"(plain numpy bisection: {_summary(naive)[0] / _summary(plain)[0]:.0f}x)")
    worst = max(max(abs(x - y), abs(x - z))
                for x, y, z in zip(fast_values, plain_values, naive_values))
    print(f"  max |difference| between implementations: {worst:.1e}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
