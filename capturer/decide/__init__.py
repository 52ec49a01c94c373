"""The capture daemon's decisions, as a pure function: no I/O, no clock.

    state, operations = decide(state, observation, rules)

`state.py` holds what the rules remember (`CaptureState`, frozen) and the
settings they read (`Rules`); `observations.py` what the daemon saw (focus
moved, a title changed, a tick with the time, input, pause, resume, display
gone or back, what the accessibility worker answered); `operations.py` what
it must do (write a snapshot, open or close a blind spot, close the input
bursts, count input, point the accessibility worker, watch a title, remember
a pause). `rules.py` has one function per observation. The daemon performs
the operations in order and feeds back what it learns doing them (the
worker's answer for a snapshot, a window that has gone).

Where the next rules go:
- A window's identity (its X id plus a generation that X events advance,
  plus its owning pid): `same_window` and `is_new_focus` in `state.py`, with
  the generation carried by `WindowInfo` and `FocusMoved`. A reused X id
  with a new client then arrives as an ordinary `FocusMoved`, and
  `_Decision.show` takes a new snapshot and evaluates the exclusions again.
- Losing and regaining the accessibility bus: `AccessibilityBus` (`lost` or
  `unavailable` opens `no_accessibility` for whatever has focus, until the
  bus is `ok` again; focus changes do not end it). Finding out belongs to
  the daemon's bus watch; a returning bus re-executes the daemon.
- `hung` blind spots from the first unanswered call to the first answer:
  `AccessibilityAnswer.since_ms` is when that call was made (the spot opens
  there, `OpenBlindSpot.at_ms`), `WatchHung` asks the daemon to find out
  when the application answers again, `AccessibilityAnswered` closes it.
- `display_lost` until X answers: `DisplayBack.now_ms` is when it first
  did (the supervisor asks every quarter second while X is gone).
- Input rows naming the window that received them: `CountInput` and
  `CloseBursts` already carry that window; the input path writes it.
"""

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
from .rules import decide
from .state import BlindSpot, CaptureState, Rules, Screen, is_new_focus, monitor_of, same_window

__all__ = [
    "AccessibilityAnswer", "AccessibilityAnswered", "AccessibilityBus", "BlindSpot", "CaptureState",
    "ClockJumped", "CloseBlindSpot", "CloseBursts", "CountInput", "DisplayBack", "DisplayGone",
    "FocusMoved", "Forgot", "IdleReported", "InputSeen", "Observation", "OpenBlindSpot", "Operation",
    "Pause", "PauseChanged",
    "PointAccessibility", "Resume", "Rules", "Screen", "SourceFailed", "Started", "Tick", "TitleSeen",
    "WatchHung", "WatchTitle", "WindowGone", "WriteSnapshot", "decide", "is_new_focus", "monitor_of",
    "same_window",
]
