"""A nocta-recorder / screenpipe capture (read by `compiler.sources.nocta`,
which already follows each event's link to its window, and handed in by the
caller: see records.py) as an imported history: frames become snapshots
unless an exclusion rule hides them, and an input event that went to a
hidden window is dropped with it.

Keys: a frame is `frames:<id>@<ms>`, an event `ui_events:<id>@<ms>` — the
row id and its instant, which stay the same when the database is copied,
grows, or has older rows deleted by its recorder."""

from __future__ import annotations

from bisect import bisect_left
from typing import Callable

from .records import Capture, Hidden, History, InputEvent, Shown, Snapshot, Typed, merge_hidden

# The compiler's own reach for the nearest-snapshot rule (a session gap).
REACH_MS = 300_000


def history(capture: Capture, *, exclusion: Callable[..., str | None],
            sanitize_url: Callable[[str | None], str | None], known: set[str], description: str) -> History:
    streams: dict[int, list[Snapshot]] = {}
    for snapshot in capture.snapshots:
        streams.setdefault(snapshot.monitor, []).append(snapshot)
    hidden_ids: set[int] = set()
    shown: list[Shown] = []
    pieces: list[Hidden] = []
    already = 0
    for monitor, stream in sorted(streams.items()):
        for index, snapshot in enumerate(stream):
            key = f"frames:{snapshot.id}@{snapshot.ts_ms}"
            reason = exclusion(snapshot.app, snapshot.title)
            if reason is not None:
                hidden_ids.add(snapshot.id)
                until = stream[index + 1].ts_ms if index + 1 < len(stream) else snapshot.ts_ms
                if key not in known:
                    pieces.append(Hidden((key,), snapshot.ts_ms, until, monitor, reason))
                continue
            if key in known:
                already += 1
                continue
            shown.append(Shown(key, snapshot.ts_ms, monitor, "imported", snapshot.app, snapshot.title,
                               sanitize_url(snapshot.url), snapshot.idle, snapshot.focused))
    owner = _Owners(streams)
    frame_keys = {s.id: f"frames:{s.id}@{s.ts_ms}" for s in capture.snapshots if s.id not in hidden_ids}
    inputs: list[Typed] = []
    for event in capture.inputs:
        key = f"ui_events:{event.id}@{event.ts_ms}"
        if owner.of(event) in hidden_ids:
            continue
        if key in known:
            already += 1
            continue
        inputs.append(Typed(key, event, frame_keys.get(event.snapshot_id) if event.snapshot_id else None))
    shown.sort(key=lambda s: (s.ts_ms, s.monitor))
    return History("nocta", description, tuple(shown), merge_hidden(pieces), tuple(inputs), already)


class _Owners:
    """Which frame an event went to: its link, else the frame nearest in time
    on its monitor within the compiler's reach (ties: the earlier)."""

    def __init__(self, streams: dict[int, list[Snapshot]]) -> None:
        self.streams = streams
        self.times = {monitor: [s.ts_ms for s in stream] for monitor, stream in streams.items()}

    def of(self, event: InputEvent) -> int | None:
        if event.snapshot_id is not None:
            return event.snapshot_id
        times = self.times.get(event.monitor)
        if not times:
            return None
        index = bisect_left(times, event.ts_ms)
        candidates = [i for i in (index - 1, index) if 0 <= i < len(times)]
        best = min(candidates, key=lambda i: (abs(times[i] - event.ts_ms), i))
        if abs(times[best] - event.ts_ms) > REACH_MS:
            return None
        return self.streams[event.monitor][best].id
