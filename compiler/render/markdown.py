"""Markdown for a person: coverage, a table of frames, blind spots, the
inferred tier under its own heading, and provenance."""

from __future__ import annotations

from ..records import Document
from ..timefmt import TimeFormat, duration, minutes, ranges
from .text import frame_summary, gap_line, header_line, input_summary, where


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
                  f"{times.hm(last)}, {duration(coverage.active_ms)} active "
                  f"over {duration(coverage.span_ms)}, {len(coverage.monitors)} "
                  f"monitor{'' if len(coverage.monitors) == 1 else 's'}"]
        for gap in coverage.gaps:
            lines.append(f"- **Gap:** {gap_line(gap, times)}")
        lines += ["", "## Frames", "",
                  "| frame | time | where | active | what | input | evidence |",
                  "|---|---|---|---:|---|---|---|"]
        for frame in document.frames:
            offset = frame.utc_offset_min
            lines.append(
                f"| {frame.id} | {times.hm(frame.start_ms, offset)}–{times.hm(frame.end_ms, offset)} "
                f"| {_cell(where(frame))} | {minutes(frame.active_ms)} min "
                f"| {_cell(frame_summary(frame, pages=4))} | {_cell(input_summary(frame) or '—')} "
                f"| snapshots {ranges(frame.snapshot_ids)} |")
            for interruption in frame.interruptions:
                lines.append(f"|  | ↳ {times.hm(interruption.start_ms, offset)} | "
                             f"{_cell(interruption.app + ('/' + interruption.site if interruption.site else ''))} "
                             f"| interruption | {(interruption.end_ms - interruption.start_ms + 500) // 1000} s "
                             f"|  | snapshots {ranges(interruption.snapshots)} |")
    lines += ["", "## Blind spots", ""]
    if not document.blind_spots:
        lines.append("None recorded.")
    for spot in document.blind_spots:
        when = (f"{times.hm(spot.start_ms)}–{times.hm(spot.end_ms)} "
                if spot.start_ms is not None and spot.end_ms is not None else "")
        count = f" ×{spot.count}" if spot.count > 1 else ""
        lines.append(f"- {when}**{spot.kind}**{count}: {spot.detail} ({spot.source})")
    if document.inferred is not None:
        lines += ["", "## Inferred (interpretation, not measurement)", ""]
        if not document.inferred:
            lines.append("Nothing inferred.")
        for item in document.inferred:
            lines.append(f"- **{item.kind}** [{item.confidence}] {item.label} — {item.basis}; "
                         f"frames {', '.join(item.frames) or '—'}")
    provenance = document.provenance
    lines += ["", "## Provenance", "",
              f"- compiler {provenance.compiler_version}, document schema {provenance.document_schema}",
              f"- source: {provenance.source} (store schema {provenance.store_schema}), "
              f"rows: " + ", ".join(f"{n} {t}" for t, n in provenance.rows),
              f"- input digest: `sha256:{provenance.input_digest}`", ""]
    return "\n".join(lines).encode()


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
