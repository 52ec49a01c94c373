"""Times as people type them, read in the zone the capture recorded at that
time, against a clock that is passed in (the compiler never reads one)."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from compiler.resolve import resolve
from compiler.when import resolve_day, resolve_instant
from compiler.window import WindowError

BERLIN = "Europe/Berlin"


def ms(text: str) -> int:
    return int(datetime.fromisoformat(text).timestamp() * 1000)


NOW = ms("2026-03-04T15:30:00+01:00")  # a Wednesday afternoon in Berlin


def berlin(_ms: int) -> str:
    return BERLIN


class Store:
    """What `resolve` asks a capture source: the zone near an instant, the span."""

    def __init__(self, first: str | None, last: str | None, zone: str = BERLIN) -> None:
        self._span = (ms(first) if first else None, ms(last) if last else None)
        self._zone = zone

    def zone_near(self, _ms: int) -> str | None:
        return self._zone if self._span[0] is not None else None

    def span(self):
        return self._span


@pytest.mark.parametrize(("text", "expected"), [
    ("now", "2026-03-04T15:30:00+01:00"),
    ("today", "2026-03-04T00:00:00+01:00"),
    ("Yesterday", "2026-03-03T00:00:00+01:00"),
    ("yesterday 14:00", "2026-03-03T14:00:00+01:00"),
    ("14:00", "2026-03-04T14:00:00+01:00"),
    ("9:05:30", "2026-03-04T09:05:30+01:00"),
    ("-2h", "2026-03-04T13:30:00+01:00"),
    ("90m ago", "2026-03-04T14:00:00+01:00"),
    ("1 hour ago", "2026-03-04T14:30:00+01:00"),
    ("2 days ago", "2026-03-02T15:30:00+01:00"),
    ("-1w", "2026-02-25T15:30:00+01:00"),
    ("2026-03-02", "2026-03-02T00:00:00+01:00"),
    ("2026-03-02T09:00", "2026-03-02T09:00:00+01:00"),
    ("2026-03-02T09:00Z", "2026-03-02T10:00:00+01:00"),
])
def test_each_form_names_one_instant(text, expected):
    assert resolve_instant(text, NOW, berlin).ms == ms(expected)


def test_words_are_natural_and_written_out_times_are_not():
    assert resolve_instant("-2h", NOW, berlin).natural
    assert not resolve_instant("2026-03-02T09:00", NOW, berlin).natural


def test_a_time_today_is_read_in_the_zone_recorded_then():
    """The same 14:00 is another instant for a capture recorded in New York."""
    new_york = resolve_instant("14:00", NOW, lambda _: "America/New_York").ms
    assert new_york == ms("2026-03-04T14:00:00-05:00")


def test_days_follow_the_recorded_zone_across_midnight():
    late = ms("2026-03-04T23:30:00+00:00")  # already the 5th in Berlin
    assert resolve_day("today", late, berlin) == date(2026, 3, 5)
    assert resolve_day("today", late, lambda _: "UTC") == date(2026, 3, 4)


@pytest.mark.parametrize(("text", "message"), [
    ("teatime", "not a time: 'teatime'"), ("3 fortnights ago", "unknown unit"),
    ("-2h ago", "goes back twice"), ("24:00", "not a time of day"), ("", "an empty time"),
    ("2026-02-30", "not a date"), ("2026-03-02T25:00", "not an ISO 8601 time")])
def test_what_cannot_be_read_says_why(text, message):
    with pytest.raises(WindowError, match=message):
        resolve_instant(text, NOW, berlin)


@pytest.mark.parametrize("text", ["now", "today", "14:00", "-2h"])
def test_words_that_need_the_clock_are_refused_without_one(text):
    with pytest.raises(WindowError, match="relative to the current time"):
        resolve_instant(text, None, berlin)


# -- windows -----------------------------------------------------------------------------
STORE = Store("2026-03-02T08:00:00+01:00", "2026-03-04T15:00:00+01:00")


def test_no_window_is_today():
    window = resolve(STORE, None, None, None, None, NOW, default="today")
    assert (window.since_ms, window.until_ms, window.label) == (
        ms("2026-03-04T00:00:00+01:00"), ms("2026-03-05T00:00:00+01:00"), "2026-03-04")


def test_a_start_alone_runs_until_now_and_the_label_shows_the_instants():
    window = resolve(STORE, None, "-2h", None, None, NOW)
    assert (window.since_ms, window.until_ms) == (NOW - 7_200_000, NOW)
    assert window.label == "2026-03-04T13:30:00+01:00/2026-03-04T15:30:00+01:00"
    assert window.note == ""


def test_an_end_alone_starts_at_the_beginning_of_its_day():
    window = resolve(STORE, None, None, "14:00", None, NOW)
    assert (window.since_ms, window.until_ms) == (ms("2026-03-04T00:00:00+01:00"),
                                                  ms("2026-03-04T14:00:00+01:00"))


def test_written_out_ranges_keep_their_label():
    window = resolve(STORE, None, "2026-03-02T09:00", "2026-03-02T12:00", None, NOW)
    assert window.label == "2026-03-02T09:00/2026-03-02T12:00" and window.note == ""


def test_a_range_past_the_store_is_clamped_to_its_days_and_says_so():
    window = resolve(STORE, None, "1970-01-01", "2100-01-01", None, NOW)
    assert (window.since_ms, window.until_ms) == (ms("2026-03-02T00:00:00+01:00"),
                                                  ms("2026-03-05T00:00:00+01:00"))
    assert window.note == "clamped to the days the store holds (asked 1970-01-01/2100-01-01)"


def test_forget_and_export_windows_are_never_clamped_nor_limited():
    window = resolve(STORE, None, "1970-01-01", "2100-01-01", None, NOW, default="none", clamp=False)
    assert window.since_ms == ms("1970-01-01T00:00:00+01:00") and window.note == ""
    with pytest.raises(WindowError, match="give either a day or both since and until"):
        resolve(STORE, None, None, None, None, NOW, default="none", clamp=False)


def test_a_day_is_never_clamped():
    window = resolve(STORE, "2026-01-01", None, None, None, NOW)
    assert window.label == "2026-01-01" and window.note == ""


def test_tz_decides_the_zone_and_a_day_and_a_range_do_not_mix():
    window = resolve(STORE, "today", None, None, "UTC", NOW)
    assert window.since_ms == ms("2026-03-04T00:00:00+00:00") and window.zone == "UTC"
    with pytest.raises(WindowError, match="not both"):
        resolve(STORE, "today", "-2h", None, None, NOW)


def test_without_a_clock_a_half_range_is_refused_and_no_window_is_the_whole_history():
    with pytest.raises(WindowError, match="give both since and until"):
        resolve(STORE, None, "2026-03-02T09:00", None, None, None)
    assert resolve(STORE, None, None, None, None, None, default="today").label == "all"


def test_an_empty_store_reads_in_utc():
    window = resolve(Store(None, None), "today", None, None, None, NOW)
    assert window.zone == "UTC" and window.label == "2026-03-04"
