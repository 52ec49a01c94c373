"""Traces: the action sequences a program is compiled from.

A trace is one demonstration of a task, as actions in time order. Two
sources give traces:

- explicit recordings (`phantom record start NAME` … `stop`): the input the
  user made inside the recording, plus the app switches the snapshots show
  inside its interval. Typed text is present here (the user opted in),
  except for password fields, where the capturer never keeps it;
- mined routines: each counted occurrence is a trace. Passive capture never
  keeps typed text, so their type steps carry no values.

Every action keeps what the capture recorded about where it landed — the
click's desktop coordinates, the click-target crop and the element — so the
program can carry that evidence for visual re-aiming at replay time. Every
trace also keeps the window it happened in (the focused snapshot's title
when its first action was made) and the window it ended in, which become
the program's window guard and its end state.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, replace

from compiler.routines.actions import derive_actions
from compiler.routines.mining import Routine

from ..records import Action, Capture, Element, InputEvent, Snapshot, Step
from .records import Visual

# What followed a mined routine's occurrence, when nothing else happened first:
# the after-state of its last step is read within this long after it.
END_HORIZON_MS = 10_000


@dataclass(frozen=True, slots=True)
class Recording:
    """One explicit demonstration window (a `recordings` row)."""

    id: int
    name: str
    start_ms: int
    end_ms: int


@dataclass(frozen=True, slots=True)
class TraceAction:
    """An action plus what the capture recorded about its target."""

    action: Action
    x: int | None = None          # clicks: desktop coordinates
    y: int | None = None
    crop: str | None = None       # clicks: sha256 of the click-target crop
    element: Element | None = None
    field_chars: int | None = None  # text: characters already in the field (recordings only)
    visual: Visual | None = None  # clicks: crops for the visual rung (`evidence.py`)

    @property
    def step(self) -> Step:
        return self.action.step

    @property
    def text(self) -> str | None:
        return self.action.text


@dataclass(frozen=True, slots=True)
class WindowSeen:
    """A window as the capture saw it: its application and title."""

    app: str
    title: str


@dataclass(frozen=True, slots=True)
class Trace:
    """One demonstration: where it came from, its actions in order, the
    window its first action went to and the window it ended in (None where
    the capture holds no focused snapshot to tell)."""

    origin: str                   # "recording:3", "routine:r-…#2"
    actions: tuple[TraceAction, ...]
    start: WindowSeen | None = None
    end: WindowSeen | None = None


def recording_traces(capture: Capture, recordings: tuple[Recording, ...] | list[Recording]
                     ) -> tuple[Trace, ...]:
    """One trace per recording, in the order given.

    Actions are derived from the whole capture, not from a copy cut to the
    recording's interval: which app an input went to is read from the last
    focused snapshot before it, which may predate the recording, and a
    switch is only a switch when focus really moved — an app that already
    had focus when the recording started was not switched to."""
    actions = derive_actions(capture)
    events = {f"input_events:{event.id}": event for event in capture.inputs}
    focused = _focused(capture.snapshots)
    snapshots = {snapshot.id: snapshot for snapshot in capture.snapshots}
    traces = []
    for recording in recordings:
        kept = [action for action in actions if _belongs(action, recording)]
        traced = merge_type_bursts(tuple(_traced(action, events) for action in kept))
        trimmed = _trim_recorder_control(traced)
        # The end state is read before the person turned to stop the recorder.
        end_ms = traced[len(trimmed)].action.ts_ms if len(trimmed) < len(traced) else recording.end_ms
        traces.append(Trace(f"recording:{recording.id}", trimmed,
                            _start_window(focused, trimmed, events, snapshots), _window_at(focused, end_ms)))
    return tuple(traces)


def routine_traces(routine: Routine, capture: Capture | None = None) -> tuple[Trace, ...]:
    """One trace per counted occurrence of a mined routine.

    With the capture the routine was mined from, clicks also get their
    coordinates, crops and elements (looked up by evidence id)."""
    events = {f"input_events:{event.id}": event for event in capture.inputs} if capture else {}
    focused = _focused(capture.snapshots) if capture else ()
    snapshots = {snapshot.id: snapshot for snapshot in capture.snapshots} if capture else {}
    later_inputs = sorted(event.ts_ms for event in capture.inputs) if capture else []
    traces = []
    for number, occurrence in enumerate(routine.occurrences, start=1):
        traced = tuple(_traced(action, events) for action in occurrence.actions)
        last = occurrence.actions[-1]
        # After the last step: until the person's next input, at most END_HORIZON_MS.
        following = bisect_right(later_inputs, last.end_ms)
        end_ms = last.end_ms + END_HORIZON_MS
        if following < len(later_inputs):
            end_ms = min(end_ms, later_inputs[following] - 1)
        traces.append(Trace(f"routine:r-{routine.id}#{number}", traced,
                            _start_window(focused, traced, events, snapshots), _window_at(focused, end_ms)))
    return tuple(traces)


def merge_type_bursts(actions: tuple[TraceAction, ...]) -> tuple[TraceAction, ...]:
    """Consecutive typing into the same field is one step.

    The capturer closes a text burst after a two-second pause, so a name
    typed with a hesitation arrives as two bursts; what the user did was
    fill one field. Texts are concatenated; if any part is unknown (a
    password field) the whole is unknown — never a partial literal."""
    merged: list[TraceAction] = []
    for current in actions:
        if merged and current.step.kind == "type" and merged[-1].step == current.step:
            previous = merged[-1]
            text = (previous.text + current.text
                    if previous.text is not None and current.text is not None else None)
            action = previous.action._replace(
                end_ms=max(previous.action.end_ms, current.action.end_ms),
                evidence=previous.action.evidence + current.action.evidence, text=text)
            merged[-1] = replace(previous, action=action)
            continue
        merged.append(current)
    return tuple(merged)


# Typing the stop command into a terminal is how a recording usually ends;
# it is the same in every demonstration, so alignment alone would keep it.
_STOP_COMMAND = re.compile(r"\bphantom\s+record\s+stop\b")


def _trim_recorder_control(actions: tuple[TraceAction, ...]) -> tuple[TraceAction, ...]:
    """Drop the tail where the user stopped the recorder: from the typed
    `phantom record stop` on, and the switch to the terminal right before it.
    Everything before stays; a recording stopped by a shortcut is untouched
    (the shortcut's key is not knowable here)."""
    for position, traced in enumerate(actions):
        if traced.step.kind == "type" and traced.text and _STOP_COMMAND.search(traced.text):
            cut = position
            if cut > 0 and actions[cut - 1].step.kind == "switch":
                cut -= 1
            return actions[:cut]
    return actions


def _focused(snapshots: tuple[Snapshot, ...]) -> tuple[Snapshot, ...]:
    """Focused snapshots in time order: the windows the person worked in."""
    return tuple(sorted((s for s in snapshots if s.focused), key=lambda s: (s.ts_ms, s.id)))


def _window_at(focused: tuple[Snapshot, ...], ts_ms: int, app: str | None = None) -> WindowSeen | None:
    """The focused window at `ts_ms`: the last focused snapshot at or before
    it. With `app`, None when another application had focus then (the
    capture cannot tell which of `app`'s windows the action went to)."""
    position = bisect_right([s.ts_ms for s in focused], ts_ms)
    if position == 0:
        return None
    snapshot = focused[position - 1]
    if app is not None and snapshot.app != app:
        return None
    return WindowSeen(snapshot.app, snapshot.title)


def _start_window(focused: tuple[Snapshot, ...], traced: tuple[TraceAction, ...],
                  events: dict[str, InputEvent], snapshots: dict[int, Snapshot]) -> WindowSeen | None:
    """The window the trace's first acting step (not a switch) went to.

    The input's own snapshot says so when the capture recorded the window that
    received it: a click into an unfocused window lands before focus moves, so
    the last focused snapshot is then the window the person left (or none yet,
    when the daemon had only just started). Older rows fall back to it."""
    first = next((t for t in traced if t.step.kind != "switch"), None)
    if first is None:
        return None
    event = events.get(first.action.evidence[0]) if first.action.evidence else None
    receiver = snapshots.get(event.snapshot_id) if event is not None and event.snapshot_id else None
    if receiver is not None and receiver.app == first.step.app:
        return WindowSeen(receiver.app, receiver.title)
    return _window_at(focused, first.action.ts_ms, first.step.app)


def _belongs(action: Action, recording: Recording) -> bool:
    if action.step.kind == "switch":
        return recording.start_ms <= action.ts_ms <= recording.end_ms
    return action.recording_id == recording.id


def _traced(action: Action, events: dict[str, InputEvent]) -> TraceAction:
    event = events.get(action.evidence[0]) if action.evidence else None
    if event is None:
        return TraceAction(action)
    if action.step.kind == "click":
        return TraceAction(action, event.x, event.y, event.crop, event.element)
    return TraceAction(action, element=event.element, field_chars=event.field_chars)
