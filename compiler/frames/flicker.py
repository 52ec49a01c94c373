"""Flicker folding: an A→B→A detour whose B lasted at most 20 s, inside one
session, folds B into A as a recorded interruption (activity-frames §4). The
detour is kept, not discarded; its time is not credited to A."""

from __future__ import annotations

from typing import NamedTuple

from compiler.records import Interruption

from .segment import Run

FLICKER_MS = 20_000


class FoldedRun(NamedTuple):
    """A run, possibly merged with its resumptions, with its detours."""

    runs: tuple[Run, ...]                  # the A parts, in order
    interruptions: tuple[Interruption, ...]

    @property
    def first(self) -> Run:
        return self.runs[0]


def fold(runs: tuple[Run, ...]) -> tuple[FoldedRun, ...]:
    """Fold flickers monitor by monitor; runs must be grouped by monitor and
    time-ordered within each (as `segment.runs` returns them)."""
    result: list[FoldedRun] = []
    for monitor in sorted({run.monitor for run in runs}):
        result.extend(_fold_stream(tuple(r for r in runs if r.monitor == monitor)))
    return tuple(result)


def _fold_stream(stream: tuple[Run, ...]) -> list[FoldedRun]:
    folded: list[FoldedRun] = []
    index = 0
    while index < len(stream):
        host = FoldedRun((stream[index],), ())
        index += 1
        while index + 1 < len(stream):
            detour, back = stream[index], stream[index + 1]
            last = host.runs[-1]
            same_session = last.session == detour.session == back.session
            if not (same_session and back.key == last.key and detour.key != last.key
                    and back.start_ms - detour.start_ms <= FLICKER_MS):
                break
            interruption = Interruption(detour.app, detour.site, detour.start_ms, back.start_ms,
                                        tuple(s.id for s in detour.snapshots))
            host = FoldedRun(host.runs + (back,), host.interruptions + (interruption,))
            index += 2
        folded.append(host)
    return folded
