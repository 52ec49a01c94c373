"""Phrases shared by the Markdown and compact renderers."""

from __future__ import annotations

from core.labels import once_in

from ..records import BlindSpotNote, Document, Frame, Gap, PageVisit
from ..timefmt import TimeFormat, duration

TITLE_CHARS = 60
PAGE_TITLE_CHARS = 48

GAP_WORDS = {"idle": "away, screen idle"}
SESSION_GAP_MS = 300_000   # a gap over this is away, whatever the screen showed

# Blind-spot kinds in words a reader knows (the JSON keeps the kinds).
SPOT_WORDS = {
    "excluded": "excluded", "paused": "capture paused", "no_accessibility": "no accessibility data",
    "capture_error": "capture error", "display_lost": "display lost", "forgotten": "forgotten",
    "not_running": "capture not running", "clock_jump": "clock jump",
    "no_input_observation": "input not observed",
}


def where(frame: Frame) -> str:
    return f"{frame.app} · {frame.site}" if frame.site else frame.app


def frame_time(frame: Frame) -> str:
    """Active time, then the credited screen time that had no input."""
    text = duration(frame.active_ms)
    if frame.idle_ms >= 1000:
        text += f"; idle {duration(frame.idle_ms)}"
    if frame.away_ms >= 1000:
        text += f"; away {duration(frame.away_ms)}"
    return text


def page_phrase(page: PageVisit, titled: bool = False) -> str:
    """One page: its kind and entity (a local file by its title, else its
    file name, never its path), then ×visits when more than one; `titled`
    (Markdown) adds every other page's title too."""
    visits = f" ×{page.count}" if page.count > 1 else ""
    if page.kind == "local_file":
        name = page.title or (page.entity or "").rstrip("/").rsplit("/", 1)[-1]
        return f"{page.kind} {_quoted(name)}{visits}"
    text = f"{page.kind} {page.entity}" if page.entity else page.kind
    if titled and page.title:
        text += f" {_quoted(page.title)}"
    return text + visits


def _quoted(title: str) -> str:
    return '"' + _cut(title.replace('"', "'"), PAGE_TITLE_CHARS) + '"'


def frame_summary(frame: Frame, *, pages: int = 3, titled: bool = False) -> str:
    """The typed pages a frame showed, in the order first visited (a cut
    list says how many more), else its window titles: the only one, or the
    first and the last."""
    if frame.pages:
        shown = [page_phrase(p, titled) for p in frame.pages[:pages]]
        if len(frame.pages) > pages:
            shown.append(f"+{len(frame.pages) - pages} more")
        return ", ".join(shown)
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


def spot_words(kind: str) -> str:
    return SPOT_WORDS.get(kind, kind.replace("_", " "))


def counted_note(note: BlindSpotNote) -> str:
    """A compiler's count in words: "39 clicks that landed in a container,
    not on a control", never the kind's name."""
    return f"{note.count} {note.detail}" if note.count > 1 or note.kind != "zone_unknown" else note.detail


def readable(text: str) -> str:
    """Rendered text with AT-SPI's repeated labels said once."""
    return once_in(text)


def gap_line(gap: Gap, times: TimeFormat) -> str:
    """A coverage gap (over 300 s, so away: one the screen stayed on for,
    idle, is said so) or a silence of Coverage.quiet ('idle' or 'away')."""
    return f"{times.hm(gap.start_ms)}–{times.hm(gap.end_ms)} {gap_reason(gap)} ({duration(gap.end_ms - gap.start_ms)})"


def gap_reason(gap: Gap) -> str:
    return GAP_WORDS.get(gap.reason, gap.reason) if gap.end_ms - gap.start_ms > SESSION_GAP_MS else gap.reason


def header_line(document: Document, times: TimeFormat, label: str) -> str:
    zone = document.provenance.zone
    return (f"Times are local ({zone}); everything above the inferred section is measured from "
            f"screen capture, with no model and no interpretation.")
