"""What a running writer may still commit after a forget.

The capture daemon forgets on its own writer thread (`StoreWriter.perform`),
but its producers do not stop for it: a click waiting on its hit test, a
text burst waiting for its field, a snapshot whose late accessibility answer
completes it — each was built before the forget and is handed to the writer
after it. Committed as built, such a write would bring a forgotten row back
(a burst's rewrite under its old id, a snapshot's completion) or name a row
that is gone (a foreign-key error that used to drop the row, and with it the
input typed after the forget).

A `Fence` is the forget's answer for those writes, applied by the writer to
every op it commits afterwards: a write of a row the forget removed, or of a
row that lies inside the forgotten window, is dropped; a reference to a row
that went is cleared (the daemon re-links input to the snapshot it writes
after the forget). Images are submitted with every row that shows them, so
one made inside the window is dropped and one made later stands. Pure: the writer holds the fence and asks it per op.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .records import (
    BlobRow,
    ClickEvidenceRow,
    ElementRow,
    InputEventRow,
    Replace,
    SnapshotRow,
    TreeRow,
)


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What one forget removed: the window [since, cut) and the ids of the
    capture rows that went."""

    since_ms: int
    cut_ms: int
    snapshots: frozenset[int] = frozenset()
    inputs: frozenset[int] = frozenset()
    trees: frozenset[int] = frozenset()
    elements: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Fence:
    """Every forget of this writer's run, oldest first."""

    forgets: tuple[Forgotten, ...] = ()

    def add(self, forgotten: Forgotten) -> Fence:
        return Fence((*self.forgets, forgotten))

    def admit(self, op: object) -> object | None:
        """`op` as it may be committed now, or None when it must not be."""
        if isinstance(op, Replace):
            row = self.admit(op.row)
            return None if row is None else Replace(row)   # type: ignore[arg-type]
        for forgotten in self.forgets:
            admitted = _admit(forgotten, op)
            if admitted is None:
                return None
            op = admitted
        return op


def _inside(forgotten: Forgotten, start_ms: int, end_ms: int) -> bool:
    return start_ms < forgotten.cut_ms and end_ms >= forgotten.since_ms


def _admit(f: Forgotten, op: object) -> object | None:
    if isinstance(op, SnapshotRow):
        if op.id in f.snapshots or _inside(f, op.ts_ms, op.ts_ms):
            return None
        if op.tree_id in f.trees:
            op = replace(op, tree_id=None)
        return op
    if isinstance(op, InputEventRow):
        if op.id in f.inputs or _inside(f, op.ts_ms, op.end_ms):
            return None
        if op.snapshot_id in f.snapshots:
            op = replace(op, snapshot_id=None)
        if op.element_id in f.elements:
            op = replace(op, element_id=None)
        return op
    if isinstance(op, ClickEvidenceRow):
        return None if op.input_id in f.inputs else op
    if isinstance(op, TreeRow):
        return None if op.id in f.trees or _inside(f, op.ts_ms, op.ts_ms) else op
    if isinstance(op, ElementRow):
        return None if op.id in f.elements or op.tree_id in f.trees else op
    if isinstance(op, BlobRow):
        return None if _inside(f, op.created_ms, op.created_ms) else op
    return op
