"""One entry per recurring routine: variants folded into the routine they hold.

The miner keeps every maximal n-gram, and `cycles.distinct` one per loop;
what is left can still name one piece of work many times. A planted 4-step
routine came back as 12 (issue 25): the routine itself, and the routine
with an unresolved click before it, after it, or both, each occurring often
enough to be maximal in its own right — and a chain of editor noise, the
routine and a switch away, seen three times. A person sees one routine
there, done with something else around it now and then.

So a listed routine A is a *variant* of a listed routine B when B's keys
are a contiguous slice of A's (A holds B) and what A adds on each side of B
is nothing, padding — only unresolved steps (clicks on nothing nameable,
bare keys: `Step.specific` false) — or another task: a side holding a switch,
or a step in another application than B's step next to it. Both survived
`distinct`, so B also occurs outside A, and (by maximality) more often.

A side that continues B in its own application with a nameable step is
not folded that way: "fill the form, then Submit" is not a variant of "fill
the form". The other way round, B is a variant of A when most of B's
occurrences have their own part — B without a foldable side (MIN_OWN) —
inside one of A's occurrences: the routine done, or recorded,
without some of its steps now and then (a click captured unnamed once
leaves the rest of the routine one occurrence more frequent than the
whole), or a piece of it with another task chained on. A fragment that
mostly occurs alone stays its own routine.

Each variant goes to one routine: among those it is a variant of, the most
frequent, then the longest, then the smallest id — and from there on to that
routine's own target, so every variant ends at a routine that is a variant
of nothing. Those are the entries; each carries its variants and how often
they occurred. The order of the input (the miner's) is kept.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from compiler.records import Step

from .mining import Routine

__all__ = ["MIN_OWN", "Folded", "fold"]

# The fewest steps of a routine's own part that make it a piece of another's
# work. One: a live run (issue 25) listed "Submit, then a click and typing in
# another application" beside the form routine whose last step that Submit
# was — the other task, always right after the routine, is no routine of its
# own (maximality absorbed it into the chain), and the chain's plan could
# pass and be crystallized. Its own part must still lie inside the other
# routine's occurrences, not merely share its keys.
MIN_OWN = 1


@dataclass(frozen=True, slots=True)
class Folded:
    """A routine and the listed routines folded into it (mined order)."""

    routine: Routine
    variants: tuple[Routine, ...] = ()


def _slices(outer: tuple[Hashable, ...], inner: tuple[Hashable, ...]) -> list[int]:
    """Where `inner` starts inside `outer` (a proper, contiguous slice)."""
    n = len(inner)
    if not 0 < n < len(outer):
        return []
    return [i for i in range(len(outer) - n + 1) if outer[i:i + n] == inner]


def _foldable(side: Sequence[Step], edge_app: str) -> bool:
    """Nothing, padding, or another task (module docstring)."""
    return (all(not step.specific for step in side)
            or any(step.kind == "switch" or step.app != edge_app for step in side))


def _is_variant(a: Routine, b: Routine) -> bool:
    first, last = b.steps[0].app, b.steps[-1].app
    return any(_foldable(a.steps[:i], first) and _foldable(a.steps[i + b.length:], last)
               for i in _slices(a.keys, b.keys))


def _own_parts(a: Routine) -> list[tuple[int, int]]:
    """The stretches [i, j) of `a` that could be another routine's work: at
    least MIN_OWN steps, what lies before and after them foldable. For each
    i only the shortest such j (a shorter stretch fits inside more)."""
    parts = []
    for i in range(a.length):
        if not _foldable(a.steps[:i], a.steps[i].app):
            continue
        for j in range(i + MIN_OWN, a.length + 1):
            if _foldable(a.steps[j:], a.steps[j - 1].app):
                parts.append((i, j))
                break
    return parts


def _mostly_inside(a: Routine, parts: list[tuple[int, int]], b: Routine) -> bool:
    """More than half of `a`'s occurrences have an own part lying inside one
    of `b`'s occurrences (b's counted occurrences do not overlap, so only the
    last one starting at or before a stretch can hold it)."""
    starts: dict[int, list[int]] = {}
    for o in b.occurrences:
        starts.setdefault(o.session_index, []).append(o.start)
    inside = 0
    for o in a.occurrences:
        found = starts.get(o.session_index)
        if found is None:
            continue
        for i, j in parts:
            at = bisect_right(found, o.start + i) - 1
            if at >= 0 and o.start + j <= found[at] + b.length:
                inside += 1
                break
    return 2 * inside > a.support


def _targets(a: Routine, routines: Sequence[Routine]) -> list[int]:
    present = set(a.keys)
    parts = _own_parts(a)
    found = []
    for index, b in enumerate(routines):
        if b is a:
            continue
        if b.length < a.length and b.keys[0] in present and _is_variant(a, b):
            found.append(index)            # a pads b or chains onto it
        elif parts and not _is_variant(b, a) and _mostly_inside(a, parts, b):
            found.append(index)            # a is mostly b's work, or a piece of it
    return found


def fold(routines: Sequence[Routine]) -> tuple[Folded, ...]:
    """The routines that are no variant of another, each with its variants."""
    rank = {id(r): (-r.support, -r.length, r.id, repr(r.keys)) for r in routines}
    target: dict[int, int] = {}
    for index, routine in enumerate(routines):
        candidates = _targets(routine, routines)
        if candidates:
            target[index] = min(candidates, key=lambda i: rank[id(routines[i])])

    def root(index: int) -> int:
        seen = [index]
        while index in target:
            index = target[index]
            if index in seen:     # a loop of targets: its best-ranked routine is the entry
                return min(seen[seen.index(index):], key=lambda i: rank[id(routines[i])])
            seen.append(index)
        return index

    roots = {index: root(index) for index in range(len(routines))}
    variants: dict[int, list[Routine]] = {}
    for index, routine in enumerate(routines):
        if roots[index] != index:
            variants.setdefault(roots[index], []).append(routine)
    return tuple(Folded(routine, tuple(variants.get(index, ())))
                 for index, routine in enumerate(routines) if roots[index] == index)
