"""One routine per loop: rotations and enclosed sub-patterns reported once.

The miner reports every maximal frequent n-gram, and a loop the user went
round four times holds several: ABCD ×4 is also BCDA ×3, CDAB ×3 and DABC ×3,
and a shorter pattern that only ever happens inside the loop can survive
maximality with a support of its own. A person sees one routine there.

`distinct` keeps, of the routines sharing an id (the rotations of one
cycle, see `ids`), the rotation whose occurrences most often start where
work naturally starts — at the beginning of a session, on a switch to the
application, or just after input in another application — then the most
frequent, then the canonical one. It then drops a routine whose every
counted occurrence lies inside stretches a longer reported routine's cycle
covers (the union of all its rotations' occurrences): it never happens
outside that routine. The order of the miner (−support, −length, id) is kept.

`find` answers "the routine with this id in these sessions" for a window
other than the one the id was seen in: there the routine may be mined as is,
or — absorbed by a longer routine of equal support — only as a slice of one
(every frequent n-gram is a slice of some maximal one), and is then counted
by the miner's own rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence

from compiler.records import Action, Step

from .actions import step_key
from .ids import canonical_rotation, routine_id
from .mining import MIN_LENGTH, MIN_SUPPORT, KeyFn, Routine
from .occurrences import SessionIndex

__all__ = ["distinct", "find", "natural_starts"]

Sessions = Sequence[Sequence[Action]]


def natural_starts(routine: Routine, sessions: Sessions) -> int:
    """How many of a routine's occurrences start a session, start with a
    switch step, or follow input made in another application."""
    count = 0
    for occurrence in routine.occurrences:
        first = occurrence.actions[0].step
        if occurrence.start == 0 or first.kind == "switch":
            count += 1
            continue
        previous = sessions[occurrence.session_index][occurrence.start - 1].step
        count += previous.app != first.app
    return count


def _choice(members: list[Routine], sessions: Sessions) -> Routine:
    canonical = canonical_rotation(members[0].keys)

    def offset(routine: Routine) -> int:
        doubled = routine.keys + routine.keys
        return next(i for i in range(routine.length) if doubled[i:i + routine.length] == canonical)

    return min(members, key=lambda r: (-natural_starts(r, sessions), -r.support, offset(r)))


def _covered(members: list[Routine]) -> set[tuple[int, int]]:
    return {(o.session_index, o.start + i) for r in members for o in r.occurrences
            for i in range(r.length)}


def distinct(routines: Sequence[Routine], sessions: Sessions) -> tuple[Routine, ...]:
    """The routines a person should see (module docstring), in mined order."""
    classes: dict[str, list[Routine]] = {}
    for routine in routines:
        classes.setdefault(routine.id, []).append(routine)
    chosen = {identity: _choice(members, sessions) for identity, members in classes.items()}
    kept: list[tuple[int, set[tuple[int, int]]]] = []   # (length, covered) of kept cycles
    keep: set[str] = set()
    for identity in sorted(chosen, key=lambda i: (-chosen[i].length, -chosen[i].support, i)):
        routine = chosen[identity]
        inside = any(length > routine.length and all(
            all((o.session_index, o.start + i) in covered for i in range(routine.length))
            for o in routine.occurrences) for length, covered in kept)
        if inside:
            continue
        keep.add(identity)
        kept.append((routine.length, _covered(classes[identity])))
    return tuple(r for r in routines if r.id in keep and chosen[r.id] is r)


def find(wanted: str, routines: Sequence[Routine], sessions: Sessions,
         key: KeyFn = step_key) -> Routine | None:
    """The routine with id `wanted` (`r-` already stripped) in `sessions`,
    whose mined routines are `routines`; None when it does not recur there."""
    members = [r for r in routines if r.id == wanted]
    if members:
        return _choice(members, sessions)
    index = SessionIndex(sessions, key)
    seen: set[tuple[Hashable, ...]] = set()
    for routine in routines:
        for start in range(routine.length):
            for end in range(start + MIN_LENGTH, routine.length + 1):
                keys = routine.keys[start:end]
                if keys in seen:
                    continue
                seen.add(keys)
                if routine_id(keys) == wanted:
                    counted = [_counted(rotation, index) for rotation in _rotations(keys)]
                    found = [r for r in counted if r is not None]
                    return _choice(found, sessions) if found else None
    return None


def _rotations(keys: tuple[Hashable, ...]) -> list[tuple[Hashable, ...]]:
    return list(dict.fromkeys(keys[i:] + keys[:i] for i in range(len(keys))))


def _counted(keys: tuple[Hashable, ...], index: SessionIndex) -> Routine | None:
    """A routine for `keys` counted by the miner's rule, its steps the most
    common full step at each position (ties: the smallest by its fields)."""
    occurrences = index.occurrences(keys)
    if len(occurrences) < MIN_SUPPORT:
        return None
    steps = tuple(_most_common([o.actions[i].step for o in occurrences]) for i in range(len(keys)))
    return Routine(routine_id(keys), keys, steps, len(occurrences), occurrences)


def _most_common(steps: list[Step]) -> Step:
    counts = Counter(steps)
    return min(counts, key=lambda s: (-counts[s], (s.kind, s.app, s.target, s.role, s.label,
                                                   s.specific)))
