"""Argument checks shared by the gate (`CostModel`, `GateInputs`,
`break_even_threshold`, the Gittins index): a number must be a real or an
integral number and not a bool — bool is an int subclass, and `True` as a
count, a cost or a discount is a caller bug — and finite where it says so.
`finite` raises `ValueError` naming the argument."""

from __future__ import annotations

import math
import numbers

__all__ = ["finite", "is_int", "is_real"]


def is_real(x: object) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def is_int(x: object) -> bool:
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def finite(name: str, x: object) -> float:
    if not is_real(x):
        raise ValueError(f"{name} must be a real number, got {x!r}")
    v = float(x)  # type: ignore[arg-type]
    if not math.isfinite(v):
        raise ValueError(f"{name} must be finite, got {x!r}")
    return v
