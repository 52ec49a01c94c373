"""The miner's level-wise growth on plain lists and dicts, for a day.

The rules are `mining`'s (see its docstring); this version walks them
occurrence by occurrence, which on a day's few thousand actions costs less
than importing numpy would (`mining.LONG_STREAM`). It gives the same
`Found` records as `mining_arrays`: the same routines, the same counted
starts, the same representative steps (most common full step per position,
ties to the smallest by its fields — a `Step` orders as its fields do).
tests/compiler/test_mining.py holds both versions to a brute-force
reference and to each other."""

from __future__ import annotations

from collections import Counter
from itertools import accumulate, repeat
from typing import NamedTuple

from .encoded import Found, Params, Stream


class _Pattern(NamedTuple):
    """A frequent n-gram: all its starts ascending, the ones that count, and
    the index of its prefix in the level below (-1 on level 1)."""

    starts: list[int]
    counted: list[int]
    parent: int


def _counted(starts: list[int], length: int) -> list[int]:
    """The greedy left-to-right non-overlapping starts among sorted `starts`."""
    out = []
    last = -length
    for start in starts:
        if start - last >= length:
            out.append(start)
            last = start
    return out


def _grow(level: list[_Pattern], n: int, seq: list[int], session_end: list[int],
          min_support: int) -> list[_Pattern]:
    """The frequent one-key right extensions of a level's n-grams."""
    upper = []
    for index, pattern in enumerate(level):
        by_next: dict[int, list[int]] = {}
        for start in pattern.starts:
            if start + n < session_end[start]:
                by_next.setdefault(seq[start + n], []).append(start)
        for next_key in sorted(by_next):
            starts = by_next[next_key]
            if len(starts) < min_support:   # support never exceeds the occurrences
                continue
            counted = _counted(starts, n + 1)
            if len(counted) >= min_support:
                upper.append(_Pattern(starts, counted, index))
    return upper


def _maximal(lower: list[_Pattern], upper: list[_Pattern]) -> list[bool]:
    """Which n-grams of `lower` no one-longer frequent n-gram absorbs (same
    support): its right extensions are its children in `upper`, a left
    extension is the n-gram of `upper` whose suffix starts one later."""
    flags = [True] * len(lower)
    if not upper:
        return flags
    at = {start: index for index, pattern in enumerate(lower) for start in pattern.starts}
    for pattern in upper:
        support = len(pattern.counted)
        if support == len(lower[pattern.parent].counted):
            flags[pattern.parent] = False
        suffix = at[pattern.starts[0] + 1]
        if support == len(lower[suffix].counted):
            flags[suffix] = False
    return flags


def _found(level: list[_Pattern], maximal: list[bool], n: int, stream: Stream,
           min_specific: int) -> Found | None:
    seq, is_specific, steps = stream.seq, stream.is_specific, stream.steps
    chosen = []
    for pattern, keep in zip(level, maximal):
        if not keep:
            continue
        first = pattern.starts[0]
        if min_specific > 0 and len({k for k in seq[first:first + n] if is_specific[k]}) < min_specific:
            continue
        chosen.append(pattern)
    if not chosen:
        return None
    representatives = []
    for pattern in chosen:
        rep = []
        for offset in range(n):
            counts = Counter(steps[start + offset] for start in pattern.counted)
            rep.append(min(counts.items(), key=lambda item: (-item[1], item[0]))[0])
        representatives.append(tuple(rep))
    return Found(n, [p.starts[0] for p in chosen], [len(p.counted) for p in chosen],
                 [start for p in chosen for start in p.counted], representatives)


def found_routines(stream: Stream, params: Params) -> list[Found]:
    """The routines of every length, from `min_length` up (see `Found`)."""
    seq = list(stream.seq)
    ends = list(accumulate(stream.lengths))
    session_end = [end for end, length in zip(ends, stream.lengths) for end in repeat(end, length)]

    by_key: dict[int, list[int]] = {}
    for position, key_id in enumerate(seq):
        by_key.setdefault(key_id, []).append(position)
    level = [_Pattern(starts, starts, -1) for _, starts in sorted(by_key.items())
             if len(starts) >= params.min_support]
    n = 1
    found = []
    while level:
        upper = (_grow(level, n, seq, session_end, params.min_support)
                 if n < params.max_length else None)
        if n >= params.min_length:
            maximal = _maximal(level, upper) if upper is not None else [True] * len(level)
            result = _found(level, maximal, n, stream, params.min_specific)
            if result is not None:
                found.append(result)
        if upper is None:
            break
        level, n = upper, n + 1
    return found
