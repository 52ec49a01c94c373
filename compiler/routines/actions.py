"""The action stream: UI actions derived from captured rows, split into
sessions. Routine mining and program compilation both start here.

Rules (activity-frames §7, phantom.md §5):
- a click is named by its resolved element (role, label, path); a zone or
  unresolved click keeps only what is known and is not a specific step;
- a text burst is "type into" its field, named by the field's path — the
  content is absent unless it was captured in an opted-in recording;
- keys with ctrl/alt/super, copies and action keys (Return, Escape, Delete,
  F-keys) are key steps; navigation keys (Tab, arrows, paging) and scrolling
  are not actions;
- a focus change to another app, or to another site in a browser, is a
  switch step (specific when a URL anchors it);
- input made by Phantom's own replay runs is excluded;
- an input row that names the window that received it (store v3) belongs to
  that window's application; otherwise to the application focused on its
  monitor at that moment. A click into a window that did not have focus yet
  comes before its switch: the switch is placed at that first input;
- sessions split where more than 90 s pass without an action, and immediate
  repeats of the same step collapse into one.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from enum import Enum
from functools import partial
from operator import attrgetter
from typing import Final

from compiler.collector import collector_paused
from compiler.pages import site_of
from compiler.records import MONITOR, TS_MS, Action, Capture, InputEvent, Snapshot, Step

SESSION_GAP_MS = 90_000
# A switch is moved back to the first input of the window it switched to when
# that input came at most this long before the focus snapshot.
SWITCH_LEAD_MS = 5_000
# From this many input events on, the app at each event is looked up with
# numpy (as the miner's LONG_STREAM and the frames' LONG_WINDOW, a few days).
LONG_INPUTS = 10_000


class _Missing(Enum):
    """A typed sentinel: a memo miss (None is a memoized 'no step')."""

    MISSING = 0


_MISSING: Final = _Missing.MISSING
NAVIGATION_KEYS = frozenset({"Tab", "Up", "Down", "Left", "Right", "Home", "End", "Page_Up",
                             "Page_Down", "space", "Caps_Lock", "Num_Lock", "Scroll_Lock",
                             "Insert", "Menu", "Print", "Pause"})
ACTION_KEYS = frozenset({"Return", "KP_Enter", "Escape", "Delete", "BackSpace"})


@collector_paused()
def derive_actions(capture: Capture) -> tuple[Action, ...]:
    """All actions of a capture, in time order (ties broken by evidence)."""
    apps = _apps_at(capture.snapshots, capture.inputs)
    replayed = [(run.start_ms, run.end_ms if run.end_ms is not None else capture.until_ms)
                for run in capture.replay_runs]
    first_input: list[tuple[int, str]] = []   # linked inputs: (time, app)
    actions: list[Action] = []
    # the same element in the same app is the same Step: (kind, app, resolution, element id, key)
    steps: dict[tuple[str, str, str | None, int | None, str | None], Step | None] = {}
    for event, app in zip(capture.inputs, apps):
        kind = event.kind
        if kind == "scroll":  # never an action; a third of a typical day's rows
            continue
        if replayed and any(start <= event.ts_ms <= end for start, end in replayed):
            continue
        element = event.element
        memo = (kind, app, event.resolution, element.id if element is not None else None, event.key)
        step = steps.get(memo, _MISSING)
        if step is _MISSING:
            step = steps[memo] = _input_step(event, app)
        if step is not None:
            actions.append(Action(step, event.ts_ms, event.end_ms, event.monitor,
                                  (f"input_events:{event.id}",), event.text, event.recording_id))
            if event.snapshot_id is not None:
                first_input.append((event.ts_ms, app))
    actions.extend(_switches_at_first_input(tuple(_switches(capture.snapshots)), first_input))
    actions.sort(key=_time_then_row)
    return tuple(actions)


def _time_then_row(action: Action) -> tuple[int, str, int]:
    """Time order; actions of the same millisecond in the order their rows
    were written. The row id is compared as a number: as text,
    'input_events:10' sorts before 'input_events:9', which put a field's
    text before the ctrl+a that came just ahead of it and split a routine."""
    table, _, row = action.evidence[0].partition(":")
    return action.ts_ms, table, int(row) if row.isdigit() else 0


def _switches_at_first_input(switches: tuple[Action, ...], linked: list[tuple[int, str]]) -> list[Action]:
    """Each switch, moved back to just before the first linked input to its
    application since the previous switch (within SWITCH_LEAD_MS): the click
    that brought a window forward is made in that window, after the switch.

    Linear in switches plus inputs: each application's linked times are
    sorted once, and a cursor per application only moves forward while the
    switches come in time order (they do: they are read from snapshots in
    time order). Restarting the search from the first input for every
    switch made a month of linked input quadratic (issue 27). A switch
    earlier than the one before it (not made by `_switches`) is answered by
    a binary search instead, so the answer never depends on the order."""
    if not linked:
        return list(switches)
    linked.sort()
    times_of: dict[str, list[int]] = {}
    for ts, into in linked:
        times = times_of.get(into)
        if times is None:
            times = times_of[into] = []
        times.append(ts)
    cursor: dict[str, int] = {}
    moved = []
    previous = None
    for action in switches:
        app = action.step.app
        times = times_of.get(app)
        earliest = None
        if times is not None:
            # the first linked input after the previous switch and at most
            # SWITCH_LEAD_MS before this one: both bounds only grow in time order
            low = action.ts_ms - SWITCH_LEAD_MS
            at = cursor.get(app, 0)
            if at and times[at - 1] >= low and (previous is None or times[at - 1] > previous):
                at = bisect_left(times, low, 0, at)   # the bounds went back: search what was passed
                if previous is not None:
                    at = max(at, bisect_right(times, previous, 0, len(times)))
            count = len(times)
            while at < count and (times[at] < low or (previous is not None and times[at] <= previous)):
                at += 1
            cursor[app] = at
            if at < count and times[at] < action.ts_ms:
                earliest = times[at]
        previous = action.ts_ms
        moved.append(action._replace(ts_ms=earliest - 1, end_ms=earliest - 1) if earliest is not None else action)
    return moved


@collector_paused()
def sessions(actions: tuple[Action, ...], gap_ms: int = SESSION_GAP_MS) -> tuple[tuple[Action, ...], ...]:
    """Split at gaps longer than `gap_ms` and collapse immediate repeats."""
    result: list[tuple[Action, ...]] = []
    current: list[Action] = []
    for action in actions:
        if current and action.ts_ms - current[-1].end_ms > gap_ms:
            result.append(tuple(current))
            current = []
        if current and current[-1].step == action.step and not action.text and not current[-1].text:
            last = current[-1]
            current[-1] = last._replace(end_ms=max(last.end_ms, action.end_ms),
                                       evidence=last.evidence + action.evidence)
            continue
        current.append(action)
    if current:
        result.append(tuple(current))
    return tuple(result)


def step_key(step: Step) -> tuple[str, str, str, str]:
    """What makes two steps "the same step" for routine mining: the kind, the
    app, and what a person would call the target — its role and label for
    clicks and typing, the combination for keys, the destination for
    switches. The accessibility path is deliberately left out, so a button
    that moved in the tree is still the same step; how much paths vary across
    a routine's occurrences is what its UI entropy (H_UI) measures."""
    if step.kind in ("click", "type"):
        if step.specific:
            return step.kind, step.app, step.role, step.label
        return step.kind, step.app, step.role, step.target
    return step.kind, step.app, step.target, ""


def _input_step(event: InputEvent, app: str) -> Step | None:
    element = event.element
    if event.kind == "click":
        if element is not None and event.resolution in ("exact", "tolerance"):
            return Step("click", app, element.path, element.role, element.label, True)
        if element is not None and event.resolution == "zone":
            return Step("click", app, element.path, element.role, "", False)
        return Step("click", app, "", "", "", False)
    if event.kind == "text":
        if element is not None:
            return Step("type", app, element.path, element.role, element.label, True)
        return Step("type", app, "", "", "", False)
    if event.kind == "copy":
        return Step("key", app, event.key or "copy")
    if event.kind == "key":
        key = event.key or ""
        if "+" in key or key in ACTION_KEYS or (key.startswith("F") and key[1:].isdigit()):
            return Step("key", app, key)
    return None


def _switches(snapshots: tuple[Snapshot, ...]) -> Iterator[Action]:
    """A switch wherever the focused app (or the browser site) changes."""
    last_target = None
    steps: dict[tuple[str, str], Step] = {}
    for snapshot in snapshots:
        if not snapshot.focused or snapshot.idle:
            continue
        site = site_of(snapshot.url) if snapshot.url else ""
        target = f"{snapshot.app}/{site}" if site else snapshot.app
        if target == last_target:
            continue
        last_target = target
        step = steps.get((snapshot.app, target))
        if step is None:
            step = steps[snapshot.app, target] = Step("switch", snapshot.app, target, specific=bool(site))
        yield Action(step, snapshot.ts_ms, snapshot.ts_ms, snapshot.monitor, (f"snapshots:{snapshot.id}",))


def _apps_at(snapshots: tuple[Snapshot, ...], inputs: Sequence[InputEvent]) -> list[str]:
    """For each input event, the app of the snapshot its source linked it to
    (`InputEvent.snapshot_id`: the window that received it), else of the last
    focused snapshot on its monitor at or before it (the first one, for
    events before any)."""
    links = list(map(_SNAPSHOT_ID, inputs))
    if all(link is None for link in links):
        return _apps_by_time(snapshots, inputs)
    # linked: the time-ordered search only for the events whose link names
    # no snapshot of the capture (the daemon and nocta link every event)
    app_of = {snapshot.id: snapshot.app for snapshot in snapshots}
    apps: list[str | None] = [app_of.get(link) if link is not None else None for link in links]
    unknown = [event for event, app in zip(inputs, apps) if app is None]
    by_time = iter(_apps_by_time(snapshots, unknown) if unknown else ())
    return [app if app is not None else next(by_time) for app in apps]


_SNAPSHOT_ID = attrgetter("snapshot_id")


def _apps_by_time(snapshots: tuple[Snapshot, ...], inputs: Sequence[InputEvent]) -> list[str]:
    """The last focused snapshot's app on each event's monitor at or before
    it: a binary search per event, vectorized per monitor from LONG_INPUTS
    events on (a day's few thousand do not pay for numpy's import)."""
    by_monitor: dict[int, tuple[list[int], list[str]]] = {}
    for snapshot in snapshots:
        if snapshot.focused:
            times, names = by_monitor.setdefault(snapshot.monitor, ([], []))
            times.append(snapshot.ts_ms)
            names.append(snapshot.app)
    if not by_monitor or not inputs:
        return [""] * len(inputs)
    if len(inputs) >= LONG_INPUTS:
        return _apps_by_time_arrays(by_monitor, inputs)
    monitors = list(map(MONITOR, inputs))
    stamps = list(map(TS_MS, inputs))
    found = [""] * len(inputs)
    for monitor, (times, names) in by_monitor.items():
        # bisect_right gives 0..len(times); the app before the first snapshot is the first one's
        shifted = [names[0], *names]
        positions = [i for i, m in enumerate(monitors) if m == monitor]
        apps = map(shifted.__getitem__, map(partial(bisect_right, times), [stamps[i] for i in positions]))
        if len(positions) == len(found):
            found = list(apps)
        else:
            for i, app in zip(positions, apps):
                found[i] = app
    return found


def _apps_by_time_arrays(by_monitor: dict[int, tuple[list[int], list[str]]],
                         inputs: Sequence[InputEvent]) -> list[str]:
    """`_apps_by_time`'s search, one vectorized binary search per monitor."""
    import numpy as np

    event_time = np.fromiter(map(TS_MS, inputs), dtype=np.int64, count=len(inputs))
    event_monitor = np.fromiter(map(MONITOR, inputs), dtype=np.int64, count=len(inputs))
    found = np.full(len(inputs), "", dtype=object)
    for monitor, (times, names) in by_monitor.items():
        positions = np.flatnonzero(event_monitor == monitor)
        if not positions.size:
            continue
        index = np.searchsorted(np.asarray(times, dtype=np.int64), event_time[positions], side="right") - 1
        found[positions] = np.asarray(names, dtype=object)[np.maximum(index, 0)]
    result: list[str] = found.tolist()
    return result
