"""The inferred tier: interpretation kept apart from measurement.

Every item is namespaced under `inferred`, tagged with a confidence, says in
words how it was inferred, and links to the frames and rows it rests on.
Removing the tier (`--no-inferred`) leaves the measured tier byte-identical,
because nothing in the measured tier is computed from here.

Today the tier holds routines recurring inside the compiled window (days
rolled up by retention count with their kept action streams) (mined
with the routine miner's rules); `phantom routines` mines the whole history.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from compiler.records import Action, Capture, Frame, InferredItem
from compiler.routines.actions import derive_actions, sessions
from compiler.routines.cycles import distinct
from compiler.routines.mining import mine

MAX_ROUTINES = 10


def infer(capture: Capture, frames: tuple[Frame, ...]) -> tuple[InferredItem, ...]:
    return infer_actions(derive_actions(capture), frames)


def infer_actions(actions: Sequence[Action], frames: tuple[Frame, ...]) -> tuple[InferredItem, ...]:
    """The tier from an action stream in time order (a capture's, or a
    window's raw actions with the rolled-up days' before them)."""
    stream = sessions(tuple(actions))
    routines = distinct(mine(stream), stream)
    locate = _FrameLocator(frames)
    items = []
    for routine in routines[:MAX_ROUTINES]:
        specific = sum(1 for step in routine.steps if step.specific)
        coverage = specific / routine.length
        confidence = ("high" if routine.support >= 5 and coverage >= 0.5
                      else "medium" if coverage >= 0.5 else "low")
        located = {locate(action.monitor, action.ts_ms) for occurrence in routine.occurrences
                   for action in occurrence.actions}
        frame_ids = sorted(frame_id for frame_id in located if frame_id is not None)
        evidence = tuple(f"{occurrence.actions[0].evidence[0]}..{occurrence.actions[-1].evidence[-1]}"
                         for occurrence in routine.occurrences)
        label = " → ".join(step.describe() for step in routine.steps)
        items.append(InferredItem(
            kind="routine", label=label, confidence=confidence,
            basis=(f"the same {routine.length} actions occurred {routine.support} times in this "
                   f"window ({specific} of them on named targets)"),
            frames=tuple(frame_ids), evidence=evidence,
            details=(("id", f"r-{routine.id}"), ("steps", str(routine.length)),
                     ("support", str(routine.support)))))
    return tuple(items)


class _FrameLocator:
    """The frame on a monitor whose span holds an instant."""

    def __init__(self, frames: tuple[Frame, ...]) -> None:
        self._by_monitor: dict[int, list[Frame]] = {}
        for frame in sorted(frames, key=lambda f: (f.monitor, f.start_ms)):
            self._by_monitor.setdefault(frame.monitor, []).append(frame)
        self._starts = {m: [f.start_ms for f in fs] for m, fs in self._by_monitor.items()}

    def __call__(self, monitor: int, ts_ms: int) -> str | None:
        frames = self._by_monitor.get(monitor)
        if not frames:
            return None
        index = bisect_right(self._starts[monitor], ts_ms) - 1
        if index >= 0 and frames[index].start_ms <= ts_ms <= frames[index].end_ms:
            return frames[index].id
        return None
