"""Bookkeeping for open blind spots: at most one open row per (kind, monitor),
opened when capture stops seeing and closed when it sees again, so the
store records every stretch the capture could not or would not cover."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from core.clock import zone_at
from core.store import BlindSpotRow, SetEnd, StoreWriter

from .time_truth import CLOCK_JUMP, Stretch

log = logging.getLogger(__name__)


class BlindSpots:
    def __init__(self, writer: StoreWriter) -> None:
        self._writer = writer
        self._open: dict[tuple[str, int | None], tuple[int, str]] = {}

    def open(self, kind: str, reason: str, now_ms: int, monitor: int | None = None) -> None:
        """Open a blind spot unless one of this kind is already open for this
        monitor with the same reason (a different reason closes the old one)."""
        key = (kind, monitor)
        current = self._open.get(key)
        if current is not None:
            if current[1] == reason:
                return
            self.close(kind, now_ms, monitor)
        row_id = self._writer.ids.next("blind_spots")
        offset, zone = zone_at(now_ms)
        self._writer.submit(BlindSpotRow(row_id, now_ms, None, offset, zone, monitor, kind, reason))
        self._open[key] = (row_id, reason)

    def record(self, kind: str, reason: str, start_ms: int, end_ms: int) -> None:
        """Write a stretch already over (found after the fact: the daemon
        did not run, the clock was set); it is never open."""
        offset, zone = zone_at(start_ms)
        self._writer.submit(BlindSpotRow(self._writer.ids.next("blind_spots"), start_ms, end_ms, offset, zone,
                                         None, kind, reason), urgent=True)

    def record_all(self, stretches: Iterable[Stretch]) -> bool:
        """Write what `time_truth` found; True when the clock was set."""
        jumped = False
        for stretch in stretches:
            log.warning("%s: %s", stretch.kind, stretch.reason)
            self.record(stretch.kind, stretch.reason, stretch.start_ms, stretch.end_ms)
            jumped = jumped or stretch.kind == CLOCK_JUMP
        return jumped

    def close(self, kind: str, now_ms: int, monitor: int | None = None) -> None:
        current = self._open.pop((kind, monitor), None)
        if current is not None:
            self._writer.submit(SetEnd("blind_spots", current[0], now_ms))

    def adopt(self, row_id: int, kind: str, reason: str, monitor: int | None = None) -> None:
        """Carry on a row the run before this one left open on purpose (it
        re-executed itself): opening the same kind for the same reason is
        then no change."""
        self._open[(kind, monitor)] = (row_id, reason)

    def close_all(self, now_ms: int, *, keep: tuple[str, ...] = ()) -> list[int]:
        """Close every open row except those of the kinds in `keep`; the ids
        of the rows kept open."""
        kept = []
        for kind, monitor in list(self._open):
            if kind in keep:
                kept.append(self._open[(kind, monitor)][0])
            else:
                self.close(kind, now_ms, monitor)
        return kept

    def is_open(self, kind: str, monitor: int | None = None) -> bool:
        return (kind, monitor) in self._open

    def open_kinds(self) -> list[str]:
        return sorted({kind for kind, _ in self._open})
