"""Phrases shared by the Markdown and compact renderers."""

from __future__ import annotations

from ..records import Document, Frame, Gap
from ..timefmt import TimeFormat, duration

TITLE_CHARS = 60


def where(frame: Frame) -> str:
    return f"{frame.app} · {frame.site}" if frame.site else frame.app


def frame_summary(frame: Frame, *, pages: int = 3) -> str:
    """The typed pages a frame showed, else its first window title."""
    if frame.pages:
        shown = sorted(frame.pages, key=lambda p: -p.count)[:pages]
        return ", ".join(f"{p.kind} {p.entity}" + (f" ×{p.count}" if p.count > 1 else "")
                         if p.entity else p.kind + (f" ×{p.count}" if p.count > 1 else "")
                         for p in shown)
    if frame.titles:
        title = frame.titles[0]
        return title if len(title) <= TITLE_CHARS else title[: TITLE_CHARS - 1] + "…"
    return "on screen"


def input_summary(frame: Frame) -> str:
    volume = frame.input
    counts = ((volume.keys, "key", "keys"), (volume.clicks, "click", "clicks"),
              (volume.copies, "copy", "copies"), (volume.scrolls, "scroll", "scrolls"))
    return ", ".join(f"{n} {one if n == 1 else many}" for n, one, many in counts if n)


def gap_line(gap: Gap, times: TimeFormat) -> str:
    return f"{times.hm(gap.start_ms)}–{times.hm(gap.end_ms)} {gap.reason} ({duration(gap.end_ms - gap.start_ms)})"


def header_line(document: Document, times: TimeFormat, label: str) -> str:
    zone = document.provenance.zone
    return (f"Times are local ({zone}); everything above the inferred section is measured from "
            f"screen capture, with no model and no interpretation.")
