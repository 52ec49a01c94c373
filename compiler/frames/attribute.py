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
_APP = attrgetter("app")


class _Stream(NamedTuple):
    """The frame stream sorted by (monitor, time, id), as columns; the
    events' monitors and times. Built once for both searches."""

    ordered: list[Snapshot]
    monitor: np.ndarray
    time: np.ndarray
    id: np.ndarray
    event_monitor: np.ndarray
    event_time: np.ndarray


def _stream(snapshots: tuple[Snapshot, ...], inputs: tuple[InputEvent, ...]) -> _Stream:
    ordered = sorted(snapshots, key=_PLACE)
    count = len(ordered)
    return _Stream(ordered, np.fromiter(map(MONITOR, ordered), dtype=np.int64, count=count),
                   np.fromiter(map(TS_MS, ordered), dtype=np.int64, count=count),
                   np.fromiter(map(ID, ordered), dtype=np.int64, count=count),
                   np.fromiter(map(MONITOR, inputs), dtype=np.int64, count=len(inputs)),
                   np.fromiter(map(TS_MS, inputs), dtype=np.int64, count=len(inputs)))


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
    stream = _stream(snapshots, inputs) if inputs and snapshots else None
    owners, found = nearest_snapshots(snapshots, inputs, stream)
    linked = [i for i, event in enumerate(inputs) if event.snapshot_id is not None]
    if linked:
        _follow_links(snapshots, by_id, inputs, linked, owners, found)
        if stream is not None:
            _in_time(stream, np.array(linked, dtype=np.int64), owners, found)
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


FOCUS_LAG_MS = 2_000   # a focus click lands before the snapshot its focus change makes


def _in_time(stream: _Stream, linked: np.ndarray, owners: np.ndarray, found: np.ndarray) -> None:
    """Re-own linked events (in place) to the frame holding them in time as
    well as window. A link names the receiving window's latest snapshot the
    daemon had written, which can be one from an earlier visit to that
    window: then the event belongs to the window's snapshot showing at its
    instant (the latest at or before it on its monitor, when that is the
    same app), or — a click that gave the window focus — to the snapshot
    of that app taken within FOCUS_LAG_MS after it."""
    linked = linked[found[linked]]
    if not linked.size:
        return
    ordered, snap_monitor, snap_time, snap_id = stream.ordered, stream.monitor, stream.time, stream.id
    apps: dict[str, int] = {}
    for app in map(_APP, ordered):
        apps.setdefault(app, len(apps))
    code = np.fromiter(map(apps.__getitem__, map(_APP, ordered)), dtype=np.int64, count=len(ordered))
    by_id_order = np.argsort(snap_id, kind="stable")
    owner = owners[linked]
    at = by_id_order[np.searchsorted(snap_id[by_id_order], owner)]
    owner_code, owner_time = code[at], snap_time[at]
    monitor, ts = stream.event_monitor[linked], stream.event_time[linked]
    lo = np.searchsorted(snap_monitor, monitor, side="left")
    hi = np.searchsorted(snap_monitor, monitor, side="right")
    pos = _positions(snap_monitor, snap_time, monitor, ts)   # first snapshot after the event
    cur, nxt = np.clip(pos - 1, 0, len(ordered) - 1), np.clip(pos, 0, len(ordered) - 1)
    same_now = (pos - 1 >= lo) & (code[cur] == owner_code)
    use_current = same_now & (snap_id[cur] != owner)
    use_next = (~same_now & (pos < hi) & (code[nxt] == owner_code)
                & (snap_time[nxt] - ts <= FOCUS_LAG_MS) & (owner_time < ts))
    owners[linked[use_current]] = snap_id[cur[use_current]]
    owners[linked[use_next]] = snap_id[nxt[use_next]]


def _positions(snap_monitor: np.ndarray, snap_time: np.ndarray, monitor: np.ndarray,
               ts: np.ndarray) -> np.ndarray:
    """For each (monitor, ts), how many snapshots sort at or before it by
    (monitor, time): one searchsorted over a combined key."""
    base = int(min(snap_time.min(), ts.min()))
    width = int(max(snap_time.max(), ts.max())) - base + 1
    combined = snap_monitor * width + (snap_time - base)
    positions: np.ndarray = np.searchsorted(combined, monitor * width + (ts - base), side="right")
    return positions


def nearest_snapshots(snapshots: tuple[Snapshot, ...], inputs: tuple[InputEvent, ...],
                      stream: _Stream | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Two arrays aligned with `inputs`: the id of each event's nearest
    snapshot on its monitor (ties: the earlier), and whether one was found
    within the session gap (where not, the id is meaningless)."""
    owners = np.zeros(len(inputs), dtype=np.int64)
    found = np.zeros(len(inputs), dtype=bool)
    if not inputs or not snapshots:
        return owners, found
    if stream is None:
        stream = _stream(snapshots, inputs)
    event_monitor, event_time = stream.event_monitor, stream.event_time
    snap_monitor, snap_time, snap_id = stream.monitor, stream.time, stream.id
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
