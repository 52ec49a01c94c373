"""The miner's level-wise growth as numpy array operations, for long windows.

The algorithm is the one `mining`'s docstring describes: level n holds, for
every frequent n-gram, the sorted starts of all its occurrences; level n+1
reads the key after each start, sorts (pattern, next key, start) with one
stable sort and counts non-overlapping occurrences per new group. Only
starts closer than the pattern length to the previous start of the same
pattern need the sequential greedy rule, and those are walked in Python.

A day's stream is mined by `mining_lists` instead (importing numpy costs a
one-day process more than it saves); tests/compiler/test_mining.py holds
both versions to a brute-force reference and to each other."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from compiler.records import Step

from .encoded import Found, Params, Stream


def _step_order(step: Step) -> tuple[str, str, str, str, str, bool]:
    return (step.kind, step.app, step.target, step.role, step.label, step.specific)


def _greedy_kept(group: np.ndarray, starts: np.ndarray, length: int) -> np.ndarray:
    """Which occurrences the greedy left-to-right rule counts.

    `starts` are sorted within each run of equal `group`. An occurrence that
    begins at least `length` after the previous start of its group cannot
    overlap anything counted before it, so only the "linked" ones — closer
    than `length` to their predecessor — need the sequential rule. Starts in
    different sessions never link: an occurrence ends inside its session."""
    kept = np.ones(starts.size, dtype=bool)
    if starts.size < 2:
        return kept
    link = (group[1:] == group[:-1]) & (starts[1:] - starts[:-1] < length)
    linked = np.flatnonzero(link) + 1
    if linked.size == 0:
        return kept
    here = starts[linked].tolist()
    before = starts[linked - 1].tolist()
    chained = np.concatenate(([False], linked[1:] == linked[:-1] + 1)).tolist()
    dropped = []
    last = 0
    for j, start in enumerate(here):
        if not chained[j]:
            last = before[j]  # head of a chain: never overlaps what came before it
        if start - last >= length:
            last = start
        else:
            dropped.append(j)
    if dropped:
        kept[linked[np.asarray(dropped, dtype=np.int64)]] = False
    return kept


@dataclass(frozen=True, slots=True)
class _Level:
    """All frequent n-grams of one length: their occurrences sorted by
    (pattern, start), which of them count, and per pattern its support and
    first start."""

    length: int
    starts: np.ndarray      # int64, all occurrences of frequent patterns
    group: np.ndarray       # int64, pattern index per occurrence (0..P-1, non-decreasing)
    kept: np.ndarray        # bool, counted by the non-overlapping rule
    support: np.ndarray     # int64 per pattern
    first: np.ndarray       # int64 per pattern: its first start
    parent: np.ndarray      # int64 per pattern: its prefix pattern one level down


def _select(starts: np.ndarray, boundary_key: np.ndarray, length: int, min_support: int,
            parent_of_key: Callable[[np.ndarray], np.ndarray]) -> _Level:
    """Group sorted occurrences by `boundary_key`, count, keep frequent groups."""
    if starts.size == 0:
        empty = np.zeros(0, dtype=np.int64)
        return _Level(length, empty, empty, np.zeros(0, dtype=bool), empty, empty, empty)
    change = np.empty(starts.size, dtype=bool)
    change[0] = True
    np.not_equal(boundary_key[1:], boundary_key[:-1], out=change[1:])
    group = np.cumsum(change) - 1
    kept = _greedy_kept(group, starts, length)
    support = np.bincount(group[kept], minlength=int(group[-1]) + 1)
    frequent = support >= min_support
    occ_mask = frequent[group]
    heads = np.flatnonzero(change)
    new_index = np.cumsum(frequent) - 1
    starts_f = starts[occ_mask]
    return _Level(
        length=length,
        starts=starts_f,
        group=new_index[group[occ_mask]],
        kept=kept[occ_mask],
        support=support[frequent].astype(np.int64),
        first=starts[heads[frequent]],
        parent=parent_of_key(boundary_key[heads[frequent]]),
    )


def _grow(level: _Level, seq: np.ndarray, session_end: np.ndarray, num_keys: int,
          min_support: int) -> _Level:
    """The frequent one-key right extensions of a level's patterns."""
    n = level.length
    valid = level.starts + n < session_end[level.starts]
    starts = level.starts[valid]
    combined = level.group[valid] * num_keys + seq[starts + n]
    order = np.argsort(combined, kind="stable")  # stable: starts stay sorted per group
    return _select(starts[order], combined[order], n + 1, min_support, lambda k: k // num_keys)


def _maximal(lower: _Level, upper: _Level, total: int) -> np.ndarray:
    """Which patterns of `lower` no one-longer frequent pattern absorbs
    (same support); `upper` is the next level."""
    flags = np.ones(lower.support.size, dtype=bool)
    if upper.support.size == 0:
        return flags
    # right extensions: the children
    same = upper.support == lower.support[upper.parent]
    flags[upper.parent[same]] = False
    # left extensions: the pattern starting one position later is the suffix
    at = np.full(total + 1, -1, dtype=np.int64)
    at[lower.starts] = lower.group
    suffix = at[upper.first + 1]
    same = upper.support == lower.support[suffix]
    flags[suffix[same]] = False
    return flags


@dataclass(frozen=True, slots=True)
class _Chosen:
    """Routines of one length: first starts, and counted starts grouped per
    routine (`counts[i]` of them for routine i, ascending)."""

    length: int
    first: np.ndarray
    counts: np.ndarray
    counted: np.ndarray


def _distinct_specific(seq: np.ndarray, is_specific: np.ndarray, first: np.ndarray,
                       n: int) -> np.ndarray:
    """Per pattern, how many distinct specific keys it holds (vectorized)."""
    keys = seq[first[:, None] + np.arange(n)]
    marked = np.where(is_specific[keys], keys, -1)
    marked.sort(axis=1)
    new = (marked[:, 1:] != marked[:, :-1]) & (marked[:, 1:] >= 0)
    distinct: np.ndarray = (marked[:, 0] >= 0).astype(np.int64) + new.sum(axis=1)
    return distinct


def _found(level: _Level, maximal: np.ndarray, seq: np.ndarray, is_specific: np.ndarray,
           min_specific: int) -> _Chosen | None:
    n = level.length
    chosen = np.flatnonzero(maximal)
    if chosen.size and min_specific > 0:
        chosen = chosen[_distinct_specific(seq, is_specific, level.first[chosen], n)
                        >= min_specific]
    if chosen.size == 0:
        return None
    wanted = np.zeros(level.support.size, dtype=bool)
    wanted[chosen] = True
    occ = wanted[level.group] & level.kept
    return _Chosen(n, level.first[chosen], level.support[chosen], level.starts[occ])


def _representatives(found: _Chosen, step_ids: np.ndarray, num_steps: int) -> np.ndarray:
    """Per routine and position, the id of the most common full step among
    the counted occurrences; ties go to the smallest id (ids follow the
    order of the steps' fields). One sort for all routines of a length."""
    n = found.length
    routine_of = np.repeat(np.arange(found.first.size, dtype=np.int64), found.counts)
    cell = routine_of[:, None] * n + np.arange(n)
    combined = (cell * num_steps + step_ids[found.counted[:, None] + np.arange(n)]).ravel()
    values, counts = np.unique(combined, return_counts=True)
    cells, steps = values // num_steps, values % num_steps
    order = np.lexsort((steps, -counts, cells))
    cells, steps = cells[order], steps[order]
    head = np.ones(cells.size, dtype=bool)
    head[1:] = cells[1:] != cells[:-1]
    return steps[head].reshape(found.first.size, n)


def found_routines(stream: Stream, params: Params) -> list[Found]:
    """The routines of every length, from `min_length` up (see `Found`)."""
    seq = np.asarray(stream.seq, dtype=np.int64)
    num_keys = len(stream.is_specific)
    is_specific = np.asarray(stream.is_specific, dtype=bool)
    lengths = np.asarray(stream.lengths, dtype=np.int64)
    session_end = np.repeat(np.cumsum(lengths), lengths)

    # level-wise growth; only two levels are alive at a time
    order = np.argsort(seq, kind="stable")
    level = _select(order, seq[order], 1, params.min_support,
                    lambda k: np.full(k.size, -1, np.int64))
    found: list[_Chosen] = []
    while level.support.size:
        upper = (_grow(level, seq, session_end, num_keys, params.min_support)
                 if level.length < params.max_length else None)
        if level.length >= params.min_length:
            maximal = (_maximal(level, upper, seq.size) if upper is not None
                       else np.ones(level.support.size, dtype=bool))
            result = _found(level, maximal, seq, is_specific, params.min_specific)
            if result is not None:
                found.append(result)
        if upper is None:
            break
        level = upper
    if not found:
        return []

    # full steps, encoded only where a counted occurrence covers them
    covered = np.zeros(seq.size + 1, dtype=np.int64)
    for f in found:
        covered += np.bincount(f.counted, minlength=seq.size + 1)
        covered -= np.bincount(f.counted + f.length, minlength=seq.size + 1)
    where = np.flatnonzero(np.cumsum(covered[:-1]) > 0).tolist()
    steps_here = [stream.steps[i] for i in where]
    step_list = sorted(dict.fromkeys(steps_here), key=_step_order)
    step_index = {step: i for i, step in enumerate(step_list)}
    step_ids = np.full(seq.size, -1, dtype=np.int64)
    step_ids[where] = [step_index[step] for step in steps_here]

    out = []
    for f in found:
        representative = _representatives(f, step_ids, len(step_list)).tolist()
        out.append(Found(f.length, f.first.tolist(), f.counts.tolist(), f.counted.tolist(),
                         [tuple(step_list[i] for i in rep) for rep in representative]))
    return out
