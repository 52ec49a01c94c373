"""Windows, monitors and a fold over observations for the decision-core
tests (`tests/capturer/test_decide*.py`): no desktop, no clock."""

from __future__ import annotations

from capturer.decide import CaptureState, DisplayBack, Rules, Started, decide
from capturer.sources.base import Monitor, WindowInfo

LEFT = Monitor(0, "left", 0, 0, 1280, 800, True)
RIGHT = Monitor(1, "right", 1280, 0, 1280, 800, False)
MONITORS = (LEFT, RIGHT)

FORM = WindowInfo(0x400001, "phantom-form", "phantom-form.Phantom-form", 4101, "/usr/bin/python3",
                  "Phantom Form", 0, 0, 300, 220)                      # centre (150, 110): left
NOTES = WindowInfo(0x500001, "phantom-notes", "phantom-notes.Phantom-notes", 4102, "/usr/bin/python3",
                   "Phantom Notes", 1400, 100, 420, 320)               # centre (1610, 260): right
VAULT = WindowInfo(0x600001, "keepassxc", "keepassxc.KeePassXC", 4103, "/usr/bin/keepassxc",
                   "Passwords.kdbx - KeePassXC", 200, 200, 600, 400)   # excluded by default

RULES = Rules(heartbeat_ms=30_000, idle_after_ms=120_000)


def connected(at_ms: int = 0) -> CaptureState:
    """Started unpaused at `at_ms`, display up with both monitors, no focus."""
    state, _ = decide(CaptureState(), Started(at_ms, paused=False), RULES)
    state, _ = decide(state, DisplayBack(at_ms, MONITORS), RULES)
    return state


def run(state: CaptureState, *observations) -> tuple[CaptureState, list[tuple]]:
    """Decide each observation in turn: the last state and each one's operations."""
    everything = []
    for observation in observations:
        state, ops = decide(state, observation, RULES)
        everything.append(ops)
    return state, everything
