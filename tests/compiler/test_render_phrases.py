"""Phrases of the compact block: durations that keep their order of size,
and a frame's titles beyond the first when the window was renamed."""

from __future__ import annotations

import pytest

from compiler.records import Frame, InputVolume
from compiler.render.text import frame_summary
from compiler.timefmt import duration


@pytest.mark.parametrize(("ms", "text"), [
    (0, "0s"), (22_000, "22s"), (30_000, "30s"), (45_000, "45s"), (59_400, "59s"),
    (59_600, "1m"), (89_000, "1m"), (90_000, "2m"), (3_600_000, "1h00m"), (7_530_000, "2h06m")])
def test_durations_under_a_minute_are_seconds(ms, text):
    assert duration(ms) == text


def test_a_45_second_stretch_never_reads_longer_than_a_minute_one():
    assert duration(45_000) != duration(60_000)


def frame(*titles: str) -> Frame:
    return Frame("f-0001", 0, "gedit", None, 0, 1000, 1000, 0, "UTC", titles, (), InputVolume(),
                 (), (), (1,), (), 0)


def test_one_title_is_shown_as_it_is():
    assert frame_summary(frame("notes.txt - gedit")) == "notes.txt - gedit"


def test_a_renamed_window_shows_the_first_and_last_title_with_their_shared_ending_once():
    assert frame_summary(frame("Untitled Document 1 - gedit", "report.txt - gedit")) == \
        "Untitled Document 1 → report.txt - gedit"


def test_more_titles_are_counted():
    summary = frame_summary(frame("ls — ~/src", "make — ~/src", "git status — ~/src"))
    assert summary == "ls → git status — ~/src (3 titles)"


def test_long_titles_are_cut():
    summary = frame_summary(frame("a" * 100, "b" * 100))
    assert summary == "a" * 29 + "… → " + "b" * 59 + "…"
