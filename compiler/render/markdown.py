"""Markdown for a person: coverage, a table of frames, blind spots, the
inferred tier under its own heading, and provenance."""

from __future__ import annotations

from core.labels import once

from ..records import Document, Frame
from ..timefmt import TimeFormat, duration, minutes, ranges
from .text import (
    counted_note,
    frame_summary,
    gap_line,
    header_line,
    input_summary,
    readable,
    spot_words,
    where,
)


def render_markdown(document: Document, times: TimeFormat, label: str, note: str = "") -> bytes:
    coverage = document.coverage
    lines = [f"# Activity — {label}", "", header_line(document, times, label), ""]
    if note:
        lines += [f"Window: {note}.", ""]
    first, last = coverage.first_activity_ms, coverage.last_activity_ms
    if first is None or last is None:  # both or neither
        lines += ["No activity was captured in this window.", ""]
    else:
        lines += [f"- **Coverage:** {times.hm(first)}–"
                  f"{times.hm(last)}, {duration(coverage.active_ms)} active, "
                  f"{duration(coverage.idle_ms)} idle (no input), {duration(coverage.away_ms)} away "
                  f"over {duration(coverage.span_ms)}, {len(coverage.monitors)} "
                  f"monitor{'' if len(coverage.monitors) == 1 else 's'}"]
        for gap in coverage.gaps:
            lines.append(f"- **Gap:** {gap_line(gap, times)}")
        for gap in coverage.quiet:
            lines.append(f"- **No input:** {gap_line(gap, times)}")
        lines += ["", "## Frames", "",
                  "| frame | time | where | active | idle | what | input | evidence |",
                  "|---|---|---|---:|---:|---|---|---|"]
        for frame in document.frames:
            offset = frame.utc_offset_min
            lines.append(
                f"| {frame.id} | {times.hm(frame.start_ms, offset)}–{times.hm(frame.end_ms, offset)} "
                f"| {_cell(where(frame))} | {minutes(frame.active_ms)} min "
                f"| {_quiet_cell(frame.idle_ms, frame.away_ms)} "
                f"| {_cell(frame_summary(frame, pages=4, titled=True))} | {_cell(_input(frame))} "
                f"| snapshots {ranges(frame.snapshot_ids)} |")
            for interruption in frame.interruptions:
                lines.append(f"|  | ↳ {times.hm(interruption.start_ms, offset)} | "
                             f"{_cell(interruption.app + ('/' + interruption.site if interruption.site else ''))} "
                             f"| interruption |  | {(interruption.end_ms - interruption.start_ms + 500) // 1000} s "
                             f"|  | snapshots {ranges(interruption.snapshots)} |")
    lines += ["", "## Blind spots", ""]
    if not document.blind_spots:
        lines.append("None recorded.")
    for spot in document.blind_spots:
        if spot.start_ms is not None and spot.end_ms is not None:
            lines.append(f"- {times.hm(spot.start_ms)}–{times.hm(spot.end_ms)} **{spot_words(spot.kind)}**"
                         f"{': ' + spot.detail if spot.detail else ''} ({spot.source})")
        else:
            lines.append(f"- {counted_note(spot)} ({spot.source})")
    if document.inferred is not None:
        lines += ["", "## Inferred (interpretation, not measurement)", ""]
        if not document.inferred:
            lines.append("Nothing inferred.")
        for item in document.inferred:
            lines.append(f"- **{item.kind}** [{item.confidence}] {readable(item.label)} — {item.basis}; "
                         f"frames {', '.join(item.frames) or '—'}")
    provenance = document.provenance
    lines += ["", "## Provenance", "",
              f"- compiler {provenance.compiler_version}, document schema {provenance.document_schema}",
              f"- source: {provenance.source} (store schema {provenance.store_schema}), "
              f"rows: " + ", ".join(f"{n} {t}" for t, n in provenance.rows),
              f"- input digest: `sha256:{provenance.input_digest}`", ""]
    return "\n".join(lines).encode()


def _quiet_cell(idle_ms: int, away_ms: int) -> str:
    parts = [f"{minutes(idle_ms)} min"] if idle_ms else []
    if away_ms:
        parts.append(f"away {minutes(away_ms)} min")
    return ", ".join(parts) or "—"


def _input(frame: Frame) -> str:
    """Input counts, then the named click targets (labels said once; a cut
    list says how many more)."""
    text = input_summary(frame) or "—"
    if frame.targets:
        named = ", ".join(f"{t.role} '{once(t.label)}'" + (f" ×{t.count}" if t.count > 1 else "")
                          for t in frame.targets)
        text += f"; clicked {named}" + (f", +{frame.targets_more} more" if frame.targets_more else "")
    return text


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
