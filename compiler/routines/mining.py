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
left out, so a moved button is still the same step) are integer-encoded
once and all sessions are laid end to end, with each position remembering
where its session ends (`encoded.Stream`). Level n holds, for every
frequent n-gram, the sorted list of all its start positions (overlapping
ones included — a longer pattern may need them). Level n+1 is made by
reading the key that follows each start (where the session continues),
grouping the starts by (pattern, next key) and counting non-overlapping
occurrences per new group; groups below `min_support` are dropped, so only
extensions of frequent n-grams are ever looked at, never all windows.

The growth runs in one of two versions that give the same routines:
`mining_lists` on plain lists and dicts for a stream shorter than
LONG_STREAM actions (a day: importing numpy would cost a first compile
more than numpy saves on it), `mining_arrays` on numpy arrays from there
on (a long window, where one sort per level beats a Python loop over every
occurrence). docs/BENCHMARKS.md has both measured on both sides of the
threshold.

Maximality: an n-gram is dropped when a longer kept n-gram containing it
has the same support. It suffices to look one step up (the left and right
one-key extensions): if X ⊂ Y with supp(X) = supp(Y), the one-longer
pattern Z between them has supp(X) ≥ supp(Z) ≥ supp(Y), and Z is kept if X
was (length and distinct specific steps only grow). Right extensions are
the children of the level-wise growth; a left extension is found through
its suffix, looked up by position in the previous level.

A routine's id is a digest of its cycle's canonical rotation (`ids`), so
the rotations of one loop share it; `cycles` reports one of them.

Everything is deterministic: key ids are given in the order keys are first
seen, no set or dict iteration order reaches an output, and the result is
sorted by (−support, −length, id, keys) — rotations share an id. That order
is total (no two routines have the same keys), and what a routine holds
(its keys, counted starts, representative steps) does not depend on the
ids, so the ids' order never reaches an output either; sorting the
distinct keys by repr, as the miner once did, cost a day's compile a
millisecond for nothing.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from itertools import accumulate
from operator import attrgetter

from compiler.collector import collector_paused
from compiler.records import Action, Step

from .actions import step_key
from .encoded import Found, Params, Stream
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
# From this many actions on, the numpy version mines (see the docstring); below,
# the plain one. bench/bench_mining.py --threshold (docs/BENCHMARKS.md): numpy
# leads in process from ~2,500 actions, but with its import only from ~100,000;
# below 10,000 the plain version costs at most ~7 ms more, and from there on a
# compile has loaded numpy for the frames anyway (LONG_WINDOW snapshots, about
# one action each) and `phantom routines` for the Gittins gate.
LONG_STREAM = 10_000
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


def _check_params(min_support: int, min_length: int, max_length: int, min_specific: int) -> None:
    for name, value in (("min_support", min_support), ("min_length", min_length),
                        ("max_length", max_length), ("min_specific", min_specific)):
        if isinstance(value, bool) or not hasattr(value, "__index__"):  # int or numpy integer
            raise ValueError(f"{name} must be an integer, got {value!r}")
    if min_support < 1:
        raise ValueError(f"min_support must be >= 1, got {min_support}")
    if min_length < 1:
        raise ValueError(f"min_length must be >= 1, got {min_length}")
    if max_length < min_length:
        raise ValueError(f"max_length ({max_length}) must be >= min_length ({min_length})")
    if min_specific < 0:
        raise ValueError(f"min_specific must be >= 0, got {min_specific}")


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
    frozen = [tuple(s) for s in sessions]
    lengths = [len(s) for s in frozen]
    total = sum(lengths)
    if not total:
        return ()

    # integer-encode the keys, in first-seen order (see the docstring). A day
    # repeats a few hundred distinct steps thousands of times, so each distinct
    # step is keyed once, and each position holds its step and an int.
    steps = [a.step for s in frozen for a in s]
    key_of = {step: key(step) for step in dict.fromkeys(steps)}
    ids: dict[Hashable, int] = {}
    for k in key_of.values():
        if k not in ids:
            ids[k] = len(ids)
    id_of = {step: ids[k] for step, k in key_of.items()}
    specific_ids = {id_of[step] for step in key_of if step.specific}
    stream = Stream(seq=list(map(id_of.__getitem__, steps)), steps=steps, lengths=lengths,
                    is_specific=[i in specific_ids for i in range(len(ids))])
    params = Params(int(min_support), int(min_length), int(max_length), int(min_specific))
    if total >= LONG_STREAM:
        from .mining_arrays import found_routines
    else:
        from .mining_lists import found_routines
    found: list[Found] = found_routines(stream, params)
    del stream, steps, id_of

    begins = list(accumulate(lengths, initial=0))
    routines = []
    for f in found:
        n = f.length
        occurrences = []
        for position in f.counted:
            si = bisect_right(begins, position) - 1
            off = position - begins[si]
            occurrences.append(Occurrence(si, off, frozen[si][off:off + n]))
        position = 0
        for first, count, rep in zip(f.firsts, f.counts, f.steps):
            si = bisect_right(begins, first) - 1
            off = first - begins[si]
            keys = tuple(key_of[a.step] for a in frozen[si][off:off + n])
            routines.append(Routine(routine_id(keys), keys, rep, count,
                                    tuple(occurrences[position:position + count])))
            position += count
    routines.sort(key=lambda r: (-r.support, -r.length, r.id, repr(r.keys)))  # rotations share an id
    return tuple(routines)
