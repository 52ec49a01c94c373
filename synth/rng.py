"""Seeded randomness that never depends on the process: a generator is
derived from the seed and a few labels through sha256, so the same
(seed, day, purpose) gives the same stream in every process, whatever
PYTHONHASHSEED says, and days can be generated independently of each other."""

from __future__ import annotations

import hashlib
import random


def derive_rng(seed: int, *labels: object) -> random.Random:
    """A `random.Random` for one purpose, e.g. `derive_rng(7, "day", 3)`."""
    text = "\x1f".join(str(part) for part in (seed, *labels))
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def weighted(rng: random.Random, options: tuple, weights: tuple) -> object:
    """One of `options` by weight (a thin, explicit wrapper so every draw is
    visible in the call sites)."""
    return rng.choices(options, weights=weights, k=1)[0]
