"""Judging two ticks' clocks (pure): a late tick on the boot clock is a
stretch the daemon did not run; wall and boot clocks moving apart is a
jump of the wall clock, its size in the reason."""

from __future__ import annotations

from capturer.sources.input_listener import MAX_QUEUED_MS, source_age_ms
from capturer.time_truth import CLOCK_JUMP, NOT_RUNNING, Reading, Stretch, gap_after_ms, judge, jump_reason

T = 1_772_438_400_000
HOUR = 3_600_000


def test_ticks_a_second_apart_are_nothing():
    assert judge(Reading(T, 5_000), Reading(T + 1_050, 6_050), gap_after=2_000) == ()
    assert judge(Reading(T, 5_000), Reading(T + 2_900, 6_000), gap_after=2_000) == ()   # NTP-sized


def test_a_stopped_or_suspended_daemon_is_not_running_from_its_last_tick():
    assert judge(Reading(T, 5_000), Reading(T + 31_000, 36_000), gap_after=10_000) == (
        Stretch(NOT_RUNNING, T, T + 31_000, "capture was suspended"),)


def test_a_clock_set_back_or_forward_is_a_jump_over_the_wall_time_between():
    back = judge(Reading(T, 5_000), Reading(T + 1_000 - 3 * HOUR, 6_000), gap_after=2_000)
    assert back == (Stretch(CLOCK_JUMP, T + 1_000 - 3 * HOUR, T + 1_000, "clock moved back 3 h"),)
    forward = judge(Reading(T, 5_000), Reading(T + 1_000 + 48 * HOUR, 6_000), gap_after=2_000)
    assert forward == (Stretch(CLOCK_JUMP, T + 1_000, T + 1_000 + 48 * HOUR, "clock moved forward 2 d"),)
    both = judge(Reading(T, 5_000), Reading(T - HOUR + 20_000, 25_000), gap_after=2_000)
    assert both == (Stretch(CLOCK_JUMP, T - HOUR + 20_000, T + 20_000, "clock moved back 1 h"),
                    Stretch(NOT_RUNNING, T - HOUR, T - HOUR + 20_000, "capture was suspended"))
    assert all(s.start_ms <= s.end_ms for s in back + forward + both)


def test_the_gap_follows_the_heartbeat_within_bounds_and_the_reason_reads():
    assert [gap_after_ms(ms) for ms in (500, 3_000, 30_000)] == [2_000, 3_000, 10_000]
    assert [jump_reason(ms) for ms in (-2_500, 90_000, -5_400_000, -10_799_997, 12_345_678)] == [
        "clock moved back 2.5 s", "clock moved forward 1.5 min", "clock moved back 1.5 h",
        "clock moved back 3 h", "clock moved forward 3.4 h"]


def test_an_x_server_stamp_is_an_age_on_the_monotonic_clock_across_its_32_bit_wrap():
    assert source_age_ms(9_000, 10_000) == 1_000
    assert source_age_ms((1 << 32) - 500, 1_500) == 2_000          # wrapped in between
    assert source_age_ms(10_004, 10_000) == 0                      # a coarse clock's jiffy ahead
    assert source_age_ms(20_000, 10_000) is None                   # not this clock
    assert source_age_ms(0, MAX_QUEUED_MS + 1) == MAX_QUEUED_MS + 1   # too old: the caller refuses it
