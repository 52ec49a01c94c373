"""Input attribution: every input event belongs to the temporally nearest
snapshot on its monitor (ties go to the earlier one), and so to that
snapshot's frame (activity-frames §4). An event with no snapshot within the
session gap is left unattributed and reported as a blind spot — never
guessed onto a frame.

The nearest-snapshot search runs per monitor as one vectorized binary
search (numpy) over all events, not one Python bisect per event.
"""

from __future__ import annotations

from typing import NamedTuple
from operator import attrgetter

import numpy as np

from compiler.records import ID, MONITOR, TS_MS, InputEvent, Snapshot

from .segment import SESSION_GAP_MS

_PLACE = attrgetter("monitor", "ts_ms", "id")


class Attribution(NamedTuple):
    by_snapshot: dict[int, tuple[InputEvent, ...]]   # snapshot id -> its events
    unattributed: tuple[InputEvent, ...]


def attribute(snapshots: tuple[Snapshot, ...], inputs: tuple[InputEvent, ...]) -> Attribution:
    owners, found = nearest_snapshots(snapshots, inputs)
    unattributed = tuple(inputs[i] for i in np.flatnonzero(~found).tolist())
    kept = np.flatnonzero(found)
    if not kept.size:
        return Attribution({}, unattributed)
    # group the attributed events by owner with one stable sort: each
    # owner's events keep their input order
    order = kept[np.argsort(owners[kept], kind="stable")]
    ordered = [inputs[i] for i in order.tolist()]
    sorted_owners = owners[order]
    starts = np.flatnonzero(np.concatenate(([True], sorted_owners[1:] != sorted_owners[:-1])))
    bounds = starts.tolist() + [len(ordered)]
    groups = {owner: tuple(ordered[a:b]) for owner, a, b in
              zip(sorted_owners[starts].tolist(), bounds, bounds[1:])}
    return Attribution(groups, unattributed)


def nearest_snapshots(snapshots, inputs) -> tuple[np.ndarray, np.ndarray]:
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
    for monitor in np.unique(event_monitor):
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
