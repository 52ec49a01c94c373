"""Write planned days into a Phantom store through the single writer.

Ids come from the writer's allocator in a fixed order (blobs, trees and
their elements, snapshots, input events, blind spots — each in time order),
rows go in as `RowBatch` ops, and each day is committed by one `flush()`,
so the file's bytes depend only on the plan (`StoreWriter` also commits
after every `MAX_BATCH` queued ops — a count, not a time). A live-like sink
(`live_seed` given) also writes what only the live daemon writes
(`synth.live_like`): each input's snapshot, windows' ids, clicks' targets
and visual evidence."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from core.store.records import (
    BlindSpotRow,
    BlobRow,
    ClickEvidenceRow,
    ElementRow,
    InputEventRow,
    Row,
    RowBatch,
    SetMeta,
    SnapshotRow,
    TreeRow,
)
from core.store.writer import StoreWriter

from . import live_like
from .calendar import utc_offset_min
from .records import DayPlan
from .rng import derive_rng

if TYPE_CHECKING:
    from apsw import SQLiteValues

BATCH_ROWS = 20_000


class PhantomSink:
    """Appends days to a Phantom store; `close()` commits and checkpoints."""

    def __init__(self, path: Path, live_seed: int | None = None) -> None:
        self.writer = StoreWriter(path, commit_interval=None)
        self.live_seed = live_seed

    def _batches(self, row_type: type[Row], rows: Sequence[SQLiteValues]) -> None:
        for start in range(0, len(rows), BATCH_ROWS):
            self.writer.submit(RowBatch(row_type, tuple(rows[start:start + BATCH_ROWS])))

    def write_day(self, plan: DayPlan) -> None:
        ids = self.writer.ids
        tz = plan.day.tz
        live = self.live_seed is not None
        blob_keys: list[str] = []
        for blob in plan.blobs:
            digest = hashlib.sha256(blob.data).hexdigest()
            blob_keys.append(digest)
            if live and blob.kind == "click_crop":
                continue   # a live-like click has its own three crops
            self.writer.submit(BlobRow(digest, blob.kind, blob.media_type, blob.width, blob.height, blob.data,
                                       blob.created_ms))
        tree_ids: list[int] = []
        element_base: list[int] = []
        trees: list[SQLiteValues] = []
        elements: list[SQLiteValues] = []
        for planned in plan.trees:
            tree_id = ids.next("a11y_trees")
            tree_ids.append(tree_id)
            nodes = planned.tree.nodes
            trees.append((tree_id, planned.ts_ms, planned.tree.app, len(nodes), planned.tree.truncated,
                          planned.walk_ms))
            node_ids = [ids.next("elements") for _ in nodes]
            element_base.append(node_ids[0])
            for node, element_id in zip(nodes, node_ids):
                elements.append((element_id, tree_id, node_ids[node.parent] if node.parent >= 0 else None,
                                 node.depth, node.ordinal, node.role, node.name, node.description, node.labelled_by,
                                 node.states, node.x, node.y, node.w, node.h, node.path))
        self._batches(TreeRow, trees)
        self._batches(ElementRow, elements)
        offsets: dict[int, int] = {}

        def offset(ts: int) -> int:
            hour = ts // 900_000  # offsets change on quarter hours at the finest
            if hour not in offsets:
                offsets[hour] = utc_offset_min(ts, tz)
            return offsets[hour]

        snapshots = []
        snapshot_ids: list[int] = []
        for snap in plan.snapshots:
            snapshot_ids.append(ids.next("snapshots"))
            snapshots.append((snapshot_ids[-1], snap.ts_ms, offset(snap.ts_ms), tz, snap.monitor, snap.trigger,
                              snap.app.app, snap.app.wm_class, snap.pid, snap.app.executable, snap.title, snap.url,
                              int(snap.idle), int(snap.focused),
                              blob_keys[snap.screenshot] if snap.screenshot is not None else None,
                              tree_ids[snap.tree] if snap.tree is not None else None)
                             + ((live_like.window_id(snap.window),) if live else ()))
        self._batches(SnapshotRow, snapshots)
        if live:
            self._write_live_inputs(plan, snapshot_ids, element_base)
        else:
            self._write_inputs(plan, blob_keys, element_base)
        spots = [(ids.next("blind_spots"), spot.start_ms, spot.end_ms, offset(spot.start_ms), tz, spot.monitor,
                  spot.kind, spot.reason) for spot in plan.blind_spots]
        if spots:
            self._batches(BlindSpotRow, spots)
        # One transaction per day, committed by the writer thread while the
        # next day is planned: the commit point is the flush marker's place
        # in the queue, not a moment in time, so the bytes stay the same.
        self.writer.flush(timeout=0)
        self._check()

    def _write_inputs(self, plan: DayPlan, blob_keys: list[str], element_base: list[int]) -> None:
        ids = self.writer.ids
        inputs = []
        for event in plan.inputs:
            element = None
            if event.element is not None:
                tree_index, node_index = event.element
                element = element_base[tree_index] + node_index
            inputs.append((ids.next("input_events"), event.ts_ms, event.end_ms, event.monitor, event.kind, event.count,
                           event.key, event.button, event.x, event.y, element, event.resolution,
                           blob_keys[event.crop] if event.crop is not None else None, None, None))
        self._batches(InputEventRow, inputs)

    def _write_live_inputs(self, plan: DayPlan, snapshot_ids: list[int], element_base: list[int]) -> None:
        """Input rows as the daemon writes them: linked to their window's
        snapshot, a click with its target inline and its crops (blobs
        before the rows naming them, evidence after its input row)."""
        assert self.live_seed is not None
        rng = derive_rng(self.live_seed, "live", plan.day.index)
        ids = self.writer.ids
        links = live_like.snapshot_links(plan, snapshot_ids)
        inputs = []
        crops: list[SQLiteValues] = []
        evidence: list[SQLiteValues] = []
        for event, link in zip(plan.inputs, links):
            element = None
            if event.element is not None:
                tree_index, node_index = event.element
                element = element_base[tree_index] + node_index
            input_id = ids.next("input_events")
            crop = None
            if event.kind == "click":
                blobs, rows, crop = live_like.click_evidence(rng, event, input_id)
                crops += blobs
                evidence += rows
            inputs.append((input_id, event.ts_ms, event.end_ms, event.monitor, event.kind, event.count,
                           event.key, event.button, event.x, event.y, element, event.resolution, crop, None, None,
                           link, *live_like.hit_target(plan, event)))
        if crops:
            self._batches(BlobRow, crops)
        self._batches(InputEventRow, inputs)
        if evidence:
            self._batches(ClickEvidenceRow, evidence)

    def _commit(self) -> None:
        if not self.writer.flush(timeout=None):
            raise RuntimeError("the store writer did not commit")
        self._check()

    def _check(self) -> None:
        stats = self.writer.stats()
        if stats.dropped_ops:
            raise RuntimeError(f"the store refused synthetic rows: {stats.last_error}")

    def write_manifest(self, text: str) -> None:
        self.writer.submit(SetMeta("synth_manifest", text))
        self._commit()

    def close(self) -> None:
        self.writer.flush(timeout=None)
        self.writer.close(timeout=3600)
