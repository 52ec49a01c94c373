"""The decision core on focus, titles, idle, heartbeats and what the
accessibility worker answers: hand-worked operation lists, no desktop."""

from __future__ import annotations

from dataclasses import replace

from capturer.decide import (
    AccessibilityAnswer,
    AccessibilityBus,
    BlindSpot,
    ClockJumped,
    CloseBlindSpot,
    CloseBursts,
    CountInput,
    FocusMoved,
    Forgot,
    InputSeen,
    OpenBlindSpot,
    PointAccessibility,
    Screen,
    Tick,
    TitleSeen,
    WatchHung,
    WatchTitle,
    WindowGone,
    WriteSnapshot,
)
from support.capture_state import FORM, LEFT, NOTES, RIGHT, connected, run


def test_first_focus_takes_a_focus_snapshot_on_the_window_s_monitor():
    state, [ops] = run(connected(), FocusMoved(1_000, FORM.window_id, FORM))
    assert ops == (CloseBursts(None), WatchTitle(FORM.window_id), PointAccessibility(FORM),
                   WriteSnapshot(FORM, "focus", True, LEFT, False))
    assert state.focus == FORM
    assert state.screens == (Screen(0, FORM, 1_000),)


def test_moving_focus_closes_the_bursts_typed_into_the_last_window():
    state, [_, ops] = run(connected(), FocusMoved(1_000, FORM.window_id, FORM),
                          FocusMoved(2_000, NOTES.window_id, NOTES))
    assert ops == (CloseBursts(FORM), WatchTitle(NOTES.window_id), PointAccessibility(NOTES),
                   WriteSnapshot(NOTES, "focus", True, RIGHT, False))
    assert state.screens == (Screen(0, FORM, 1_000), Screen(1, NOTES, 2_000))


def test_focus_reported_again_on_the_same_window_changes_nothing():
    before, _ = run(connected(), FocusMoved(1_000, FORM.window_id, FORM))
    after, [ops] = run(before, FocusMoved(1_500, FORM.window_id, FORM))
    assert ops == () and after == before


def test_focus_on_a_window_that_vanished_leaves_no_focus():
    state, [_, ops] = run(connected(), FocusMoved(1_000, FORM.window_id, FORM),
                          FocusMoved(2_000, NOTES.window_id, None))
    assert ops == (CloseBursts(FORM), WatchTitle(None), PointAccessibility(None))
    assert state.focus is None
    # X still reports that id: the next check tries again.
    _, [again] = run(state, FocusMoved(3_000, NOTES.window_id, NOTES))
    assert again[-1] == WriteSnapshot(NOTES, "focus", True, RIGHT, False)


def test_a_new_title_of_the_focused_window_takes_a_title_snapshot():
    retitled = replace(FORM, title="Phantom Form — sent")
    state, [_, ops, same, other] = run(
        connected(), FocusMoved(1_000, FORM.window_id, FORM), TitleSeen(4_000, retitled),
        TitleSeen(4_500, retitled), TitleSeen(5_000, replace(NOTES, title="groceries")))
    assert ops == (PointAccessibility(retitled), WriteSnapshot(retitled, "title", True, LEFT, False))
    assert same == () and other == ()       # unchanged title; not the focused window
    assert state.focus == retitled and state.screens == (Screen(0, retitled, 4_000),)


def test_heartbeats_every_period_per_monitor_focused_or_not():
    state, [_, _, early, due] = run(
        connected(), FocusMoved(1_000, FORM.window_id, FORM), FocusMoved(2_000, NOTES.window_id, NOTES),
        Tick(30_999), Tick(32_000))
    assert early == ()
    assert due == (WriteSnapshot(FORM, "heartbeat", False, LEFT, False),
                   WriteSnapshot(NOTES, "heartbeat", True, RIGHT, False))
    assert state.screens == (Screen(0, FORM, 32_000), Screen(1, NOTES, 32_000))


def test_a_window_gone_from_its_monitor_has_no_more_heartbeats():
    state, [_, _, gone, later] = run(
        connected(), FocusMoved(1_000, FORM.window_id, FORM), FocusMoved(2_000, NOTES.window_id, NOTES),
        WindowGone(31_500, FORM), Tick(62_000))
    assert gone == ()
    assert later == (WriteSnapshot(NOTES, "heartbeat", True, RIGHT, False),)
    assert state.screens == (Screen(0, None, 1_000), Screen(1, NOTES, 62_000))


def test_idle_after_two_minutes_without_input_then_heartbeats_five_times_slower():
    # Started at 0 counts as the last input. Input at 10 s; idle from 130 s.
    state, steps = run(
        connected(), FocusMoved(1_000, FORM.window_id, FORM), InputSeen(10_000),
        Tick(129_999), Tick(130_000), Tick(279_999), Tick(280_000))
    _, counted, busy, enters, quiet, slow = steps
    assert counted == (CountInput(FORM),)
    # 129.999 s: not idle yet, but 30 s since the focus snapshot: a heartbeat.
    assert busy == (WriteSnapshot(FORM, "heartbeat", True, LEFT, False),)
    assert enters == (WriteSnapshot(FORM, "idle", True, LEFT, True),)
    assert quiet == ()                       # 149.999 s since the idle snapshot
    assert slow == (WriteSnapshot(FORM, "heartbeat", True, LEFT, True),)
    assert state.idle


def test_input_ends_idle_at_the_next_tick_with_an_active_snapshot():
    idle, _ = run(connected(), FocusMoved(1_000, FORM.window_id, FORM), Tick(120_000))
    assert idle.idle
    state, [counted, leaves] = run(idle, InputSeen(125_000), Tick(125_400))
    assert counted == (CountInput(FORM),)
    assert leaves == (WriteSnapshot(FORM, "active", True, LEFT, False),)
    assert not state.idle and state.last_input_ms == 125_000


def test_an_unreadable_focused_window_is_a_blind_spot_until_one_answers():
    state, [hung, again, fine] = run(
        connected(), AccessibilityAnswer(1_100, FORM, "hung"), AccessibilityAnswer(1_200, FORM, "hung"),
        AccessibilityAnswer(9_000, FORM, "ok"))
    assert hung == (OpenBlindSpot("no_accessibility", "hung", 1_100), WatchHung(FORM))
    assert again == (WatchHung(FORM),)
    assert fine == (CloseBlindSpot("no_accessibility", 9_000),)
    assert state.blind_spots == ()


def test_the_blind_spot_names_the_app_and_its_toolkit_and_a_new_cause_starts_a_new_one():
    xaw = "Xaw (X athena widgets): Xaw has no AT-SPI support"
    _, [first, same, other] = run(
        connected(), AccessibilityAnswer(1_100, FORM, "no_app", detail=xaw),
        AccessibilityAnswer(1_200, FORM, "no_app", detail=xaw),
        AccessibilityAnswer(1_300, NOTES, "no_app", detail="Tk: Tk has no AT-SPI support"))
    assert first == (OpenBlindSpot("no_accessibility", f"no_app: {FORM.app}, {xaw}", 1_100),)
    assert same == ()
    assert other == (CloseBlindSpot("no_accessibility", 1_300),
                     OpenBlindSpot("no_accessibility", f"no_app: {NOTES.app}, Tk: Tk has no AT-SPI support", 1_300))


def test_a_late_answer_counts_only_while_its_window_has_focus():
    focused, _ = run(connected(), FocusMoved(1_000, NOTES.window_id, NOTES))
    _, [elsewhere, here, late_ok] = run(
        focused, AccessibilityAnswer(1_300, FORM, "no_app", late=True),
        AccessibilityAnswer(1_400, NOTES, "no_app", late=True),
        AccessibilityAnswer(1_500, NOTES, "ok", late=True))
    assert elsewhere == ()
    assert here == (OpenBlindSpot("no_accessibility", "no_app", 1_400),)
    assert late_ok == ()


def test_a_change_of_focus_closes_the_no_accessibility_blind_spot():
    state, [_, ops] = run(connected(), AccessibilityAnswer(900, FORM, "unavailable"),
                          FocusMoved(1_000, NOTES.window_id, NOTES))
    assert ops[:3] == (CloseBursts(None), WatchTitle(NOTES.window_id), CloseBlindSpot("no_accessibility", 1_000))
    assert state.blind_spots == ()


def test_an_unreachable_accessibility_bus_at_start_is_a_blind_spot():
    state, [down] = run(connected(), AccessibilityBus(5, "unavailable"))
    assert down == (OpenBlindSpot("no_accessibility", "accessibility bus unavailable", 5),)
    assert state.blind_spots == (BlindSpot("no_accessibility", "accessibility bus unavailable"),)
    _, [disabled] = run(connected(), AccessibilityBus(6, "disabled"))
    assert disabled == ()     # switched off in the settings: not a fault


def test_after_a_forget_the_focused_window_is_seen_again_and_others_at_their_first_input():
    before, _ = run(connected(), FocusMoved(1_000, FORM.window_id, FORM), InputSeen(1_500, NOTES))
    state, [ops] = run(before, Forgot(5_000))
    assert ops == (WriteSnapshot(FORM, "forget", True, LEFT, False),)
    assert state.seen == (FORM.key,)
    _, [ops] = run(state, InputSeen(5_500, NOTES))
    assert WriteSnapshot(NOTES, "input", False, RIGHT, False) in ops


def test_a_clock_set_back_ends_the_bursts_and_restarts_the_remembered_times():
    before, _ = run(connected(), FocusMoved(10_000_000, FORM.window_id, FORM), InputSeen(10_000_500, FORM))
    state, [ops] = run(before, ClockJumped(2_000))
    assert ops == (CloseBursts(FORM), WriteSnapshot(FORM, "clock", True, LEFT, False))
    assert state.last_input_ms == 2_000 and state.screens == (Screen(0, FORM, 2_000),)
    _, [later] = run(state, Tick(2_000 + 31_000))      # heartbeats go on by the new clock
    assert WriteSnapshot(FORM, "heartbeat", True, LEFT, False) in later
