"""Phrases shared by the Markdown and compact renderers."""

from __future__ import annotations

from ..records import Document, Frame, Gap
from ..timefmt import TimeFormat, duration

TITLE_CHARS = 60


def where(frame: Frame) -> str:
    return f"{frame.app} · {frame.site}" if frame.site else frame.app


def frame_summary(frame: Frame, *, pages: int = 3) -> str:
    """The typed pages a frame showed, else its window titles: the only one,
    or the first and the last."""
    if frame.pages:
        shown = sorted(frame.pages, key=lambda p: -p.count)[:pages]
        return ", ".join(f"{p.kind} {p.entity}" + (f" ×{p.count}" if p.count > 1 else "")
                         if p.entity else p.kind + (f" ×{p.count}" if p.count > 1 else "")
                         for p in shown)
    titles = frame.titles
    if len(titles) == 1:
        return _cut(titles[0], TITLE_CHARS)
    if titles:
        # The first title says what was opened, the last what it became: a
        # document saved under its name, the command a terminal ended on.
        # What both end with (" - gedit", the terminal's prompt) is said once.
        first, last = titles[0], titles[-1]
        shared = _shared_ending(first, last)
        more = f" ({len(titles)} titles)" if len(titles) > 2 else ""
        return (f"{_cut(first[:len(first) - len(shared)].rstrip(), TITLE_CHARS // 2)} → "
                f"{_cut(last, TITLE_CHARS)}{more}")
    return "on screen"


def _shared_ending(first: str, last: str) -> str:
    """The longest ending of both that starts at a blank (or is empty)."""
    size = 0
    while size < min(len(first), len(last)) and first[-1 - size] == last[-1 - size]:
        size += 1
    ending = first[len(first) - size:]
    blank = ending.find(" ")
    return ending[blank:] if blank >= 0 and size < len(first) else ""


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
