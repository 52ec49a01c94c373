"""Routine mining: contiguous action n-grams that a user repeats.

A routine (activity-frames §7, docs/DESIGN.md Thresholds) is a run of 3–60 UI
actions that recurs at least three times and names at least two distinct
targets. Sessions are split upstream (`actions.sessions`, > 90 s
idle) and an n-gram never spans two sessions: a pause that long means the
user stopped, so what follows is not the same piece of work.

Support counts non-overlapping occurrences
------------------------------------------
Within a session, occurrences are counted greedily from the left and an
occurrence that overlaps the previously counted one is skipped; the counts
of all sessions are summed. Counting overlapping windows would let one run
count twice: in A B A B A B the window "A B A B" starts at positions 0 and
2, yet the user did that four-step thing once, not twice. Because all
occurrences of a pattern have the same length, the greedy left-to-right
choice is also the largest possible set of disjoint occurrences (it is
interval scheduling by earliest end), so support is well defined and
independent of how the occurrences are listed. `occurrences.SessionIndex`
counts a given n-gram by the same rule.

That maximum is anti-monotone: every occurrence of a longer pattern contains
an occurrence of each of its contiguous sub-patterns at a fixed offset, and
disjoint long occurrences give disjoint short ones. So an n-gram can only be
frequent if its (n−1)-prefix and (n−1)-suffix are, which is what makes
level-wise growth correct.

Algorithm
---------
Step keys (`actions.step_key` by default: the accessibility path is
left out, so a moved button is still the same step) are integer-encoded and
all sessions are laid end to end in one int array, with each position
remembering where its session ends. Level n holds, for every frequent
n-gram, the sorted list of all its start positions (overlapping ones
included — a longer pattern may need them). Level n+1 is made by reading
the key that follows each start (where the session continues), sorting
(pattern, next key, start) with one stable numpy sort and counting
non-overlapping occurrences per new group; groups below `min_support` are
dropped, so only extensions of frequent n-grams are ever looked at, never
all windows. The greedy overlap count is vectorized: only starts closer than
the pattern length to the previous start of the same pattern need the
sequential rule, and those are walked in Python.

Maximality: an n-gram is dropped when a longer kept n-gram containing it
has the same support. It suffices to look one step up (the left and right
one-key extensions): if X ⊂ Y with supp(X) = supp(Y), the one-longer
pattern Z between them has supp(X) ≥ supp(Z) ≥ supp(Y), and Z is kept if X
was (length and distinct specific steps only grow). Right extensions are
the children of the level-wise growth; a left extension is found through
its suffix, looked up by position in the previous level.

A routine's id is a digest of its cycle's canonical rotation (`ids`), so
the rotations of one loop share it; `cycles` reports one of them.

Everything is deterministic: key ids come from sorting the distinct keys by
their repr, no set or dict iteration order reaches an output, and the result
is sorted by (−support, −length, id, keys) — rotations share an id.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from operator import attrgetter

import numpy as np

from compiler.collector import collector_paused
from compiler.records import Action, Step

from .actions import step_key
from .ids import routine_id

__all__ = [
    "MIN_SUPPORT",
    "MIN_LENGTH",
    "MAX_LENGTH",
    "MIN_SPECIFIC",
    "Occurrence",
    "Routine",
    "mine",
    "routine_id",
]

# activity-frames §7 / docs/DESIGN.md Thresholds: 3–60 actions, ≥ 3 occurrences,
# ≥ 2 distinct targets.
MIN_SUPPORT = 3
MIN_LENGTH = 3
MAX_LENGTH = 60
MIN_SPECIFIC = 2
_STEP = attrgetter("step")

KeyFn = Callable[[Step], Hashable]


@dataclass(frozen=True, slots=True)
class Occurrence:
    """One counted occurrence: `actions` are `sessions[session_index][start:start+n]`."""

    session_index: int
    start: int
    actions: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class Routine:
    """A maximal frequent n-gram of step keys and the occurrences that count.

    `steps[i]` stands for position i: the most common full `Step` there
    among the counted occurrences (ties go to the smallest step by its
    fields), so a routine can be described and compiled although its key
    leaves the accessibility path out. `support == len(occurrences)`."""

    id: str
    keys: tuple[Hashable, ...]
    steps: tuple[Step, ...]
    support: int
    occurrences: tuple[Occurrence, ...]

    @property
    def length(self) -> int:
        return len(self.keys)


def _step_order(step: Step) -> tuple[str, str, str, str, str, bool]:
    return (step.kind, step.app, step.target, step.role, step.label, step.specific)


def _check_params(min_support: int, min_length: int, max_length: int, min_specific: int) -> None:
    for name, value in (("min_support", min_support), ("min_length", min_length),
                        ("max_length", max_length), ("min_specific", min_specific)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"{name} must be an integer, got {value!r}")
    if min_support < 1:
        raise ValueError(f"min_support must be >= 1, got {min_support}")
    if min_length < 1:
        raise ValueError(f"min_length must be >= 1, got {min_length}")
    if max_length < min_length:
        raise ValueError(f"max_length ({max_length}) must be >= min_length ({min_length})")
    if min_specific < 0:
        raise ValueError(f"min_specific must be >= 0, got {min_specific}")


# -- the level-wise miner ------------------------------------------------------------------
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
class _Found:
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
           min_specific: int) -> _Found | None:
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
    return _Found(n, level.first[chosen], level.support[chosen], level.starts[occ])


def _representatives(found: _Found, step_ids: np.ndarray, num_steps: int) -> np.ndarray:
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


@collector_paused()
def mine(sessions: Sequence[Sequence[Action]], *, min_support: int = MIN_SUPPORT,
         min_length: int = MIN_LENGTH, max_length: int = MAX_LENGTH,
         min_specific: int = MIN_SPECIFIC, key: KeyFn = step_key) -> tuple[Routine, ...]:
    """Maximal contiguous n-grams of step keys, `min_length`..`max_length`
    long, with at least `min_support` non-overlapping occurrences and at
    least `min_specific` distinct specific step keys (a key is specific when
    some action carrying it is anchored on an accessibility element or a
    URL). Ordered by (−support, −length, id, keys). See the module docstring."""
    _check_params(min_support, min_length, max_length, min_specific)
    sessions = [tuple(s) for s in sessions]
    actions = [a for s in sessions for a in s]
    if not actions:
        return ()

    # integer-encode the keys; ids follow the repr order of the distinct keys.
    # A day repeats a few hundred distinct steps thousands of times, so each
    # distinct step is keyed once.
    steps = list(map(_STEP, actions))
    key_of = {step: key(step) for step in dict.fromkeys(steps)}
    specific_keys = {k for step, k in key_of.items() if step.specific}
    distinct = sorted(dict.fromkeys(key_of.values()), key=repr)  # first-seen order breaks repr ties
    ids = {k: i for i, k in enumerate(distinct)}
    flat_keys = list(map(key_of.__getitem__, steps))
    seq = np.fromiter(map(ids.__getitem__, flat_keys), dtype=np.int64, count=len(flat_keys))
    is_specific = np.array([k in specific_keys for k in distinct], dtype=bool)

    lengths = np.array([len(s) for s in sessions], dtype=np.int64)
    ends = np.cumsum(lengths)
    begins = ends - lengths
    session_of = np.repeat(np.arange(len(sessions), dtype=np.int64), lengths)
    session_end = ends[session_of]

    # level-wise growth; only two levels are alive at a time
    order = np.argsort(seq, kind="stable")
    level = _select(order, seq[order], 1, min_support, lambda k: np.full(k.size, -1, np.int64))
    found: list[_Found] = []
    while level.support.size:
        upper = (_grow(level, seq, session_end, len(distinct), min_support)
                 if level.length < max_length else None)
        if level.length >= min_length:
            maximal = (_maximal(level, upper, seq.size) if upper is not None
                       else np.ones(level.support.size, dtype=bool))
            result = _found(level, maximal, seq, is_specific, min_specific)
            if result is not None:
                found.append(result)
        if upper is None:
            break
        level = upper
    if not found:
        return ()

    # full steps, encoded only where a counted occurrence covers them
    covered = np.zeros(seq.size + 1, dtype=np.int64)
    for f in found:
        covered += np.bincount(f.counted, minlength=seq.size + 1)
        covered -= np.bincount(f.counted + f.length, minlength=seq.size + 1)
    where = np.flatnonzero(np.cumsum(covered[:-1]) > 0).tolist()
    steps_here = [actions[i].step for i in where]
    step_list = sorted(dict.fromkeys(steps_here), key=_step_order)
    step_index = {step: i for i, step in enumerate(step_list)}
    step_ids = np.full(seq.size, -1, dtype=np.int64)
    step_ids[where] = [step_index[step] for step in steps_here]

    routines = []
    for f in found:
        n = f.length
        representative = _representatives(f, step_ids, len(step_list)).tolist()
        where = session_of[f.counted]
        offsets = (f.counted - begins[where]).tolist()
        occurrences = [Occurrence(si, off, sessions[si][off:off + n])
                       for si, off in zip(where.tolist(), offsets)]
        position = 0
        for first, count, rep in zip(f.first.tolist(), f.counts.tolist(), representative):
            keys = tuple(flat_keys[first:first + n])
            routines.append(Routine(routine_id(keys), keys, tuple(step_list[i] for i in rep),
                                    count, tuple(occurrences[position:position + count])))
            position += count
    routines.sort(key=lambda r: (-r.support, -r.length, r.id, repr(r.keys)))  # rotations share an id
    return tuple(routines)
