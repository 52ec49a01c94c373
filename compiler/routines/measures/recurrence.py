"""Recurrence h (activity-frames §7): the share of a corpus's actions that
lie inside occurrences of its routines — in-sample, and on a temporal
holdout where routines mined on the first days are counted on the later
ones (a routine has to have been learnt before it can be used).

Recurrence is a property of a set of routines over a corpus, not of one
routine, which is why it lives apart from the per-routine measures.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

from compiler.records import Action

from ..actions import step_key
from ..canonical import rounded
from ..mining import MAX_LENGTH, MIN_LENGTH, MIN_SPECIFIC, MIN_SUPPORT, KeyFn, Routine, mine
from ..occurrences import SessionIndex

__all__ = ["TRAIN_FRACTION", "Recurrence", "coverage", "holdout_recurrence", "train_days_for"]

# Ratio of the recurrence split: the first ceil(0.7·n) days train (activity-frames §7).
TRAIN_FRACTION = 0.7


def _covered(lengths: Sequence[int], spans: Iterable[tuple[int, int, int]]) -> int:
    """Positions covered by the union of (session, start, length) spans."""
    marks = [bytearray(n) for n in lengths]
    for si, start, n in spans:
        if not 0 <= si < len(marks) or start < 0 or start + n > len(marks[si]):
            raise ValueError(f"occurrence ({si}, {start}, {n}) lies outside the sessions")
        marks[si][start:start + n] = b"\x01" * n
    return sum(m.count(1) for m in marks)


def coverage(sessions: Sequence[Sequence[Action]], routines: Sequence[Routine]) -> float:
    """Recurrence h: the share of all actions in `sessions` that lie inside a
    counted occurrence of one of `routines` (union of covered positions /
    total actions; 0.0 for no actions). The routines' occurrences index into
    these sessions, so pass the sessions they were mined from."""
    lengths = [len(s) for s in sessions]
    total = sum(lengths)
    if total == 0:
        return 0.0
    spans = ((o.session_index, o.start, len(o.actions)) for r in routines for o in r.occurrences)
    return _covered(lengths, spans) / total


@dataclass(frozen=True, slots=True)
class Recurrence:
    """Recurrence h in-sample and on a temporal holdout (activity-frames §7).

    `h_in_sample`: routines mined on every day, coverage of every day.
    `h_out_of_sample`: routines mined on the first `train_days` days only,
    their key sequences counted on the later days, coverage of those days'
    actions — a routine has to have been learnt before it can be used.
    None when there is no later day. `split_day` is the first held-out day."""

    h_in_sample: float
    h_out_of_sample: float | None
    split_day: str | None
    days: int
    train_days: int
    test_days: int
    total_actions: int
    train_actions: int
    test_actions: int
    covered_in_sample: int
    covered_out_of_sample: int
    routines_in_sample: int
    routines_train: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "h_in_sample": rounded(self.h_in_sample),
            "h_out_of_sample": None if self.h_out_of_sample is None
            else rounded(self.h_out_of_sample),
            "split_day": self.split_day,
            "days": self.days,
            "train_days": self.train_days,
            "test_days": self.test_days,
            "total_actions": self.total_actions,
            "train_actions": self.train_actions,
            "test_actions": self.test_actions,
            "covered_in_sample": self.covered_in_sample,
            "covered_out_of_sample": self.covered_out_of_sample,
            "routines_in_sample": self.routines_in_sample,
            "routines_train": self.routines_train,
        }


def train_days_for(days: int, train_fraction: float = TRAIN_FRACTION) -> int:
    """ceil(train_fraction · days), computed exactly (0.7 · 10 is 7, not the
    float 7.000000000000001 whose ceiling is 8), then kept within
    [1, days − 1] so that both sides are non-empty when there are ≥ 2 days."""
    if days <= 0:
        return 0
    if days == 1:
        return 1
    wanted = math.ceil(Fraction(repr(float(train_fraction))) * days)
    return min(max(wanted, 1), days - 1)


def holdout_recurrence(sessions_by_day: Sequence[tuple[str, Sequence[Sequence[Action]]]],
                       train_fraction: float = TRAIN_FRACTION, *,
                       min_support: int = MIN_SUPPORT, min_length: int = MIN_LENGTH,
                       max_length: int = MAX_LENGTH, min_specific: int = MIN_SPECIFIC,
                       key: KeyFn = step_key,
                       select: Callable[[Routine], bool] | None = None) -> Recurrence:
    """In-sample and temporal-holdout recurrence h.

    `sessions_by_day` holds (local date, that day's sessions); days are
    ordered by their date string (ISO dates sort chronologically) and must
    be distinct. The first ceil(train_fraction · n) days train (at least one
    day, and at least one day is held out when n ≥ 2). `select` optionally
    keeps only some mined routines (for example the delegable ones — those
    the gate would crystallize) on both sides."""
    if isinstance(train_fraction, bool) or not isinstance(train_fraction, (int, float)) \
            or not 0.0 < float(train_fraction) < 1.0:
        raise ValueError(f"train_fraction must be in (0, 1), got {train_fraction!r}")
    days = sorted(((str(day), tuple(tuple(s) for s in sess)) for day, sess in sessions_by_day),
                  key=lambda item: item[0])
    labels = [day for day, _ in days]
    if len(set(labels)) != len(labels):
        raise ValueError("sessions_by_day names a day more than once")
    mine_all = partial(mine, min_support=min_support, min_length=min_length, max_length=max_length,
                       min_specific=min_specific, key=key)
    keep = select if select is not None else (lambda routine: True)

    every = [s for _, sess in days for s in sess]
    all_routines = [r for r in mine_all(every) if keep(r)]
    total = sum(len(s) for s in every)
    covered_all = _covered([len(s) for s in every],
                           ((o.session_index, o.start, len(o.actions))
                            for r in all_routines for o in r.occurrences))

    n_train = train_days_for(len(days), train_fraction)
    train = [s for _, sess in days[:n_train] for s in sess]
    test = [s for _, sess in days[n_train:] for s in sess]
    train_routines = [r for r in mine_all(train) if keep(r)] if train else []
    index = SessionIndex(test, key)
    test_total = index.total_actions
    spans = ((si, start, r.length) for r in train_routines for si, start in index.find(r.keys))
    covered_test = _covered([len(s) for s in index.sessions], spans)

    return Recurrence(
        h_in_sample=covered_all / total if total else 0.0,
        h_out_of_sample=(covered_test / test_total if test_total else 0.0)
        if n_train < len(days) else None,
        split_day=labels[n_train] if n_train < len(days) else None,
        days=len(days),
        train_days=n_train,
        test_days=len(days) - n_train,
        total_actions=total,
        train_actions=sum(len(s) for s in train),
        test_actions=test_total,
        covered_in_sample=covered_all,
        covered_out_of_sample=covered_test,
        routines_in_sample=len(all_routines),
        routines_train=len(train_routines),
    )
