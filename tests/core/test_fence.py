"""The writer's fence after a forget (pure): what was built before the
forget and committed after it never brings a forgotten row back nor names
one that went."""

from __future__ import annotations

from core.store import ClickEvidenceRow, ElementRow, InputEventRow, Replace, SetMeta, SnapshotRow
from core.store.fence import Fence, Forgotten

FENCE = Fence().add(Forgotten(1_000, 2_000, snapshots=frozenset({7}), inputs=frozenset({30}),
                              trees=frozenset({4}), elements=frozenset({50})))


def snapshot(id: int, ts: int, tree_id: int | None = None) -> SnapshotRow:
    return SnapshotRow(id, ts, 0, "UTC", 0, "focus", "app", "App", None, None, "t", None, 0, 1, None, tree_id)


def burst(id: int, ts: int, end: int, snapshot_id: int | None, element_id: int | None = None) -> InputEventRow:
    return InputEventRow(id, ts, end, 0, "text", 3, element_id=element_id, snapshot_id=snapshot_id)


def test_a_rewrite_of_a_forgotten_row_or_a_row_inside_the_window_is_dropped():
    assert FENCE.admit(Replace(burst(30, 2_500, 2_600, None))) is None      # its id went
    assert FENCE.admit(burst(31, 1_900, 2_100, None)) is None              # runs into the window
    assert FENCE.admit(Replace(snapshot(7, 2_500))) is None                 # a late completion
    assert FENCE.admit(snapshot(8, 1_500)) is None
    assert FENCE.admit(ClickEvidenceRow(30, "target", "ab", 0, 0, 1, 1, 0.5, 0.5)) is None
    assert FENCE.admit(ElementRow(60, 4, None, 0, 0, "push button", "x", "", None, "", None, None,
                                  None, None, "/0")) is None


def test_a_row_after_the_window_keeps_itself_but_not_its_references_to_rows_that_went():
    admitted = FENCE.admit(Replace(burst(32, 2_000, 2_400, 7, 50)))
    assert admitted == Replace(burst(32, 2_000, 2_400, None, None))
    assert FENCE.admit(snapshot(9, 2_000, tree_id=4)) == snapshot(9, 2_000)
    kept = burst(33, 2_100, 2_200, 9, 51)
    assert FENCE.admit(kept) is kept
    assert FENCE.admit(SetMeta("k", "v")) == SetMeta("k", "v")
    assert Fence().admit(burst(30, 1_500, 1_600, 7)) == burst(30, 1_500, 1_600, 7)
