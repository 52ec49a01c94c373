"""What a capture run that ended without closing its rows left open, read
from the store's own record of it.

Only the capture daemon opens interval rows (recordings, blind spots) and
only one daemon writes a store at a time, so any row still open when a
daemon starts was left by a run that died (`kill -9`, a power cut, an
abort) — or by one that re-executed itself and asked for it to be carried
on (`meta` keys `resume_recording`, `resume_blind_spots`). The last instant
the store proves that run was alive is the latest of its heartbeat
(`capture_alive_ms`, written every second) and its rows' times; an
interrupted row is closed there, never at the restart (the time between is
not a pause nor a recording: nothing ran).
"""

from __future__ import annotations

from dataclasses import dataclass

import apsw

ALIVE_KEY = "capture_alive_ms"
STARTED_KEY = "capture_started_ms"
STOPPED_KEY = "capture_stopped_ms"
RESUME_RECORDING_KEY = "resume_recording"
RESUME_BLIND_SPOTS_KEY = "resume_blind_spots"


@dataclass(frozen=True, slots=True)
class OpenRecording:
    id: int
    name: str
    start_ms: int


@dataclass(frozen=True, slots=True)
class OpenBlindSpot:
    id: int
    kind: str
    reason: str
    start_ms: int
    monitor: int | None


@dataclass(frozen=True, slots=True)
class LeftOpen:
    """Rows a previous run left open. `last_alive_ms` is when it was last
    seen alive; `resumed_*` are the rows it asked the next run to carry on."""

    last_alive_ms: int
    recordings: tuple[OpenRecording, ...]
    blind_spots: tuple[OpenBlindSpot, ...]
    resumed_recording: int | None
    resumed_blind_spots: frozenset[int]
    ran_before: bool = False   # a capture daemon has written this store (its heartbeat key is there)

    def close_at(self, start_ms: int) -> int:
        """When an interrupted row that started at `start_ms` ends."""
        return max(start_ms, self.last_alive_ms)

    @property
    def interrupted_recordings(self) -> tuple[OpenRecording, ...]:
        return tuple(r for r in self.recordings if r.id != self.resumed_recording)

    @property
    def interrupted_blind_spots(self) -> tuple[OpenBlindSpot, ...]:
        return tuple(s for s in self.blind_spots if s.id not in self.resumed_blind_spots)


def left_open(connection: apsw.Connection) -> LeftOpen:
    """Read what the previous run left open (see the module docstring)."""
    meta = dict(connection.execute("SELECT key, value FROM meta"))
    recordings = tuple(OpenRecording(*row) for row in connection.execute(
        "SELECT id, name, start_ms FROM recordings WHERE end_ms IS NULL ORDER BY id"))
    spots = tuple(OpenBlindSpot(*row) for row in connection.execute(
        "SELECT id, kind, reason, start_ms, monitor FROM blind_spots WHERE end_ms IS NULL ORDER BY id"))
    alive = max(_int(meta.get(ALIVE_KEY)), _int(meta.get(STARTED_KEY)), *(
        _int(connection.execute(sql).get) for sql in (
            "SELECT max(ts_ms) FROM snapshots", "SELECT max(end_ms) FROM input_events",
            "SELECT max(start_ms) FROM blind_spots", "SELECT max(end_ms) FROM blind_spots",
            "SELECT max(start_ms) FROM recordings")))
    resumed = _int(meta.get(RESUME_RECORDING_KEY)) or None
    spot_ids = frozenset(int(part) for part in (meta.get(RESUME_BLIND_SPOTS_KEY) or "").split(",")
                         if part.strip().isdigit())
    return LeftOpen(alive, recordings, spots,
                    resumed if any(r.id == resumed for r in recordings) else None,
                    frozenset(s.id for s in spots if s.id in spot_ids),
                    ran_before=ALIVE_KEY in meta)


def _int(value: object) -> int:
    try:
        return int(value) if isinstance(value, (int, str)) else 0
    except (TypeError, ValueError):
        return 0
