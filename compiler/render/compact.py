"""The compact context block for system prompts, within a token budget.

Lines, in order: a header, coverage, gaps, one line per frame, blind spots
(grouped by kind and reason), then the inferred tier under its own marker,
then provenance. When the block is over budget: blind-spot detail is cut to
at most half the budget, the inferred tier goes, then frames go from the
shortest active time up (the kept frames stay in time order and a line says
how many were left out). The header, coverage and provenance always stay.

A window over several local days is written by day instead (days.py); a
single day's block is unchanged by that.

Frames are written and costed longest first and only until the budget is
spent, so a day of several hundred frames does not format or estimate
every line.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..budget import estimate_tokens
from ..records import Document, Frame, Gap
from ..timefmt import TimeFormat, duration
from .days import render_days, spans_days
from .text import counted_note, frame_summary, frame_time, gap_line, input_summary, readable, spot_words, where
from .totals import LISTED_APPS, app_line, hour_line

DEFAULT_BUDGET = 2000
LISTED_SPOTS = 3   # a blind-spot kind with more stretches than this is summarized
LISTED_QUIET = 8   # idle/away stretches listed (the longest); the rest are counted
# The head's lists, shortened in this order until the head fits a third of
# the budget: silences listed, then the hour-by-hour line, then apps named.
_TIGHTER = ((LISTED_QUIET, True, LISTED_APPS), (4, True, LISTED_APPS), (2, True, LISTED_APPS),
            (1, True, LISTED_APPS), (0, True, LISTED_APPS), (0, False, LISTED_APPS), (0, False, 5),
            (0, False, 2), (0, False, 0))
OMITTED = "(+{n} shorter frame(s) left out for the token budget)"
OMITTED_ROUTINES = "(+{n} inferred routine(s) left out for the token budget)"


def render_compact(document: Document, times: TimeFormat, label: str,
                   budget: int = DEFAULT_BUDGET, note: str = "") -> bytes:
    for listed, hours, apps in _TIGHTER:   # a tight budget lists less in the head (and says how much more)
        head = _head(document, times, label, listed, hours, apps)
        if note:
            head.insert(1, f"window: {note}")
        if estimate_tokens("\n".join(head)) <= budget // 3:
            break
    if document.frames and spans_days(document, times):
        return _render_days(document, times, head, budget)
    frames = list(document.frames)
    frame_lines: dict[str, str] = {}  # only for the frames looked at
    spots = all_spots = _blind_lines(document, times)
    inferred = _inferred_lines(document)
    tail = _tail(document)

    # Choose frames longest first, costing only the lines it looks at: a
    # day of several hundred frames stops after the few dozen that fit.
    reserve = estimate_tokens(OMITTED.format(n=len(frames)) + "\n")
    if inferred:   # room to say the tier was left out, should it be
        reserve += estimate_tokens(OMITTED_ROUTINES.format(n=len(inferred) - 1) + "\n")
    fixed = estimate_tokens(_assemble(head, [], {}, set(), 0, spots, [], tail,
                                         len(all_spots) - len(spots)))
    while spots and fixed > budget // 2:
        # Blind-spot detail may take at most half a tight budget: a few
        # frames say more than the tail of that list.
        spots = spots[:-1]
        fixed = estimate_tokens(_assemble(head, [], {}, set(), 0, spots, [], tail,
                                         len(all_spots) - len(spots)))
    remaining = budget - fixed - reserve
    kept: set[str] = set()
    overflow = False
    for frame in sorted(frames, key=lambda f: (-f.active_ms, -(f.end_ms - f.start_ms), f.id)):
        line = frame_lines[frame.id] = _frame_line(frame, times)
        cost = estimate_tokens(line + "\n")
        if cost > remaining:
            overflow = True
            break
        kept.add(frame.id)
        remaining -= cost
    routines_cut = 0
    if overflow or (inferred and estimate_tokens("\n".join(inferred) + "\n") > remaining + reserve):
        routines_cut = max(0, len(inferred) - 1)
        inferred = []   # interpretation goes before any measured frame (and a line says so)
    dropped = len(frames) - len(kept)
    while spots and fixed > budget:
        spots = spots[:-1]
        fixed = estimate_tokens(_assemble(head, [], {}, set(), 0, spots, [], tail,
                                         len(all_spots) - len(spots)))
    if routines_cut:
        inferred = [OMITTED_ROUTINES.format(n=routines_cut)]
    return _assemble(head, frames, frame_lines, kept, dropped, spots, inferred, tail,
                     len(all_spots) - len(spots)).encode()


def _render_days(document: Document, times: TimeFormat, head: list[str], budget: int) -> bytes:
    """A window over several days: by day (see days.py), with a dated
    coverage line instead of the day's one and no window-wide gaps line."""
    coverage = document.coverage
    first, last = coverage.first_activity_ms, coverage.last_activity_ms
    assert first is not None and last is not None  # a document with frames has activity
    dated = (f"{times.local(first).date().isoformat()} {times.hm(first)} – "
             f"{times.local(last).date().isoformat()} {times.hm(last)}")
    apps = len({f.app for f in document.frames})
    at = next(i for i, line in enumerate(head) if line.startswith("coverage: "))
    head = head[:at] + [f"coverage: {dated}, {duration(coverage.active_ms)} active, "
                        f"{duration(coverage.idle_ms)} idle, {duration(coverage.away_ms)} away; "
                        f"{_n(len(coverage.monitors), 'monitor')}, {_n(apps, 'app')}, "
                        f"{_n(len(document.frames), 'frame')}"]
    return render_days(document, times, head, _blind_lines(document, times), document.inferred,
                       _tail(document), budget)


def _tail(document: Document) -> list[str]:
    return [f"provenance: {document.provenance.source} store v{document.provenance.store_schema}, "
            f"compiler {document.provenance.compiler_version}, input sha256:"
            f"{document.provenance.input_digest[:16]}"]


def _assemble(head: list[str], frames: Sequence[Frame], frame_lines: dict[str, str], kept: set[str], dropped: int,
              spots: list[str], inferred: list[str], tail: list[str], spot_cut: int = 0) -> str:
    lines = list(head)
    lines += [frame_lines[f.id] for f in frames if f.id in kept]
    if dropped:
        lines.append(OMITTED.format(n=dropped))
    if spots or spot_cut:
        lines.append("blind spots: " + "; ".join(spots + ([f"+{spot_cut} more"] if spot_cut else [])))
    lines += inferred
    lines += tail
    return "\n".join(lines) + "\n"


def _head(document: Document, times: TimeFormat, label: str, listed: int = LISTED_QUIET,
          hours: bool = True, apps_listed: int = LISTED_APPS) -> list[str]:
    coverage = document.coverage
    zone = document.provenance.zone
    head = [f"ACTIVITY {label} — local time {zone}; measured from screen capture, no interpretation "
            "above the 'inferred' line"]
    first, last = coverage.first_activity_ms, coverage.last_activity_ms
    if first is None or last is None:  # both or neither
        head.append("coverage: nothing captured in this window")
        return head
    apps = len({f.app for f in document.frames})
    head.append(f"coverage: {times.hm(first)}-{times.hm(last)}, "
                f"{duration(coverage.active_ms)} active, {duration(coverage.idle_ms)} idle, "
                f"{duration(coverage.away_ms)} away over {duration(coverage.span_ms)}; "
                f"{_n(len(coverage.monitors), 'monitor')}, {_n(apps, 'app')}, "
                f"{_n(len(document.frames), 'frame')}")
    if document.frames and not spans_days(document, times):   # a day: its totals survive the budget
        head.append(app_line(document.frames, apps_listed))
        away = coverage.gaps + tuple(q for q in coverage.quiet if q.reason == "away")
        by_hour = hour_line(document.frames, times, first, last, hours, away)
        if by_hour and apps_listed:   # with no app named either, the hour line is left out too
            head.append(by_hour)
    if coverage.gaps:
        head.append("gaps: " + "; ".join(gap_line(gap, times) for gap in coverage.gaps))
    if coverage.quiet:
        head.append(quiet_line(coverage.quiet, times, listed))
    return head


def quiet_line(stretches: Sequence[Gap], times: TimeFormat, listed: int = LISTED_QUIET) -> str:
    """The stretches with no input: the longest `listed` in time order,
    then how many more and how long they were in all."""
    shown = sorted(sorted(stretches, key=lambda g: (g.start_ms - g.end_ms, g.start_ms))[:listed])
    items = [gap_line(gap, times) for gap in shown]
    rest = [g for g in stretches if g not in shown]
    if rest:
        items.append(f"+{len(rest)} more ({duration(sum(g.end_ms - g.start_ms for g in rest))} in all)")
    return "no input: " + "; ".join(items)


def _frame_line(frame: Frame, times: TimeFormat) -> str:
    offset = frame.utc_offset_min
    line = (f"- {times.hm(frame.start_ms, offset)}-{times.hm(frame.end_ms, offset)} {where(frame)} "
            f"({frame_time(frame)}): {frame_summary(frame)}")
    volume = input_summary(frame)
    if volume:
        line += f" | {volume}"
    if frame.interruptions:
        line += f" | {_n(len(frame.interruptions), 'interruption')}"
    return line


def _blind_lines(document: Document, times: TimeFormat) -> list[str]:
    """Stored blind spots grouped by (kind, reason): a few are listed with
    their times, many are summarized with a count and total duration."""
    groups: dict[tuple[str, str], list[tuple[int, int]]] = {}   # (kind, reason) -> (start, end) spans
    lines = []
    for note in document.blind_spots:
        if note.start_ms is not None and note.end_ms is not None:
            groups.setdefault((note.kind, note.detail), []).append((note.start_ms, note.end_ms))
        else:
            lines.append(counted_note(note))
    timed = []
    for (kind, detail), spans in sorted(groups.items(), key=lambda item: item[1][0][0]):
        reason = f" ({detail})" if detail else ""
        if len(spans) <= LISTED_SPOTS:
            timed += [f"{spot_words(kind)} {times.hm(start)}-{times.hm(end)}{reason}" for start, end in spans]
        else:
            total = sum(end - start for start, end in spans)
            timed.append(f"{spot_words(kind)}{reason} ×{len(spans)}, {duration(total)} in all")
    return timed + lines


def _inferred_lines(document: Document) -> list[str]:
    if not document.inferred:
        return []
    lines = ["inferred (interpretation; each item cites its evidence in the JSON document):"]
    for item in document.inferred:
        details = dict(item.details)
        lines.append(f"- {item.kind} {details.get('id', '')} ×{details.get('support', '?')} "
                     f"[{item.confidence}]: {readable(item.label)}")
    return lines


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")
