"""Input attribution: each input event belongs to a snapshot, and so to that
snapshot's frame.

Where the capture recorded which window received the event (`snapshot_id`,
store v3 and linked foreign layouts), the event is the receiving window's:
it belongs to that snapshot when the snapshot is part of the frame stream,
else (a window that had no snapshot yet got the input, and was snapshotted
for it without focus) to the nearest snapshot of the same application on the
event's monitor within the session gap; failing that it is unattributed.
Where the source does not say (older stores, layouts without a link), the
event goes to the temporally nearest snapshot on its monitor (ties go to the
earlier one: activity-frames §4), and the blind spots say how many were
placed so. An event with no snapshot within the session gap is left
unattributed and reported as a blind spot — never guessed onto a frame.

The nearest-snapshot search runs per monitor as one vectorized binary
search (numpy) over all events, not one Python bisect per event.
"""

from __future__ import annotations

from operator import attrgetter
from typing import NamedTuple

import numpy as np

from compiler.records import ID, MONITOR, TS_MS, InputEvent, Snapshot

from .segment import SESSION_GAP_MS

_PLACE = attrgetter("monitor", "ts_ms", "id")


class Attribution(NamedTuple):
    by_snapshot: dict[int, tuple[InputEvent, ...]]   # snapshot id -> its events
    unattributed: tuple[InputEvent, ...]
    by_nearest: int = 0        # events the source did not link to a window


def anchor_only(snapshot: Snapshot) -> bool:
    """A snapshot taken only because a window without one got input while
    another had focus: it names the receiving window for input rows, earns
    no dwell and opens no frame."""
    return snapshot.trigger == "input" and not snapshot.focused


def attribute(snapshots: tuple[Snapshot, ...], inputs: tuple[InputEvent, ...]) -> Attribution:
    """`snapshots` is the frame stream (anchor-only snapshots excluded);
    `anchors` are every snapshot by id, for the links events carry."""
    return attribute_linked(snapshots, {s.id: s for s in snapshots}, inputs)


def attribute_linked(snapshots: tuple[Snapshot, ...], by_id: dict[int, Snapshot],
                     inputs: tuple[InputEvent, ...]) -> Attribution:
    """Attribution over the frame stream `snapshots`, with `by_id` holding
    every snapshot an event may link to (anchor-only ones included)."""
    owners, found = nearest_snapshots(snapshots, inputs)
    linked = [i for i, event in enumerate(inputs) if event.snapshot_id is not None]
    if linked:
        _follow_links(snapshots, by_id, inputs, linked, owners, found)
    unattributed = tuple(inputs[i] for i in np.flatnonzero(~found).tolist())
    by_nearest = len(inputs) - len(linked)
    kept = np.flatnonzero(found)
    if not kept.size:
        return Attribution({}, unattributed, by_nearest)
    # group the attributed events by owner with one stable sort: each
    # owner's events keep their input order
    order = kept[np.argsort(owners[kept], kind="stable")]
    ordered = [inputs[i] for i in order.tolist()]
    sorted_owners = owners[order]
    starts = np.flatnonzero(np.concatenate(([True], sorted_owners[1:] != sorted_owners[:-1])))
    bounds = starts.tolist() + [len(ordered)]
    groups = {owner: tuple(ordered[a:b]) for owner, a, b in
              zip(sorted_owners[starts].tolist(), bounds, bounds[1:])}
    return Attribution(groups, unattributed, by_nearest)


def _follow_links(snapshots: tuple[Snapshot, ...], by_id: dict[int, Snapshot], inputs: tuple[InputEvent, ...],
                  linked: list[int], owners: np.ndarray, found: np.ndarray) -> None:
    """Re-own linked events (in place): the receiving window's snapshot when
    it is in the frame stream, else the nearest snapshot of its application
    on the event's monitor within the session gap, else none."""
    in_stream = {s.id for s in snapshots}
    by_place: dict[tuple[int, str], list[Snapshot]] = {}
    for snapshot in snapshots:
        by_place.setdefault((snapshot.monitor, snapshot.app), []).append(snapshot)
    for position in linked:
        event = inputs[position]
        snapshot_id = event.snapshot_id
        target = by_id.get(snapshot_id) if snapshot_id is not None else None
        if target is None:           # linked to a snapshot outside the window: keep the nearest rule
            continue
        if target.id in in_stream:
            owners[position], found[position] = target.id, True
            continue
        candidates = by_place.get((event.monitor, target.app), ())
        best = min(candidates, key=lambda s: (abs(s.ts_ms - event.ts_ms), s.ts_ms, s.id), default=None)
        if best is not None and abs(best.ts_ms - event.ts_ms) <= SESSION_GAP_MS:
            owners[position], found[position] = best.id, True
        else:
            found[position] = False


def nearest_snapshots(snapshots: tuple[Snapshot, ...],
                      inputs: tuple[InputEvent, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Two arrays aligned with `inputs`: the id of each event's nearest
    snapshot on its monitor (ties: the earlier), and whether one was found
    within the session gap (where not, the id is meaningless)."""
    owners = np.zeros(len(inputs), dtype=np.int64)
    found = np.zeros(len(inputs), dtype=bool)
    if not inputs or not snapshots:
        return owners, found
    event_monitor = np.fromiter(map(MONITOR, inputs), dtype=np.int64, count=len(inputs))
    event_time = np.fromiter(map(TS_MS, inputs), dtype=np.int64, count=len(inputs))
    ordered = sorted(snapshots, key=_PLACE)
    snap_monitor = np.fromiter(map(MONITOR, ordered), dtype=np.int64, count=len(ordered))
    snap_time = np.fromiter(map(TS_MS, ordered), dtype=np.int64, count=len(ordered))
    snap_id = np.fromiter(map(ID, ordered), dtype=np.int64, count=len(ordered))
    for monitor in sorted(set(event_monitor.tolist())):   # np.unique would load numpy.ma
        lo, hi = np.searchsorted(snap_monitor, [monitor, monitor + 1])
        if lo == hi:
            continue
        times, ids = snap_time[lo:hi], snap_id[lo:hi]
        which = event_monitor == monitor
        ts = event_time[which]
        right = np.searchsorted(times, ts, side="left")           # first snapshot at or after
        left = np.clip(right - 1, 0, len(times) - 1)
        right = np.clip(right, 0, len(times) - 1)
        d_left = np.abs(ts - times[left])
        d_right = np.abs(times[right] - ts)
        pick = np.where(d_right < d_left, right, left)             # strict: ties keep the earlier
        owners[which] = ids[pick]
        found[which] = np.minimum(d_left, d_right) <= SESSION_GAP_MS
    return owners, found
