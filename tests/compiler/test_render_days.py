"""A window of many days in the compact block: every day with a dated
heading and its longest frame, dated gaps, the top routines, what was left
out said — within the budget. One day's block is untouched (the goldens)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from compiler.budget import estimate_tokens
from compiler.records import Coverage, Document, Frame, Gap, InferredItem, InputVolume, Provenance
from compiler.render.compact import render_compact
from compiler.timefmt import TimeFormat

BERLIN = 60  # minutes east of UTC in March


def ms(day: int, hour: int, minute: int = 0) -> int:
    """Local Berlin wall time on 2026-03-<day>, as UTC ms."""
    return int(datetime(2026, 3, day, tzinfo=timezone.utc).timestamp() * 1000
               + ((hour - 1) * 60 + minute) * 60_000)


def frame(index: int, day: int, hour: int, minutes: int, app: str) -> Frame:
    start = ms(day, hour)
    return Frame(f"f-{index:04d}", 0, app, None, start, start + minutes * 60_000, minutes * 60_000,
                 BERLIN, "Europe/Berlin", (f"{app} window {index}",), (), InputVolume(keys=3), (),
                 (), (index,), (), 0)


def twenty_days() -> Document:
    """Twenty weekdays (and the weekends between) of 40 frames each, a lunch
    gap a day and the night after it, and twelve routines."""
    frames, gaps, index = [], [], 0
    days = [d for d in range(2, 28) if datetime(2026, 3, d).weekday() < 5]
    for day in days:
        for n in range(40):
            index += 1
            frames.append(frame(index, day, 8 + n // 4, 5 + (n * 7 + day) % 30, f"app{n % 5}"))
        gaps.append(Gap(ms(day, 12), ms(day, 13), "away"))
        gaps.append(Gap(ms(day, 15), ms(day, 15, 10), "idle"))
        gaps.append(Gap(ms(day, 19), ms(day + 1, 8), "away"))  # the night: in the headings
    items = tuple(InferredItem("routine", " → ".join(f"click button 'Step {k}' in app{r}"
                                                    for k in range(8)), "high", "mined", (), (),
                               (("id", f"r-{r:012d}"), ("support", str(40 - r))))
                  for r in range(12))
    coverage = Coverage(frames[0].start_ms, frames[-1].end_ms, 3_600_000 * 150,
                        frames[-1].end_ms - frames[0].start_ms, tuple(gaps), (0,))
    provenance = Provenance("phantom.activity-frames/1", "0.1.0", "phantom", 3, ms(2, 0), ms(28, 0),
                            "Europe/Berlin", "ab" * 32, (("snapshots", 1),))
    return Document(coverage, tuple(frames), (), provenance, items)


@pytest.mark.parametrize("budget", [2000, 4000, 12000])
def test_twenty_days_fit_the_budget_with_every_day_gaps_and_routines(budget):
    document = twenty_days()
    text = render_compact(document, TimeFormat(None, BERLIN), "2026-03-02/2026-03-28", budget).decode()
    lines = text.splitlines()
    assert estimate_tokens(text) <= budget
    headings = [line for line in lines if line.startswith("== ")]
    worked = [h for h in headings if "frames" in h]
    assert len(worked) == 20 and worked[0].startswith("== 2026-03-02 Mon 08:00-")
    assert "== 2026-03-07 Sat – 2026-03-08 Sun: nothing captured" in headings
    assert all("; gap 12:00–13:00 away (1h00m)" in h for h in worked)
    for at, line in enumerate(lines):  # every day its longest frame, under it (and its gaps)
        if line in worked:
            after = lines[at + 2] if lines[at + 1].startswith("gaps: ") else lines[at + 1]
            assert after.startswith("- ") and " app" in after, line
    assert not any("–2026-03-" in line for line in lines)  # nights are not listed as gaps
    assert lines.count("inferred (interpretation; each item cites its evidence in the JSON "
                       "document):") == 1
    routines = [line for line in lines if line.startswith("- routine ")]
    assert routines[:2] == [line for line in routines if "r-000000000000" in line or
                            "r-000000000001" in line]
    assert lines[-2].startswith("(left out for the token budget: ") and "shorter frame(s)" in lines[-2]
    assert lines[1].startswith("coverage: 2026-03-02 08:00 – 2026-03-27 ")


def test_a_bigger_budget_shows_more_of_every_day():
    document = twenty_days()
    times = TimeFormat(None, BERLIN)
    small = render_compact(document, times, "w", 2000).decode().splitlines()
    big = render_compact(document, times, "w", 12000).decode().splitlines()

    def frames(lines: list[str]) -> int:
        return sum(1 for line in lines if line.startswith("- ") and "routine" not in line)

    assert frames(big) > 3 * frames(small)
    # a gap over 300 s is away; the screen was on, idle: said so
    assert any(line.startswith("gaps: 15:00–15:10 away, screen idle (10m)") for line in big)


def test_the_same_document_gives_the_same_bytes():
    times = TimeFormat(None, BERLIN)
    assert render_compact(twenty_days(), times, "w", 3000) == render_compact(twenty_days(), times,
                                                                              "w", 3000)
