"""What a run takes over from the run before it in the same store.

Before it captures anything, a run reads what the previous one left behind
(`core.store.crash`): whether capture was paused (a pause survives
restarts), the rows a run that died left open — closed at its last sign of
life, since nothing ran between then and now — and the rows a run that
re-executed itself handed over, which this run carries on: the recording in
progress and the pause's blind spot.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from core.store import SetEnd, SetMeta, StoreWriter
from core.store.connection import open_readonly
from core.store.crash import ALIVE_KEY, RESUME_BLIND_SPOTS_KEY, RESUME_RECORDING_KEY, LeftOpen, OpenBlindSpot, left_open

from .controller import Recording
from .time_truth import NOT_RUNNING

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TakenOver:
    """What the previous run leaves this one: its pause, and the rows it
    handed over to be carried on."""

    paused: bool
    recording: Recording | None
    blind_spots: tuple[OpenBlindSpot, ...]


def take_over(db_path: Path, writer: StoreWriter, now_ms: int) -> TakenOver:
    """Read what the previous run left open and settle it through `writer`:
    interrupted rows closed when that run was last alive, the stretch a
    clean stop opened (`not_running`) closed now, as this run starts; the
    hand-over keys cleared once read; what was handed over is returned to
    carry on."""
    connection = open_readonly(db_path)
    try:
        row = connection.execute("SELECT value FROM meta WHERE key = 'paused'").fetchone()
        previous = left_open(connection)
    finally:
        connection.close()
    _close_interrupted(previous, writer, now_ms)
    recording = next((Recording(r.id, r.name, r.start_ms) for r in previous.recordings
                      if r.id == previous.resumed_recording), None)
    spots = tuple(s for s in previous.blind_spots if s.id in previous.resumed_blind_spots)
    if previous.resumed_recording or previous.resumed_blind_spots:
        writer.submit(SetMeta(RESUME_RECORDING_KEY, ""))
        writer.submit(SetMeta(RESUME_BLIND_SPOTS_KEY, ""))
    return TakenOver(bool(row and row[0] == "1"), recording, spots)


# A run that died is known to have been alive up to its heartbeat (written
# every second); a start later than this after it is a stretch nothing saw.
DOWNTIME_AFTER_MS = 5_000


def _close_interrupted(previous: LeftOpen, writer: StoreWriter, now_ms: int) -> None:
    _record_downtime(previous, writer, now_ms)
    for recording in previous.interrupted_recordings:
        log.warning("recording %r was interrupted (the daemon stopped without closing it); "
                    "closed at its last sign of life", recording.name)
        writer.submit(SetEnd("recordings", recording.id, previous.close_at(recording.start_ms)))
    for spot in previous.interrupted_blind_spots:
        if spot.kind == NOT_RUNNING:   # capture stopped, and starts again now
            writer.submit(SetEnd("blind_spots", spot.id, max(spot.start_ms, now_ms)))
            continue
        log.info("closing the %s blind spot the previous run left open", spot.kind)
        writer.submit(SetEnd("blind_spots", spot.id, previous.close_at(spot.start_ms)))
    writer.submit(SetMeta(ALIVE_KEY, str(previous.last_alive_ms)), urgent=True)


def _record_downtime(previous: LeftOpen, writer: StoreWriter, now_ms: int) -> None:
    """A run that died (kill -9, a power cut) wrote no closing row: the time
    from its last sign of life to this start is a `not_running` blind spot,
    so the last frame's dwell stops there and the gap is said, not silent.
    A clean stop's own open row (closed above), a hand-over by re-execution
    and a store no daemon wrote before (an import, the corpus) get none."""
    from core.clock import zone_at
    from core.store import BlindSpotRow

    stopped_cleanly = any(spot.kind == NOT_RUNNING for spot in previous.interrupted_blind_spots)
    handed_over = previous.resumed_recording is not None or bool(previous.resumed_blind_spots)
    if stopped_cleanly or handed_over or not previous.ran_before:
        return
    start = previous.last_alive_ms
    if now_ms - start <= DOWNTIME_AFTER_MS:
        return
    log.warning("the previous capture run stopped without closing (a crash or kill); "
                "%.0f s from its last sign of life to now are a blind spot", (now_ms - start) / 1000)
    offset, zone = zone_at(start)
    writer.submit(BlindSpotRow(writer.ids.next("blind_spots"), start, now_ms, offset, zone, None, NOT_RUNNING,
                               "capture was not running (it stopped without closing)"), urgent=True)

