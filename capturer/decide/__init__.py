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
- Losing and regaining the accessibility bus: `AccessibilityBus` (down opens
  `no_accessibility`, up closes it); reconnecting belongs to the supervisor,
  as the display's does.
- `hung` blind spots from the first unanswered call to the first answer:
  `AccessibilityAnswer` with the time of that first call, opened at it
  (`OpenBlindSpot.at_ms`) and closed by the next answer.
- Input rows naming the window that received them: `CountInput` and
  `CloseBursts` already carry that window; the input path writes it.
"""

from .observations import (
                           AccessibilityAnswer,
                           AccessibilityBus,
                           DisplayBack,
                           DisplayGone,
                           FocusMoved,
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
                           WatchTitle,
                           WriteSnapshot,
)
from .rules import decide
from .state import IDLE_HEARTBEAT_FACTOR, BlindSpot, CaptureState, Rules, Screen, is_new_focus, monitor_of, same_window

__all__ = [
    "AccessibilityAnswer", "AccessibilityBus", "BlindSpot", "CaptureState", "CloseBlindSpot",
    "CloseBursts", "CountInput", "DisplayBack", "DisplayGone", "FocusMoved", "IDLE_HEARTBEAT_FACTOR",
    "InputSeen", "Observation", "OpenBlindSpot", "Operation", "Pause", "PauseChanged",
    "PointAccessibility", "Resume", "Rules", "Screen", "SourceFailed", "Started", "Tick", "TitleSeen",
    "WatchTitle", "WindowGone", "WriteSnapshot", "decide", "is_new_focus", "monitor_of", "same_window",
]
