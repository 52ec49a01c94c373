"""The compact block of a window longer than a day: one dated section per day.

A day's block lists times without dates, which is right for one day and
useless for twenty: every `08:37-09:20` is ambiguous, one gaps line ran to
thousands of characters, and the longest frames of the busiest days took
the whole budget, the inferred tier first. Here the window is read day by
day (local dates in the window's zone, or `--tz`):

    ACTIVITY …                      header, as for a day
    coverage: …                     the whole window, with dates
    == 2026-03-02 Mon 08:18-18:27, 458 frames; gap 12:09–12:54 away (45m)
    gaps: 10:07–10:16 idle (9m); …  that day's other gaps, when they fit
    - 08:27-08:35 …                 its longest frames, in time order, shorter
    == 2026-03-07 – 2026-03-08: nothing captured
    blind spots: …
    inferred …                      the top routines, each line kept short
    left out for the token budget: …
    provenance: …

The budget is shared, in this order: every day its heading; the two top
routines (each line cut short); every day with activity its longest frame;
the blind spots (at most a twelfth); more routines (the tier at most a
sixth); each day the line of its other gaps; then an even share of what is
left for more of each day's own longest frames, and what a day leaves
unspent goes to the others. A gap across midnight is not listed: the
headings' hours show the night. The last line before provenance says what
did not fit.
Deterministic like every renderer: the same document, the same bytes.
"""

from __future__ import annotations

from datetime import date, timedelta

from ..budget import estimate_tokens
from ..records import Document, Frame, Gap, InferredItem
from ..timefmt import TimeFormat, duration
from .text import frame_summary, frame_time, gap_reason, readable, where

GAPS_PER_DAY = 3
TOP_ROUTINES = 2
SUMMARY_CHARS = 56
LEFT_OUT_WORST = ("(left out for the token budget: 99999 shorter frame(s) on 999 day(s), 9999 gap(s), "
                  "99 routine(s), 99 blind-spot group(s))")
ROUTINE_CHARS = 120
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def spans_days(document: Document, times: TimeFormat) -> bool:
    """True when the window covers more than one local date."""
    provenance = document.provenance
    return _date(times, provenance.since_ms) != _date(times, max(provenance.since_ms,
                                                                 provenance.until_ms - 1))


def _date(times: TimeFormat, ms: int, offset: int | None = None) -> date:
    return times.local(ms, offset).date()


def render_days(document: Document, times: TimeFormat, head: list[str], spots: list[str],
                inferred_items: tuple[InferredItem, ...] | None, tail: list[str],
                budget: int) -> bytes:
    provenance = document.provenance
    first = _date(times, provenance.since_ms)
    last = _date(times, provenance.until_ms - 1)
    frames_by_day: dict[date, list[Frame]] = {}
    for frame in document.frames:
        frames_by_day.setdefault(_date(times, frame.start_ms, frame.utc_offset_min), []).append(frame)
    gaps_by_day: dict[date, list[Gap]] = {}
    for gap in document.coverage.gaps:
        if _date(times, gap.start_ms) == _date(times, gap.end_ms):  # a night is in the headings
            gaps_by_day.setdefault(_date(times, gap.start_ms), []).append(gap)

    sections = _sections(first, last, frames_by_day, gaps_by_day, times)
    inferred = _inferred(inferred_items)
    active = [s for s in sections if s.frames]
    remaining = budget - estimate_tokens("\n".join(
        head + tail + [s.heading for s in sections] + [LEFT_OUT_WORST]) + "\n")
    # In order: the top routines, every day's longest frame, the blind
    # spots, more routines, every day's other gaps, then an even share of
    # what is left for more of each day's longest frames, then the rest.
    routines = _Lines(inferred[:1], inferred[1:])
    remaining -= routines.take(remaining, most=TOP_ROUTINES)
    for section in active:
        remaining -= section.fill(times, remaining, most=1)
    spot_lines = list(spots)
    while spot_lines and estimate_tokens("blind spots: " + "; ".join(spot_lines) + "\n") > min(
            remaining, budget // 12):
        spot_lines.pop()
    if spot_lines:
        remaining -= estimate_tokens("blind spots: " + "; ".join(spot_lines) + "\n")
    remaining -= routines.take(min(remaining, budget // 6 - routines.cost))
    for section in active:
        remaining -= section.add_gaps(remaining)
    if active and remaining > 0:
        share = remaining // len(active)
        for section in active:
            remaining -= section.fill(times, share)
        for section in active:
            remaining -= section.fill(times, remaining)
    inferred_lines = routines.lines()
    kept_routines = inferred_lines[1:]
    lines = list(head)
    for section in sections:
        lines += section.lines()
    if spot_lines:
        lines.append("blind spots: " + "; ".join(spot_lines))
    lines += inferred_lines
    left = _left_out(sections, max(0, len(inferred) - 1 - len(kept_routines)),
                     len(spots) - len(spot_lines))
    if left:
        lines.append(left)
    lines += tail
    return ("\n".join(lines) + "\n").encode()


class _Lines:
    """A heading line and items taken in order while they fit."""

    def __init__(self, heading: list[str], items: list[str]) -> None:
        self.heading, self.items, self.kept, self.cost = heading, items, 0, 0

    def take(self, allowance: int, most: int | None = None) -> int:
        spent = 0
        while self.kept < len(self.items) and (most is None or most > 0):
            lines = self.heading + self.items[:self.kept + 1]
            cost = estimate_tokens("\n".join(lines) + "\n") - self.cost
            if spent + cost > allowance:
                break
            self.kept, self.cost, spent = self.kept + 1, self.cost + cost, spent + cost
            most = None if most is None else most - 1
        return spent

    def lines(self) -> list[str]:
        return self.heading + self.items[:self.kept] if self.kept else []


class _Day:
    """One day's section: a heading (with its longest gap), its other gaps
    when they fit, and the longest frames that fit, in time order."""

    def __init__(self, heading: str, gaps: list[str], frames: list[Frame]) -> None:
        self.heading = heading
        self.gaps = gaps
        self.gaps_line = ""
        self.frames = frames
        self.kept: dict[str, str] = {}
        self._queue = sorted(frames, key=lambda f: (-f.active_ms, -(f.end_ms - f.start_ms), f.id))

    def fill(self, times: TimeFormat, allowance: int, most: int | None = None) -> int:
        """Add this day's longest frames while they fit `allowance` tokens."""
        spent = 0
        while self._queue and (most is None or most > 0):
            line = _frame_line(self._queue[0], times)
            cost = estimate_tokens(line + "\n")
            if spent + cost > allowance:
                break
            self.kept[self._queue.pop(0).id] = line
            spent += cost
            most = None if most is None else most - 1
        return spent

    def add_gaps(self, allowance: int) -> int:
        """The day's other gaps on one line, as many as fit (at most GAPS_PER_DAY)."""
        for count in range(min(len(self.gaps), GAPS_PER_DAY), 0, -1):
            more = len(self.gaps) - count
            line = "gaps: " + "; ".join(self.gaps[:count]) + (f"; +{more} more" if more else "")
            cost = estimate_tokens(line + "\n")
            if cost <= allowance:
                self.gaps_line = line
                return cost
        return 0

    @property
    def dropped(self) -> int:
        return len(self.frames) - len(self.kept)

    @property
    def gaps_left(self) -> int:
        shown = self.gaps_line.count("; ") + 1 - ("more" in self.gaps_line) if self.gaps_line else 0
        return len(self.gaps) - shown

    def lines(self) -> list[str]:
        return ([self.heading] + ([self.gaps_line] if self.gaps_line else [])
                + [self.kept[f.id] for f in self.frames if f.id in self.kept])


def _sections(first: date, last: date, frames_by_day: dict[date, list[Frame]],
              gaps_by_day: dict[date, list[Gap]], times: TimeFormat) -> list[_Day]:
    sections: list[_Day] = []
    empty_from: date | None = None
    day = first
    while day <= last:
        frames = frames_by_day.get(day, [])
        if not frames:
            empty_from = empty_from or day
        if empty_from is not None and (frames or day == last):
            until = day - timedelta(days=1) if frames else day
            span = _day_name(empty_from) + ("" if until == empty_from else f" – {_day_name(until)}")
            sections.append(_Day(f"== {span}: nothing captured", [], []))
            empty_from = None
        if frames:
            sections.append(_day_section(day, frames, gaps_by_day.get(day, []), times))
        day += timedelta(days=1)
    return sections


def _day_section(day: date, frames: list[Frame], gaps: list[Gap], times: TimeFormat) -> _Day:
    """The heading says the day's hours, frames and longest gap; the other
    gaps go on their own line when the budget allows."""
    start = min(f.start_ms for f in frames)
    end = max(f.end_ms for f in frames)
    heading = (f"== {_day_name(day)} {times.hm(start, frames[0].utc_offset_min)}-"
               f"{times.hm(end, frames[-1].utc_offset_min)}, {len(frames)} "
               f"frame{'' if len(frames) == 1 else 's'}")
    others = list(gaps)
    if gaps:
        longest = max(gaps, key=lambda g: (g.end_ms - g.start_ms, -g.start_ms))
        others.remove(longest)
        heading += f"; gap {_gap(longest, day, times)}"
    return _Day(heading, [_gap(gap, day, times) for gap in others], frames)


def _gap(gap: Gap, day: date, times: TimeFormat) -> str:
    """A gap, its end dated when it ends on another day."""
    end_day = _date(times, gap.end_ms)
    end = times.hm(gap.end_ms) if end_day == day else f"{end_day.isoformat()} {times.hm(gap.end_ms)}"
    return f"{times.hm(gap.start_ms)}–{end} {gap_reason(gap)} ({duration(gap.end_ms - gap.start_ms)})"


def _day_name(day: date) -> str:
    return f"{day.isoformat()} {_WEEKDAYS[day.weekday()]}"


def _frame_line(frame: Frame, times: TimeFormat) -> str:
    """Shorter than a day's frame line (no input counts, the summary cut):
    across many days, more frames matter more than their detail."""
    offset = frame.utc_offset_min
    summary = frame_summary(frame)
    if len(summary) > SUMMARY_CHARS:
        summary = summary[:SUMMARY_CHARS - 1] + "…"
    return (f"- {times.hm(frame.start_ms, offset)}-{times.hm(frame.end_ms, offset)} {where(frame)} "
            f"({frame_time(frame)}): {summary}")


def _inferred(items: tuple[InferredItem, ...] | None) -> list[str]:
    if not items:
        return []
    lines = ["inferred (interpretation; each item cites its evidence in the JSON document):"]
    for item in items:
        details = dict(item.details)
        text = readable(item.label)
        label = text if len(text) <= ROUTINE_CHARS else text[:ROUTINE_CHARS - 1] + "…"
        lines.append(f"- {item.kind} {details.get('id', '')} ×{details.get('support', '?')} "
                     f"[{item.confidence}]: {label}")
    return lines


def _left_out(sections: list[_Day], routines: int, spots: int) -> str:
    frames = sum(s.dropped for s in sections)
    days = sum(1 for s in sections if s.dropped)
    gaps = sum(s.gaps_left for s in sections)
    parts = []
    if frames:
        parts.append(f"{frames} shorter frame(s) on {days} day(s)")
    if gaps:
        parts.append(f"{gaps} gap(s)")
    if routines:
        parts.append(f"{routines} routine(s)")
    if spots:
        parts.append(f"{spots} blind-spot group(s)")
    return "(left out for the token budget: " + ", ".join(parts) + ")" if parts else ""
