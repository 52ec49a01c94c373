"""Seeded randomness that never depends on the process: a generator is
derived from the seed and a few labels through sha256, so the same
(seed, day, purpose) gives the same stream in every process, whatever
PYTHONHASHSEED says, and days can be generated independently of each other.

`Weights` and `choose` turn one uniform draw into one of several choices:
the synthetic user's habits are tables of (weight, choice) rows instead of
`if r < 0.32: … elif r < 0.36: …` ladders."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from itertools import accumulate
from typing import Callable, Generic, TypeVar

T = TypeVar("T")


def derive_rng(seed: int, *labels: object) -> random.Random:
    """A `random.Random` for one purpose, e.g. `derive_rng(7, "day", 3)`."""
    text = "\x1f".join(str(part) for part in (seed, *labels))
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


@dataclass(frozen=True, slots=True)
class Weights(Generic[T]):
    """A weight table: choices in a fixed order, each with its upper bound
    on the unit interval and an optional condition.

    The bounds are `cumulative weight / total weight`, divided once as
    integers (correctly rounded), so rows (32, a), (4, b), (64, c) give
    exactly the doubles 0.32 and 0.36 a hand-written ladder compares with:
    the table picks what the ladder picked for every draw. (`random.choices`
    compares `random() * total` instead, which differs in the last bit now
    and then; the weighted picks that always used it keep it.)"""

    choices: tuple[T, ...]
    bounds: tuple[float, ...]
    when: tuple[Callable[..., object] | None, ...]

    @classmethod
    def of(cls, *rows: tuple[int, T] | tuple[int, T, Callable[..., object]]) -> Weights[T]:
        """Rows are (weight, choice) or (weight, choice, condition); integer
        weights, and the last row unconditional so some choice always holds."""
        weights = [row[0] for row in rows]
        if not rows or any(not isinstance(w, int) or w <= 0 for w in weights):
            raise ValueError("a weight table needs positive integer weights")
        if len(rows[-1]) > 2:
            raise ValueError("the last row of a weight table must be unconditional")
        total = sum(weights)
        return cls(tuple(row[1] for row in rows), tuple(c / total for c in accumulate(weights)),
                   tuple(row[2] if len(row) > 2 else None for row in rows))


def choose(rng: random.Random, table: Weights[T], *context: object) -> T:
    """One draw: the first row whose bound lies above it and whose condition
    (called with `context`) holds. A row whose condition fails hands the draw
    to the next row, as `elif r < 0.50 and site.search:` falls through to the
    next `elif` of a ladder; conditions must not draw."""
    r = rng.random()
    index = 0
    while not r < table.bounds[index]:
        index += 1
    while (condition := table.when[index]) is not None and not condition(*context):
        index += 1
    return table.choices[index]
