"""The compact context block for system prompts, within a token budget.

Lines, in order: a header, coverage, gaps, one line per frame, blind spots,
then the inferred tier under its own marker, then provenance. When the block
is over budget, lines go in this order until it fits: inferred items, then
frames from the shortest active time up (the kept frames stay in time order
and a line says how many were left out), then blind-spot detail. The header,
coverage and provenance always stay.
"""

from __future__ import annotations

from ..budget import estimate_tokens
from ..records import Document, Frame
from ..timefmt import TimeFormat, duration
from .text import frame_summary, gap_line, input_summary, where

DEFAULT_BUDGET = 2000


def render_compact(document: Document, times: TimeFormat, label: str,
                   budget: int = DEFAULT_BUDGET) -> bytes:
    coverage = document.coverage
    zone = document.provenance.zone
    head = [f"ACTIVITY {label} — local time {zone}; measured from screen capture, no interpretation "
            "above the 'inferred' line"]
    if coverage.first_activity_ms is None:
        head.append("coverage: nothing captured in this window")
    else:
        apps = len({f.app for f in document.frames})
        head.append(f"coverage: {times.hm(coverage.first_activity_ms)}-{times.hm(coverage.last_activity_ms)}, "
                    f"{duration(coverage.active_ms)} active over {duration(coverage.span_ms)}; "
                    f"{len(coverage.monitors)} monitor(s), {apps} app(s), {len(document.frames)} frame(s)")
        if coverage.gaps:
            head.append("gaps: " + "; ".join(gap_line(gap, times) for gap in coverage.gaps))
    frames = list(document.frames)
    spots = _blind_lines(document, times)
    inferred = _inferred_lines(document)
    tail = [f"provenance: {document.provenance.source} store v{document.provenance.store_schema}, "
            f"compiler {document.provenance.compiler_version}, input sha256:"
            f"{document.provenance.input_digest[:16]}"]

    dropped = 0
    by_priority = sorted(frames, key=lambda f: (f.active_ms, f.end_ms - f.start_ms, f.id))
    while True:
        text = _assemble(head, [f for f in frames], dropped, spots, inferred, tail, times)
        if estimate_tokens(text) <= budget:
            return text.encode()
        if inferred:
            inferred = inferred[:-1] if len(inferred) > 2 else []
        elif by_priority:
            frames.remove(by_priority.pop(0))
            dropped += 1
        elif spots:
            spots = spots[:-1]
        else:
            return text.encode()  # header and coverage alone exceed a tiny budget


def _assemble(head, frames: list[Frame], dropped: int, spots, inferred, tail, times) -> str:
    lines = list(head)
    lines += [_frame_line(frame, times) for frame in frames]
    if dropped:
        lines.append(f"(+{dropped} shorter frame(s) left out for the token budget)")
    if spots:
        lines.append("blind spots: " + "; ".join(spots))
    lines += inferred
    lines += tail
    return "\n".join(lines) + "\n"


def _frame_line(frame: Frame, times: TimeFormat) -> str:
    offset = frame.utc_offset_min
    line = (f"- {times.hm(frame.start_ms, offset)}-{times.hm(frame.end_ms, offset)} {where(frame)} "
            f"({duration(frame.active_ms)}): {frame_summary(frame)}")
    volume = input_summary(frame)
    if volume:
        line += f" | {volume}"
    if frame.interruptions:
        line += f" | {len(frame.interruptions)} interruption(s)"
    return line


def _blind_lines(document: Document, times: TimeFormat) -> list[str]:
    lines = []
    for note in document.blind_spots:
        if note.start_ms is not None and note.end_ms is not None:
            lines.append(f"{note.kind} {times.hm(note.start_ms)}-{times.hm(note.end_ms)}"
                         + (f" ({note.detail})" if note.detail else ""))
        else:
            lines.append(f"{note.count} {note.kind.replace('_', ' ')}")
    return lines


def _inferred_lines(document: Document) -> list[str]:
    if not document.inferred:
        return []
    lines = ["inferred (interpretation; each item cites its evidence in the JSON document):"]
    for item in document.inferred:
        details = dict(item.details)
        lines.append(f"- {item.kind} {details.get('id', '')} ×{details.get('support', '?')} "
                     f"[{item.confidence}]: {item.label}")
    return lines
