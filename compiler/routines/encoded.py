"""What the miner's two level-wise versions take and give back.

`mining.mine` integer-codes the step keys once and lays the sessions end to
end (`Stream`); a version finds, per length, the routines and the starts
that count (`Found`). The plain-Python version (`mining_lists`) serves a
day, the numpy one (`mining_arrays`) long windows; both give the same
`Found` records, so the routines built from them are the same bytes.
NamedTuples, not dataclasses: a day's compile imports this module, and a
NamedTuple's class costs a fraction of a dataclass's to create."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from compiler.records import Step


class Stream(NamedTuple):
    """All sessions end to end: per position its key id and full step, per
    session its length, per key id whether it is specific."""

    seq: Sequence[int]
    steps: Sequence[Step]
    lengths: Sequence[int]
    is_specific: Sequence[bool]


class Params(NamedTuple):
    min_support: int
    min_length: int
    max_length: int
    min_specific: int


class Found(NamedTuple):
    """Routines of one length. Per routine: its first start (any occurrence,
    counted or not), its support, and its representative steps; `counted`
    holds the counted starts of all of them, grouped per routine in the
    order of `firsts`, ascending within a routine."""

    length: int
    firsts: list[int]
    counts: list[int]
    counted: list[int]
    steps: list[tuple[Step, ...]]
