"""The decision core under faults: blind spots measure the fault itself — a
hung application from its first unanswered call to its first answer, a
lost accessibility bus until it is back whatever has focus, a lost display
until X answers. Hand-worked operation lists, no desktop."""

from __future__ import annotations

from capturer.decide import (
    AccessibilityAnswer,
    AccessibilityAnswered,
    AccessibilityBus,
    BlindSpot,
    CloseBlindSpot,
    DisplayBack,
    DisplayGone,
    FocusMoved,
    OpenBlindSpot,
    Pause,
    Resume,
    WatchHung,
)
from support.capture_state import FORM, MONITORS, NOTES, connected, run


def spots(ops) -> list:
    return [op for op in ops if isinstance(op, (OpenBlindSpot, CloseBlindSpot))]


def test_a_hung_application_is_blind_from_its_first_unanswered_call_to_its_first_answer():
    # Focus at 1 s; the context call made at 1.02 s times out and is answered
    # (as hung) at 1.82 s; the application answers again at 7.5 s.
    state, [_, hung, elsewhere, answered] = run(
        connected(), FocusMoved(1_000, FORM.window_id, FORM),
        AccessibilityAnswer(1_820, FORM, "hung", late=True, since_ms=1_020),
        AccessibilityAnswered(7_000, NOTES), AccessibilityAnswered(7_500, FORM))
    assert hung == (OpenBlindSpot("no_accessibility", "hung", 1_020), WatchHung(FORM))
    assert elsewhere == ()                       # another application's answer says nothing of this one
    assert answered == (CloseBlindSpot("no_accessibility", 7_500),)
    assert state.blind_spots == ()


def test_a_hung_application_focused_again_is_blind_from_that_focus_not_from_its_first_silence():
    state, [_, _, back_to_form, still_hung] = run(
        connected(), FocusMoved(1_000, FORM.window_id, FORM),
        FocusMoved(2_000, NOTES.window_id, NOTES), FocusMoved(9_000, FORM.window_id, FORM),
        AccessibilityAnswer(9_050, FORM, "hung", since_ms=1_020))
    assert still_hung[0] == OpenBlindSpot("no_accessibility", "hung", 9_000)


def test_a_lost_accessibility_bus_stays_a_blind_spot_whatever_has_focus_until_it_is_back():
    state, [lost, focus, answer, back] = run(
        connected(), AccessibilityBus(2_000, "lost"), FocusMoved(3_000, NOTES.window_id, NOTES),
        AccessibilityAnswer(3_100, NOTES, "ok"), AccessibilityBus(8_000, "ok"))
    assert lost == (OpenBlindSpot("no_accessibility", "accessibility bus lost", 2_000),)
    assert spots(focus) == [] and answer == ()
    assert back == (CloseBlindSpot("no_accessibility", 8_000),)
    assert state.blind_spots == ()


def test_a_pause_or_a_lost_display_covers_a_lost_bus_which_is_blind_again_after_them():
    _, [_, pause, resume, gone, returned] = run(
        connected(), AccessibilityBus(2_000, "lost"), Pause(3_000), Resume(4_000, FORM),
        DisplayGone(5_000), DisplayBack(6_000, MONITORS))
    assert spots(pause) == [CloseBlindSpot("no_accessibility", 3_000),
                            OpenBlindSpot("paused", "paused by the user", 3_000)]
    assert spots(resume) == [CloseBlindSpot("paused", 4_000),
                             OpenBlindSpot("no_accessibility", "accessibility bus lost", 4_000)]
    assert spots(gone) == [CloseBlindSpot("no_accessibility", 5_000),
                           OpenBlindSpot("display_lost", "X server unreachable", 5_000)]
    assert spots(returned) == [CloseBlindSpot("display_lost", 6_000),
                               OpenBlindSpot("no_accessibility", "accessibility bus lost", 6_000)]


def test_the_display_is_lost_until_the_moment_x_answers():
    state, [gone, back] = run(connected(), DisplayGone(10_000), DisplayBack(16_250, MONITORS))
    assert spots(gone) == [OpenBlindSpot("display_lost", "X server unreachable", 10_000)]
    assert spots(back) == [CloseBlindSpot("display_lost", 16_250)]
    assert state.display_up and state.blind_spots == ()


def test_a_bus_unreachable_before_the_display_is_up_is_blind_from_the_display_s_return():
    from capturer.decide import CaptureState, Started, decide
    from support.capture_state import RULES

    state, _ = decide(CaptureState(), Started(0, paused=False), RULES)
    state, ops = decide(state, AccessibilityBus(10, "unavailable"), RULES)
    assert ops == ()             # the display is not up yet: nothing is being missed
    state, ops = decide(state, DisplayBack(40, MONITORS), RULES)
    assert ops == (OpenBlindSpot("no_accessibility", "accessibility bus unavailable", 40),)
    assert state.blind_spots == (BlindSpot("no_accessibility", "accessibility bus unavailable"),)
