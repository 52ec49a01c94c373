"""Idle from the compositor's word (Wayland's org_kde_kwin_idle), where no
input can be observed: once it has spoken, input-less time no longer
decides. Hand-worked operation lists, no desktop."""

from __future__ import annotations

from capturer.decide import FocusMoved, IdleReported, Tick, WriteSnapshot
from support.capture_state import FORM, LEFT, connected, run


def test_the_compositor_decides_idle_once_it_has_spoken():
    # Not idle said at start: two minutes and more without observed input stay active.
    state, steps = run(connected(), FocusMoved(1_000, FORM.window_id, FORM), IdleReported(1_500, False),
                       Tick(125_000))
    assert not state.idle and WriteSnapshot(FORM, "idle", True, LEFT, True) not in steps[-1]
    # Idle as the compositor says, at the next tick; back again the same way.
    state, [said, enters] = run(state, IdleReported(126_000, True), Tick(126_400))
    assert said == () and enters == (WriteSnapshot(FORM, "idle", True, LEFT, True),)
    state, [said, leaves] = run(state, IdleReported(130_000, False), Tick(130_500))
    assert said == () and leaves == (WriteSnapshot(FORM, "active", True, LEFT, False),)
    assert not state.idle


def test_without_the_compositor_idle_is_input_less_time_as_before():
    state, _ = run(connected(), FocusMoved(1_000, FORM.window_id, FORM), Tick(125_000))
    assert state.idle and state.reported_idle is None
