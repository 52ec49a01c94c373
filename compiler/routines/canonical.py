"""Canonical floats for the routines side's `to_dict`s.

Routine measures, the recurrence and the gate's decisions are rendered as
canonical JSON, so every float in them is rounded the same way: to 6
decimals, with -0.0 turned into 0.0 so the bytes never show "-0.0". One
function, so the measures and the gate cannot drift apart.
"""

from __future__ import annotations

__all__ = ["DECIMALS", "rounded"]

DECIMALS = 6


def rounded(x: float) -> float:
    return round(float(x), DECIMALS) + 0.0  # + 0.0: never "-0.0" in JSON
