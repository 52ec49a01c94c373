"""Input attribution: every input event belongs to the temporally nearest
snapshot on its monitor (ties go to the earlier one), and so to that
snapshot's frame (activity-frames §4). An event with no snapshot within the
session gap is left unattributed and reported as a blind spot — never
guessed onto a frame.

The nearest-snapshot search runs per monitor as one vectorized binary
search (numpy) over all events, not one Python bisect per event.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .records import InputEvent, Snapshot
from .segment import SESSION_GAP_MS


@dataclass(frozen=True, slots=True)
class Attribution:
    by_snapshot: dict[int, tuple[InputEvent, ...]]   # snapshot id -> its events
    unattributed: tuple[InputEvent, ...]


def attribute(snapshots: tuple[Snapshot, ...], inputs: tuple[InputEvent, ...]) -> Attribution:
    owners = nearest_snapshot_ids(snapshots, inputs)
    owned: dict[int, list[InputEvent]] = {}
    unattributed = []
    for event, owner in zip(inputs, owners):
        if owner < 0:
            unattributed.append(event)
        else:
            owned.setdefault(owner, []).append(event)
    return Attribution({k: tuple(v) for k, v in owned.items()}, tuple(unattributed))


def nearest_snapshot_ids(snapshots, inputs) -> list[int]:
    """For each input event, the id of the nearest snapshot on its monitor
    within the session gap (ties: the earlier), or -1."""
    result = np.full(len(inputs), -1, dtype=np.int64)
    if not inputs or not snapshots:
        return result.tolist()
    event_monitor = np.fromiter((e.monitor for e in inputs), dtype=np.int64, count=len(inputs))
    event_time = np.fromiter((e.ts_ms for e in inputs), dtype=np.int64, count=len(inputs))
    ordered = sorted(snapshots, key=lambda s: (s.monitor, s.ts_ms, s.id))
    snap_monitor = np.fromiter((s.monitor for s in ordered), dtype=np.int64, count=len(ordered))
    snap_time = np.fromiter((s.ts_ms for s in ordered), dtype=np.int64, count=len(ordered))
    snap_id = np.fromiter((s.id for s in ordered), dtype=np.int64, count=len(ordered))
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
        distance = np.minimum(d_left, d_right)
        result[which] = np.where(distance <= SESSION_GAP_MS, ids[pick], -1)
    return result.tolist()
