"""The answerability benchmark's block reader (bench/block_reader.py) reads
the golden blocks back, by the grammar docs/COMPACT_BLOCK.md gives, into the
facts the JSON document of the same day holds: a reader that drifted from
the renderer would fail here, not silently in the benchmark."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from bench.block_reader import read, seconds

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
DAYS = [("recorded/desktop.2026-11-29", 1), ("synthetic/day.2026-03-02", 2)]


@pytest.mark.parametrize("stem, monitors", DAYS)
def test_every_line_of_a_golden_block_is_read_and_agrees_with_its_json(stem, monitors):
    block = read((FIXTURES / f"{stem}.compact.txt").read_text())
    document = orjson.loads((FIXTURES / f"{stem}.json").read_bytes())
    assert block.unread == []
    coverage = document["coverage"]
    assert block.first == coverage["first_activity"][11:16] and block.last == coverage["last_activity"][11:16]
    assert block.frames_total == len(document["frames"])
    assert len(block.frames) + block.frames_omitted == block.frames_total
    assert abs(block.active - coverage["active_minutes"] * 60) <= 30
    assert abs(block.active + block.idle + block.away - block.span) <= 90   # each DUR rounds ±30 s
    by_start = {}
    for frame in document["frames"]:
        by_start.setdefault((frame["start"][11:16], frame["app"]), []).append(frame)
    for line in block.frames:
        candidates = by_start[(line.start, line.app)]
        assert any({k: v for k, v in (("keys", f["input"]["keys"]), ("clicks", f["input"]["clicks"]),
                                      ("copies", f["input"]["copies"]), ("scrolls", f["input"]["scrolls"]))
                    if v} == line.input for f in candidates)
    assert len(block.silences) + block.silences_more == len(coverage["no_input"])
    assert [g.start for g in block.gaps] == [g["start"][11:16] for g in coverage["gaps"]]


def test_pages_and_routines_are_read():
    block = read((FIXTURES / "recorded/desktop.2026-11-29.compact.txt").read_text())
    pr = [f for f in block.frames if f.site == "github.com"][0]
    assert [(p.kind, p.name, p.visits) for p in pr.pages] == [
        ("github_pull_request", "phantom-desktop/phantom#42", 1)]
    assert [f for f in block.frames if f.app == "phantom-form"][0].pages == ()   # window titles
    assert [(r[0], r[1]) for r in block.routines] == [("r-b48f920ac2d5", 4), ("r-161d336cf1e3", 3)]


def test_durations_read_back():
    assert [seconds(t) for t in ("0s", "59s", "1m", "45m", "1h02m", "10h09m")] == [
        0, 59, 60, 2700, 3720, 36540]


@pytest.mark.parametrize("stem, monitors", DAYS)
def test_the_apps_line_sums_every_frame_of_the_json(stem, monitors):
    # the frames the budget cut are in the totals too: they are the JSON's sums
    block = read((FIXTURES / f"{stem}.compact.txt").read_text())
    document = orjson.loads((FIXTURES / f"{stem}.json").read_bytes())
    sums: dict[str, list[float]] = {}
    for frame in document["frames"]:
        entry = sums.setdefault(frame["app"], [0.0, 0, 0])
        entry[0] += frame["active_seconds"]
        entry[1] += frame["input"]["keys"]
        entry[2] += frame["input"]["clicks"]
        for detour in frame["interruptions"]:      # a detour's time and input are its app's
            entry = sums.setdefault(detour["app"], [0.0, 0, 0])
            entry[0] += detour["seconds"]
            entry[1] += (detour.get("input") or {}).get("keys", 0)
            entry[2] += (detour.get("input") or {}).get("clicks", 0)
    assert sorted(t.app for t in block.apps_total) == sorted(sums) and block.apps_more == 0
    for total in block.apps_total:
        active, keys, clicks = sums[total.app]
        assert (total.keys, total.clicks) == (keys, clicks)
        # a DUR: to the minute, or the second (and a detour's JSON seconds are rounded too)
        assert abs(total.active - active) <= (30 if active >= 60 else 1) + 1


def test_the_hour_line_names_what_held_each_full_hour():
    block = read((FIXTURES / "synthetic/day.2026-03-02.compact.txt").read_text())
    assert list(block.on_screen) == [f"{h:02d}:00" for h in range(9, 19)]
    assert all(apps for apps in block.on_screen.values() if apps) and not block.hours_cut


def test_a_tight_budget_says_the_head_was_cut():
    from compiler.api import compile_window, render

    compiled = compile_window(FIXTURES / "synthetic" / "day.sqlite3", day="2026-03-02")
    block = read(render(compiled, "compact", budget=300).decode())
    assert block.unread == [] and block.apps_total == [] and block.apps_more == 7
    assert block.on_screen == {} and block.hours_cut
