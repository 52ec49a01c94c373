"""Counting the occurrences of a given n-gram, exactly as the miner counts
support: non-overlapping, greedy from the left, never across sessions (see
`mining`'s docstring for why that count is well defined).

The miner finds routines; this module answers "how often does this known
key sequence occur in these sessions?" — for a routine replayed on held-out
days (recurrence) or its first steps counted as begun runs (observed
outcomes). It lives apart from the miner because it shares only the
counting rule with it, not the level-wise machinery.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from compiler.records import Action, Step

from .actions import step_key
from .mining import KeyFn, Occurrence

__all__ = ["SessionIndex", "count_occurrences"]


class SessionIndex:
    """Sessions with their step keys computed once, for counting many given
    n-grams (holdout recurrence, completion counts) without re-keying.

    Where each short key prefix starts is tabulated on first use per prefix
    length — a cache that never changes an answer; the index is otherwise
    read-only."""

    __slots__ = ("sessions", "keys", "_tables")
    PREFIX = 3

    def __init__(self, sessions: Sequence[Sequence[Action]], key: KeyFn = step_key) -> None:
        self.sessions = tuple(tuple(s) for s in sessions)
        # keyed once per distinct step, as the miner does: the keys of a long
        # window then share a few thousand tuples instead of one per action
        key_of: dict[Step, Hashable] = {}
        for session in self.sessions:
            for action in session:
                if action.step not in key_of:
                    key_of[action.step] = key(action.step)
        self.keys = tuple(tuple(key_of[a.step] for a in s) for s in self.sessions)
        self._tables: dict[int, dict[tuple[Hashable, ...], list[tuple[int, int]]]] = {}

    @property
    def total_actions(self) -> int:
        return sum(len(s) for s in self.sessions)

    def _table(self, width: int) -> dict[tuple[Hashable, ...], list[tuple[int, int]]]:
        table = self._tables.get(width)
        if table is None:
            table = {}
            for si, ks in enumerate(self.keys):
                for off in range(len(ks) - width + 1):
                    table.setdefault(ks[off:off + width], []).append((si, off))
            self._tables[width] = table
        return table

    def find(self, keys: Sequence[Hashable]) -> list[tuple[int, int]]:
        """(session, start) of the non-overlapping occurrences of `keys`,
        counted greedily from the left within each session."""
        keys = tuple(keys)
        n = len(keys)
        if n == 0:
            raise ValueError("keys must not be empty")
        found: list[tuple[int, int]] = []
        current, free = -1, 0
        for si, off in self._table(min(n, self.PREFIX)).get(keys[:self.PREFIX], ()):
            if si != current:
                current, free = si, 0
            if off < free:
                continue
            if n <= self.PREFIX or self.keys[si][off:off + n] == keys:
                found.append((si, off))
                free = off + n
        return found

    def occurrences(self, keys: Sequence[Hashable]) -> tuple[Occurrence, ...]:
        n = len(tuple(keys))
        return tuple(Occurrence(si, off, self.sessions[si][off:off + n])
                     for si, off in self.find(keys))


def count_occurrences(sessions: Sequence[Sequence[Action]], keys: Sequence[Hashable],
                      key: KeyFn = step_key) -> tuple[Occurrence, ...]:
    """The non-overlapping occurrences of the n-gram `keys` in `sessions`,
    counted exactly as `mine` counts support (greedy from the left, never
    across sessions). Used to replay mined routines on held-out days."""
    return SessionIndex(sessions, key).occurrences(keys)
