"""Which typed fields are parameters (phantom.md §5.1).

A type step's values across the demonstrations are compared pairwise by
normalized Levenshtein distance (edit distance over the longer length); when
the mean over all C(n, 2) pairs is strictly greater than δ = 0.3 the field
varies and becomes a parameter `$Pk`, otherwise it is a constant and the
reference demonstration's value is kept as a literal.

The decision is taken on exact fractions, not on floats: each pair's
distance is an integer over an integer, and a float mean can land one ulp
on either side of 0.3 depending on summation order — a field exactly at the
threshold must stay literal however many traces there are. The reported
distance is that exact mean as a float.

A field whose text was not recorded in some trace (a password field, or
passive capture where text is never kept) is always a parameter: the
program must not invent content, and an empty literal would type nothing
where the user typed something.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from rapidfuzz.distance import Levenshtein

DELTA = 0.3
_DELTA_EXACT = Fraction(3, 10)


@dataclass(frozen=True, slots=True)
class FieldDecision:
    """How one type step is compiled."""

    parameter: bool
    literal: str | None            # the reference value, when not a parameter
    samples: tuple[str, ...]       # the values seen, in trace order; () when any is unknown
    distance: float | None         # mean pairwise normalized distance; None when unknown


def exact_mean_pairwise_distance(values: Sequence[str]) -> Fraction:
    """Mean normalized Levenshtein distance over all pairs, exactly. Two
    empty strings are at distance 0; fewer than two values have no pairs (0)."""
    pairs = list(combinations(values, 2))
    if not pairs:
        return Fraction(0)
    total = Fraction(0)
    for a, b in pairs:
        longest = max(len(a), len(b))
        if longest:
            total += Fraction(Levenshtein.distance(a, b), longest)
    return total / len(pairs)


def mean_pairwise_distance(values: Sequence[str]) -> float:
    """The same mean as a float (what reports show); equal, up to rounding, to
    averaging `rapidfuzz.distance.Levenshtein.normalized_distance` over pairs."""
    return float(exact_mean_pairwise_distance(values))


def decide(values: Sequence[str | None], reference: int) -> FieldDecision:
    """Parameter or literal for the values one type step had in each trace."""
    known = [value for value in values if value is not None]
    if len(known) != len(values):
        return FieldDecision(True, None, (), None)
    exact = exact_mean_pairwise_distance(known)
    varies = exact > _DELTA_EXACT
    return FieldDecision(varies, None if varies else known[reference], tuple(known), float(exact))
