"""The capture rules: `decide(state, observation, rules)` returns the new
state and the operations to perform. One function per kind of observation;
`_Decision` collects what they decide (it never leaves `decide`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, assert_never

from core.capture_timing import IDLE_HEARTBEAT_FACTOR

from ..privacy import excluding_rule
from ..sources.base import WindowInfo
from .observations import (
    AccessibilityAnswer,
    AccessibilityAnswered,
    AccessibilityBus,
    ClockJumped,
    DisplayBack,
    DisplayGone,
    FocusMoved,
    Forgot,
    IdleReported,
    InputSeen,
    Observation,
    Pause,
    Resume,
    SourceFailed,
    Started,
    Tick,
    TitleSeen,
    WindowGone,
)
from .operations import (
    CloseBlindSpot,
    CloseBursts,
    CountInput,
    OpenBlindSpot,
    Operation,
    PauseChanged,
    PointAccessibility,
    WatchHung,
    WatchTitle,
    WriteSnapshot,
)
from .state import BlindSpot, CaptureState, Rules, Screen, is_new_focus, monitor_of, same_window

PAUSED = "paused by the user"
NO_ACCESSIBILITY_BUS = "accessibility bus unavailable"
ACCESSIBILITY_BUS_LOST = "accessibility bus lost"
BUS_REASONS = {"unavailable": NO_ACCESSIBILITY_BUS, "lost": ACCESSIBILITY_BUS_LOST}
# Accessibility answers that mean the focused window cannot be read.
UNREADABLE = ("no_app", "hung", "unavailable")


def decide(state: CaptureState, observation: Observation,
           rules: Rules) -> tuple[CaptureState, tuple[Operation, ...]]:
    decision = _Decision(state, rules)
    _apply(decision, observation)
    return decision.state, tuple(decision.ops)


class _Decision:
    def __init__(self, state: CaptureState, rules: Rules) -> None:
        self.state = state
        self.rules = rules
        self.ops: list[Operation] = []

    def emit(self, op: Operation) -> None:
        self.ops.append(op)

    def change(self, **fields: Any) -> None:   # CaptureState's fields: replace() refuses others
        self.state = replace(self.state, **fields)

    def open_spot(self, kind: str, reason: str, now: int) -> None:
        """Open a blind spot unless one of this kind is open for this reason
        (one open for another reason is closed first)."""
        current = self.state.blind_spot(kind)
        if current is not None:
            if current.reason == reason:
                return
            self.close_spot(kind, now)
        self.change(blind_spots=(*self.state.blind_spots, BlindSpot(kind, reason)))
        self.emit(OpenBlindSpot(kind, reason, now))

    def close_spot(self, kind: str, now: int) -> None:
        if self.state.blind_spot(kind) is not None:
            self.change(blind_spots=tuple(s for s in self.state.blind_spots if s.kind != kind))
            self.emit(CloseBlindSpot(kind, now))

    def snapshot(self, window: WindowInfo, trigger: str, focused: bool, now: int) -> None:
        """A snapshot of `window`. Only a focused window's (or a heartbeat's)
        becomes what its monitor shows: a snapshot of a window that got input
        without focus must not take over the monitor's heartbeat and dwell."""
        monitor = monitor_of(self.state.monitors, *window.center)
        self.emit(WriteSnapshot(window, trigger, focused, monitor, self.state.idle))
        self.state = self.state.with_seen(window)
        if focused or trigger == "heartbeat":
            self.state = self.state.with_screen(Screen(monitor.index, window, now))

    def bus_spot(self, now: int) -> None:
        """While the accessibility bus is down, nothing of any window can be
        read: one blind spot, whatever has focus (reopened after a pause or
        a display loss that covered it)."""
        if not self.state.accessibility_up and not self.state.paused and self.state.display_up:
            self.open_spot("no_accessibility", BUS_REASONS.get(self.state.accessibility,
                                                                NO_ACCESSIBILITY_BUS), now)

    def close_bursts(self) -> None:
        """Close the open input bursts, which went to the input window."""
        self.emit(CloseBursts(self.state.input_window or self.state.focus))
        self.change(input_window=None)

    def show(self, window: WindowInfo, trigger: str, now: int, *, bursts_closed: bool = False) -> None:
        """`window` has focus: decide, at every change, whether it is
        excluded (a blind spot, no snapshot, no input, nothing read) or
        captured (a snapshot with this trigger)."""
        rule = excluding_rule(self.rules.exclusions, window)
        self.change(focus=window)
        if rule is not None:
            if not bursts_closed:
                self.close_bursts()
            self.open_spot("excluded", rule.name, now)
            self.emit(PointAccessibility(None))
            return
        self.close_spot("excluded", now)
        self.emit(PointAccessibility(window))
        self.snapshot(window, trigger, True, now)


def _started(d: _Decision, seen: Started) -> None:
    d.change(paused=seen.paused, last_input_ms=seen.now_ms)
    if seen.paused:
        d.open_spot("paused", PAUSED, seen.now_ms)


def _focus_moved(d: _Decision, seen: FocusMoved) -> None:
    state = d.state
    if state.paused or not state.display_up or not is_new_focus(state, seen.window_id, seen.window):
        return
    d.close_bursts()
    d.emit(WatchTitle(seen.window.window_id if seen.window else None))
    d.change(focus_ms=seen.now_ms)
    if d.state.accessibility_up:   # what could not be read was the window that had focus
        d.close_spot("no_accessibility", seen.now_ms)
    if seen.window is not None:
        d.show(seen.window, "focus", seen.now_ms, bursts_closed=True)
        return
    d.change(focus=None)
    d.close_spot("excluded", seen.now_ms)
    d.emit(PointAccessibility(None))


def _title_seen(d: _Decision, seen: TitleSeen) -> None:
    focus = d.state.focus
    if (d.state.paused or not d.state.display_up or focus is None or not same_window(focus, seen.window)
            or seen.window.title == focus.title):
        return
    d.show(seen.window, "title", seen.now_ms)


def _tick(d: _Decision, seen: Tick) -> None:
    if d.state.paused or not d.state.display_up:
        return
    now = seen.now_ms
    idle = d.state.reported_idle
    if idle is None:
        idle = now - d.state.last_input_ms >= d.rules.idle_after_ms
    if idle != d.state.idle:
        d.change(idle=idle)
        if d.state.focus is not None and d.state.excluded_by is None:
            d.snapshot(d.state.focus, "idle" if idle else "active", True, now)
    period = d.rules.heartbeat_ms * (IDLE_HEARTBEAT_FACTOR if idle else 1)
    # Each screen is read afresh: a heartbeat written for a window that moved
    # to another monitor counts for that monitor's screen too.
    for index in [screen.monitor for screen in d.state.screens]:
        screen = d.state.screen(index)
        assert screen is not None, "a decision replaces screens, never removes one"
        window = screen.window
        if window is None or now - screen.last_snapshot_ms < period:
            continue
        focused = same_window(d.state.focus, window)
        if focused and d.state.excluded_by is not None:
            continue
        # An unfocused window may have gone: the daemon checks before it
        # writes, and says WindowGone instead.
        d.snapshot(window, "heartbeat", focused, now)


def _input_seen(d: _Decision, seen: InputSeen) -> None:
    """Input counts for the window that received it — decided here, at every
    event, not by a remembered id: an excluded window that got a click while
    another had focus stores nothing either. A window that has no snapshot
    yet gets one first (unfocused, it earns no dwell), so every input row can
    name its window's snapshot; input to another window than the last closes
    the bursts that went there."""
    d.change(last_input_ms=seen.ts_ms)
    state = d.state
    if state.paused or not state.display_up:
        return
    receiver = seen.window or state.focus
    if receiver is None:
        return
    focused = same_window(receiver, state.focus)
    if focused:
        if state.excluded_by is not None:
            return
    elif excluding_rule(d.rules.exclusions, receiver) is not None:
        return
    if receiver.key not in state.seen:
        d.snapshot(receiver, "input", focused, seen.ts_ms)
    if state.input_window is not None and not same_window(state.input_window, receiver):
        d.close_bursts()
    d.change(input_window=receiver)
    d.emit(CountInput(receiver))


def _pause(d: _Decision, seen: Pause) -> None:
    if d.state.paused:
        return
    d.close_bursts()
    d.change(paused=True, focus=None)
    d.emit(PointAccessibility(None))
    d.close_spot("excluded", seen.now_ms)
    d.close_spot("no_accessibility", seen.now_ms)
    d.open_spot("paused", PAUSED, seen.now_ms)
    d.emit(PauseChanged(True))


def _resume(d: _Decision, seen: Resume) -> None:
    """Resuming takes a fresh snapshot of whatever has focus now."""
    if not d.state.paused:
        return
    d.change(paused=False)
    d.close_spot("paused", seen.now_ms)
    d.emit(PauseChanged(False))
    if not d.state.display_up:
        return
    d.emit(WatchTitle(seen.window.window_id if seen.window else None))
    d.change(focus_ms=seen.now_ms)
    d.bus_spot(seen.now_ms)
    if seen.window is not None:
        d.show(seen.window, "resume", seen.now_ms)


def _display_gone(d: _Decision, seen: DisplayGone) -> None:
    if d.state.blind_spot("display_lost") is not None:
        return
    d.close_bursts()
    d.emit(PointAccessibility(None))
    d.change(focus=None, display_up=False)
    d.close_spot("excluded", seen.now_ms)
    d.close_spot("no_accessibility", seen.now_ms)
    d.open_spot("display_lost", d.rules.display_lost_reason, seen.now_ms)


def _display_back(d: _Decision, seen: DisplayBack) -> None:
    """The display is lost until X answers (the observation's time), not
    until a reconnection schedule gets round to it. Focus is found again by
    the next focus check."""
    d.change(display_up=True, monitors=seen.monitors, focus=None)
    d.close_spot("display_lost", seen.now_ms)
    d.bus_spot(seen.now_ms)


def _accessibility_bus(d: _Decision, seen: AccessibilityBus) -> None:
    """The bus itself: down, nothing can be read until it is back (focus
    changes do not end it); back, what the next answers say holds again."""
    d.change(accessibility=seen.status)
    if d.state.accessibility_up:
        d.close_spot("no_accessibility", seen.now_ms)
    else:
        d.bus_spot(seen.now_ms)


def _accessibility_answer(d: _Decision, seen: AccessibilityAnswer) -> None:
    """The focused window cannot be read: a blind spot until one that can
    be read answers. A late answer counts only while its window has focus.
    A hung application's spot starts at the first call it left unanswered
    (not when the call's timeout ran out), though never before its window
    got focus; it ends when the application answers (`WatchHung`)."""
    if not d.state.accessibility_up:
        return   # the bus spot says it all
    if seen.status in UNREADABLE:
        if not seen.late or same_window(d.state.focus, seen.window):
            reason = f"{seen.status}: {seen.window.app}, {seen.detail}" if seen.detail else seen.status
            at = seen.now_ms if seen.since_ms is None else max(seen.since_ms, d.state.focus_ms)
            d.open_spot("no_accessibility", reason, min(at, seen.now_ms))
            if seen.status == "hung":
                d.emit(WatchHung(seen.window))
    elif seen.status == "ok" and not seen.late:
        d.close_spot("no_accessibility", seen.now_ms)


def _accessibility_answered(d: _Decision, seen: AccessibilityAnswered) -> None:
    """The hung application answers: its window's spot ends now."""
    spot = d.state.blind_spot("no_accessibility")
    if spot is not None and spot.reason.startswith("hung") and same_window(d.state.focus, seen.window):
        d.close_spot("no_accessibility", seen.now_ms)


def _window_gone(d: _Decision, seen: WindowGone) -> None:
    d.change(screens=tuple(replace(screen, window=None) if same_window(screen.window, seen.window)
                           else screen for screen in d.state.screens))


def _idle_reported(d: _Decision, seen: IdleReported) -> None:
    """Remembered; the next tick (within a second) acts on it as it acts on
    input-less time: an `idle` or `active` snapshot, the heartbeat's pace."""
    d.change(reported_idle=seen.idle)


def _source_failed(d: _Decision, seen: SourceFailed) -> None:
    """A one-off failure is an instant, not a stretch."""
    d.open_spot("capture_error", f"{seen.what} failed", seen.now_ms)
    d.close_spot("capture_error", seen.now_ms)


def _forgot(d: _Decision, seen: Forgot) -> None:
    """After a forget no window is known to have a snapshot: the focused one
    gets one now, before any later input names it, and any other gets one
    with its first input."""
    d.change(seen=())
    state = d.state
    if state.paused or not state.display_up or state.focus is None or state.excluded_by is not None:
        return
    d.snapshot(state.focus, "forget", True, seen.now_ms)


def _clock_jumped(d: _Decision, seen: ClockJumped) -> None:
    """The wall clock was set: bursts end at the jump (none runs across it),
    the remembered times start again from the new clock (a clock set back
    must not hold the heartbeat and idle off for hours), and the focused
    window is seen again at the new time."""
    now = seen.now_ms
    d.close_bursts()
    d.change(last_input_ms=now, focus_ms=now,
             screens=tuple(replace(screen, last_snapshot_ms=now) for screen in d.state.screens))
    state = d.state
    if state.paused or not state.display_up or state.focus is None or state.excluded_by is not None:
        return
    d.snapshot(state.focus, "clock", True, now)


def _apply(d: _Decision, seen: Observation) -> None:
    """The one rule for this kind of observation."""
    match seen:
        case Started():
            _started(d, seen)
        case FocusMoved():
            _focus_moved(d, seen)
        case TitleSeen():
            _title_seen(d, seen)
        case Tick():
            _tick(d, seen)
        case InputSeen():
            _input_seen(d, seen)
        case Pause():
            _pause(d, seen)
        case Resume():
            _resume(d, seen)
        case DisplayGone():
            _display_gone(d, seen)
        case DisplayBack():
            _display_back(d, seen)
        case AccessibilityBus():
            _accessibility_bus(d, seen)
        case AccessibilityAnswer():
            _accessibility_answer(d, seen)
        case AccessibilityAnswered():
            _accessibility_answered(d, seen)
        case WindowGone():
            _window_gone(d, seen)
        case SourceFailed():
            _source_failed(d, seen)
        case Forgot():
            _forgot(d, seen)
        case ClockJumped():
            _clock_jumped(d, seen)
        case IdleReported():
            _idle_reported(d, seen)
        case _:
            assert_never(seen)
