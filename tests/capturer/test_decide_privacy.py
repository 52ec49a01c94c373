"""The decision core on pause and resume, excluded windows, a lost display
and failing sources: hand-worked operation lists, no desktop."""

from __future__ import annotations

from dataclasses import replace

from capturer.decide import (
    AccessibilityAnswer,
    BlindSpot,
    CaptureState,
    CloseBlindSpot,
    CloseBursts,
    CountInput,
    DisplayBack,
    DisplayGone,
    FocusMoved,
    InputSeen,
    OpenBlindSpot,
    Pause,
    PauseChanged,
    PointAccessibility,
    Resume,
    Rules,
    SourceFailed,
    Started,
    Tick,
    TitleSeen,
    WatchTitle,
    WriteSnapshot,
    decide,
)
from capturer.privacy import ExclusionRule
from support.capture_state import FORM, LEFT, MONITORS, NOTES, RIGHT, VAULT, connected, run

VAULT_RULE = "password manager (keepassxc)"


def test_pause_stops_everything_and_opens_a_paused_blind_spot():
    focused, _ = run(connected(), FocusMoved(1_000, FORM.window_id, FORM))
    state, [ops, again, typed, moved, tick] = run(
        focused, Pause(5_000), Pause(5_500), InputSeen(6_000),
        FocusMoved(7_000, NOTES.window_id, NOTES), Tick(40_000))
    assert ops == (CloseBursts(FORM), PointAccessibility(None),
                   OpenBlindSpot("paused", "paused by the user", 5_000), PauseChanged(True))
    assert again == () and typed == () and moved == ()
    assert tick == ()                        # the heartbeat was due: no snapshot while paused
    assert state.paused and state.focus is None and state.last_input_ms == 6_000


def test_pause_closes_the_excluded_and_no_accessibility_blind_spots():
    state, [_, _, ops] = run(connected(), AccessibilityAnswer(500, NOTES, "hung"),
                             FocusMoved(1_000, VAULT.window_id, VAULT), Pause(2_000))
    assert ops == (CloseBursts(VAULT), PointAccessibility(None), CloseBlindSpot("excluded", 2_000),
                   OpenBlindSpot("paused", "paused by the user", 2_000), PauseChanged(True))
    assert state.blind_spots == (BlindSpot("paused", "paused by the user"),)
    assert state.excluded_by is None


def test_resume_closes_the_blind_spot_and_takes_a_fresh_snapshot():
    paused, _ = run(connected(), FocusMoved(1_000, FORM.window_id, FORM), Pause(5_000))
    state, [ops, again] = run(paused, Resume(9_000, NOTES), Resume(9_500, FORM))
    assert ops == (CloseBlindSpot("paused", 9_000), PauseChanged(False), WatchTitle(NOTES.window_id),
                   PointAccessibility(NOTES), WriteSnapshot(NOTES, "resume", True, RIGHT, False))
    assert again == ()
    assert state.focus == NOTES and state.blind_spots == ()
    _, [typed] = run(state, InputSeen(9_600))
    assert typed == (CountInput(NOTES),)


def test_resume_with_nothing_focused_or_no_display_takes_no_snapshot():
    paused, _ = run(connected(), Pause(5_000))
    _, [nothing] = run(paused, Resume(6_000, None))
    assert nothing == (CloseBlindSpot("paused", 6_000), PauseChanged(False), WatchTitle(None))
    offline, _ = run(paused, DisplayGone(5_500))
    _, [no_display] = run(offline, Resume(6_000, None))
    assert no_display == (CloseBlindSpot("paused", 6_000), PauseChanged(False))


def test_a_pause_remembered_by_the_store_is_a_blind_spot_from_the_start():
    state, [ops] = run(CaptureState(), Started(100, paused=True))
    assert ops == (OpenBlindSpot("paused", "paused by the user", 100),)
    assert state.paused and state.last_input_ms == 100


def test_an_excluded_window_is_a_blind_spot_without_snapshot_or_input():
    focused, _ = run(connected(), FocusMoved(1_000, FORM.window_id, FORM))
    state, [ops, typed, tick] = run(focused, FocusMoved(2_000, VAULT.window_id, VAULT),
                                    InputSeen(2_500), Tick(31_000))
    assert ops == (CloseBursts(FORM), WatchTitle(VAULT.window_id),
                   OpenBlindSpot("excluded", VAULT_RULE, 2_000), PointAccessibility(None))
    assert typed == ()
    # The form, last shown on the left monitor, keeps its (unfocused) heartbeat.
    assert tick == (WriteSnapshot(FORM, "heartbeat", False, LEFT, False),)
    assert state.focus == VAULT and state.excluded_by == VAULT_RULE


def test_leaving_the_excluded_window_closes_its_blind_spot():
    excluded, _ = run(connected(), FocusMoved(2_000, VAULT.window_id, VAULT))
    state, [ops] = run(excluded, FocusMoved(3_000, FORM.window_id, FORM))
    assert ops == (CloseBursts(VAULT), WatchTitle(FORM.window_id), CloseBlindSpot("excluded", 3_000),
                   PointAccessibility(FORM), WriteSnapshot(FORM, "focus", True, LEFT, False))
    assert state.blind_spots == () and state.excluded_by is None


def test_a_title_that_matches_a_rule_excludes_the_window_it_belongs_to():
    private = replace(FORM, title="Bank — Private Browsing")
    incognito = replace(FORM, title="Bank — Incognito")
    focused, _ = run(connected(), FocusMoved(1_000, FORM.window_id, FORM), InputSeen(1_200))
    state, [ops, same_rule, back] = run(focused, TitleSeen(2_000, private), TitleSeen(2_100, incognito),
                                        TitleSeen(3_000, FORM))
    # the open bursts went to the window as it was when the input arrived
    assert ops == (CloseBursts(FORM), OpenBlindSpot("excluded", "private browser window", 2_000),
                   PointAccessibility(None))
    assert same_rule == (CloseBursts(incognito), PointAccessibility(None))
    assert back == (CloseBlindSpot("excluded", 3_000), PointAccessibility(FORM),
                    WriteSnapshot(FORM, "title", True, LEFT, False))
    assert state.excluded_by is None


def test_a_title_matching_another_rule_closes_one_blind_spot_and_opens_the_next():
    rules = Rules(exclusions=(ExclusionRule("bank", title_regex="Bank"),
                              ExclusionRule("diary", title_regex="Diary")))
    state = connected()
    state, _ = decide(state, FocusMoved(1_000, FORM.window_id, replace(FORM, title="Bank")), rules)
    state, ops = decide(state, TitleSeen(2_000, replace(FORM, title="Diary")), rules)
    assert ops == (CloseBursts(replace(FORM, title="Diary")), CloseBlindSpot("excluded", 2_000),
                   OpenBlindSpot("excluded", "diary", 2_000), PointAccessibility(None))
    assert state.excluded_by == "diary"


def test_losing_the_display_is_one_blind_spot_until_it_is_back():
    focused, _ = run(connected(), FocusMoved(1_000, FORM.window_id, FORM),
                     AccessibilityAnswer(1_100, FORM, "no_app"))
    state, [lost, again, typed, tick, moved] = run(
        focused, DisplayGone(4_000), DisplayGone(4_500), InputSeen(5_000), Tick(40_000),
        FocusMoved(6_000, NOTES.window_id, NOTES))
    assert lost == (CloseBursts(FORM), PointAccessibility(None), CloseBlindSpot("no_accessibility", 4_000),
                    OpenBlindSpot("display_lost", "X server unreachable", 4_000))
    assert again == typed == tick == moved == ()
    assert not state.display_up and state.focus is None
    back, [ops, first] = run(state, DisplayBack(9_000, MONITORS), FocusMoved(9_500, FORM.window_id, FORM))
    assert ops == (CloseBlindSpot("display_lost", 9_000),)
    assert first == (CloseBursts(None), WatchTitle(FORM.window_id), PointAccessibility(FORM),
                     WriteSnapshot(FORM, "focus", True, LEFT, False))
    assert back.blind_spots == ()


def test_no_display_at_start_is_a_display_lost_blind_spot():
    started, _ = run(CaptureState(), Started(0, paused=False))
    state, [ops] = run(started, DisplayGone(10))
    assert ops == (CloseBursts(None), PointAccessibility(None),
                   OpenBlindSpot("display_lost", "X server unreachable", 10))


def test_a_source_failure_is_an_instant_blind_spot():
    state, [ops] = run(connected(), SourceFailed(700, "screenshot"))
    assert ops == (OpenBlindSpot("capture_error", "screenshot failed", 700),
                   CloseBlindSpot("capture_error", 700))
    assert state.blind_spots == ()
