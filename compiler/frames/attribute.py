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

A linked event is then moved to the frame that holds it in time as well
as window (`_in_time`): a link can name a snapshot from an earlier visit.

The nearest-snapshot and in-time searches are a binary search per event
over its monitor's snapshot times; from LONG_WINDOW events on, vectorized
searches per monitor (numpy, arrays.py).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from operator import attrgetter
from typing import NamedTuple

from compiler.records import InputEvent, Snapshot

from .segment import LONG_WINDOW, SESSION_GAP_MS

_PLACE = attrgetter("monitor", "ts_ms", "id")
FOCUS_LAG_MS = 2_000   # a focus click lands before the snapshot its focus change makes


class _Stream(NamedTuple):
    """The frame stream per monitor, sorted by (time, id): its snapshots and
    their times. Built once for both searches."""

    snapshots: dict[int, list[Snapshot]]
    times: dict[int, list[int]]


def _stream(snapshots: tuple[Snapshot, ...]) -> _Stream:
    by_monitor: dict[int, list[Snapshot]] = {}
    for snapshot in sorted(snapshots, key=_PLACE):
        by_monitor.setdefault(snapshot.monitor, []).append(snapshot)
    return _Stream(by_monitor, {monitor: [s.ts_ms for s in stream] for monitor, stream in by_monitor.items()})


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
    long = len(inputs) >= LONG_WINDOW
    if long:
        from . import arrays

        columns = arrays.stream(snapshots, inputs) if snapshots else None
        owners, found = arrays.nearest_snapshots(snapshots, inputs, columns)
    else:
        stream = _stream(snapshots)
        owners, found = _nearest_unless_linked(snapshots, by_id, inputs, stream)
    linked = [i for i, event in enumerate(inputs) if event.snapshot_id is not None]
    if linked:
        _follow_links(snapshots, by_id, inputs, linked, owners, found)
        if not long:
            _in_time(stream, by_id, inputs, linked, owners, found)
        elif columns is not None:
            arrays.in_time(columns, linked, owners, found)
    unattributed = tuple(event for event, kept in zip(inputs, found) if not kept)
    by_nearest = len(inputs) - len(linked)
    grouped: dict[int, list[InputEvent]] = {}
    for event, owner, kept in zip(inputs, owners, found):
        if kept:                 # each owner's events keep their input order
            grouped.setdefault(owner, []).append(event)
    return Attribution({owner: tuple(grouped[owner]) for owner in sorted(grouped)}, unattributed,
                       by_nearest)


def _nearest_unless_linked(snapshots: tuple[Snapshot, ...], by_id: dict[int, Snapshot],
                           inputs: tuple[InputEvent, ...], stream: _Stream) -> tuple[list[int], list[bool]]:
    """`nearest_snapshots` for the events whose link will not decide their
    owner (none, or to a snapshot outside the window); `_follow_links` sets
    the others' owner and found flag. On a linked store that is most events
    (the array version searches for all, and tests hold the two alike)."""
    needed = [i for i, event in enumerate(inputs) if event.snapshot_id is None or event.snapshot_id not in by_id]
    if len(needed) == len(inputs):
        return nearest_snapshots(snapshots, inputs, stream)
    owners, found = [0] * len(inputs), [False] * len(inputs)
    if needed:
        some_owners, some_found = nearest_snapshots(snapshots, tuple(inputs[i] for i in needed), stream)
        for position, owner, kept in zip(needed, some_owners, some_found):
            owners[position], found[position] = owner, kept
    return owners, found


def _follow_links(snapshots: tuple[Snapshot, ...], by_id: dict[int, Snapshot], inputs: tuple[InputEvent, ...],
                  linked: list[int], owners: list[int], found: list[bool]) -> None:
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


def _in_time(stream: _Stream, by_id: dict[int, Snapshot], inputs: tuple[InputEvent, ...],
             linked: list[int], owners: list[int], found: list[bool]) -> None:
    """Re-own linked events (in place) to the frame holding them in time as
    well as window. A link names the receiving window's latest snapshot the
    daemon had written, which can be one from an earlier visit to that
    window: then the event belongs to the window's snapshot showing at its
    instant (the latest at or before it on its monitor, when that is the
    same app), or — a click that gave the window focus — to the snapshot
    of that app taken within FOCUS_LAG_MS after it. (Snapshot ids are the
    store's row ids: `by_id` names each owner's snapshot.)"""
    times_of, snapshots_of = stream.times, stream.snapshots
    for position in linked:
        if not found[position]:
            continue
        event = inputs[position]
        times = times_of.get(event.monitor)
        if times is None:
            continue
        ts = event.ts_ms
        after = bisect_right(times, ts)                        # the first snapshot after the event
        ordered = snapshots_of[event.monitor]
        owner = by_id[owners[position]]
        if after and ordered[after - 1].app == owner.app:
            owners[position] = ordered[after - 1].id
        elif (after < len(ordered) and ordered[after].app == owner.app
              and ordered[after].ts_ms - ts <= FOCUS_LAG_MS and owner.ts_ms < ts):
            owners[position] = ordered[after].id


def nearest_snapshots(snapshots: tuple[Snapshot, ...], inputs: tuple[InputEvent, ...],
                      stream: _Stream | None = None) -> tuple[list[int], list[bool]]:
    """Two lists aligned with `inputs`: the id of each event's nearest
    snapshot on its monitor (ties: the earlier), and whether one was found
    within the session gap (where not, the id is meaningless)."""
    if len(inputs) >= LONG_WINDOW:
        from .arrays import nearest_snapshots as nearest_arrays

        return nearest_arrays(snapshots, inputs)
    if stream is None:
        stream = _stream(snapshots)
    owners, found = [0] * len(inputs), [False] * len(inputs)
    for position, event in enumerate(inputs):
        monitor_times = stream.times.get(event.monitor)
        if monitor_times is None:
            continue
        ts = event.ts_ms
        right = bisect_left(monitor_times, ts)                    # first snapshot at or after
        left = max(right - 1, 0)
        right = min(right, len(monitor_times) - 1)
        d_left, d_right = abs(ts - monitor_times[left]), abs(monitor_times[right] - ts)
        nearest = right if d_right < d_left else left                # ties: the earlier
        owners[position] = stream.snapshots[event.monitor][nearest].id
        found[position] = min(d_left, d_right) <= SESSION_GAP_MS
    return owners, found
