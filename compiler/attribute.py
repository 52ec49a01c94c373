"""Input attribution: every input event belongs to the temporally nearest
snapshot on its monitor (ties go to the earlier one), and so to that
snapshot's frame (activity-frames §4). An event with no snapshot within the
session gap is left unattributed and reported as a blind spot — never
guessed onto a frame."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from .records import InputEvent, Snapshot
from .segment import SESSION_GAP_MS


@dataclass(frozen=True, slots=True)
class Attribution:
    by_snapshot: dict[int, tuple[InputEvent, ...]]   # snapshot id -> its events
    unattributed: tuple[InputEvent, ...]


def attribute(snapshots: tuple[Snapshot, ...], inputs: tuple[InputEvent, ...]) -> Attribution:
    streams: dict[int, tuple[list[int], list[int]]] = {}
    for snapshot in sorted(snapshots, key=lambda s: (s.monitor, s.ts_ms, s.id)):
        times, ids = streams.setdefault(snapshot.monitor, ([], []))
        times.append(snapshot.ts_ms)
        ids.append(snapshot.id)
    owned: dict[int, list[InputEvent]] = {}
    unattributed = []
    for event in inputs:
        stream = streams.get(event.monitor)
        owner = _nearest(stream, event.ts_ms) if stream else None
        if owner is None:
            unattributed.append(event)
        else:
            owned.setdefault(owner, []).append(event)
    return Attribution({k: tuple(v) for k, v in owned.items()}, tuple(unattributed))


def _nearest(stream: tuple[list[int], list[int]], ts_ms: int) -> int | None:
    times, ids = stream
    index = bisect_left(times, ts_ms)
    best = None
    for candidate in (index - 1, index):
        if 0 <= candidate < len(times):
            distance = abs(times[candidate] - ts_ms)
            if best is None or distance < best[0]:  # strict: ties keep the earlier snapshot
                best = (distance, candidate)
    if best is None or best[0] > SESSION_GAP_MS:
        return None
    return ids[best[1]]
