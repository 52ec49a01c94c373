"""A deterministic reader of the compact block, by its documented grammar
(docs/COMPACT_BLOCK.md) and nothing else: the answerability benchmark asks
its questions of what this reader finds in a block, never of the compiler's
records, so a fact the block does not state cannot be answered.

    read(text) -> Block

Unknown lines are kept in `Block.unread` (a benchmark counts them as a
grammar failure); the reader never raises on a well-formed block.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from compiler.pages import KINDS

_DURATION = re.compile(r"^(?:(\d+)h(\d\d)m|(\d+)m|(\d+)s)$")
_HM = r"(\d\d:\d\d)"
_COVERAGE = re.compile(
    rf"^coverage: {_HM}-{_HM}, (\S+) active, (\S+) idle, (\S+) away over (\S+); "
    r"(\d+) monitors?, (\d+) apps?, (\d+) frames?$")
_STRETCH = re.compile(rf"^{_HM}–{_HM} (.+) \((\S+)\)$")
_MORE = re.compile(r"^\+(\d+) more(?: \((\S+) in all\))?$")
_FRAME = re.compile(rf"^- {_HM}-{_HM} (.+?) \(([^()]*)\): (.*)$")
_COUNT = re.compile(r"^(\d+) (keys?|clicks?|cop(?:y|ies)|scrolls?)$")
_OMITTED = re.compile(r"^\(\+(\d+) shorter frame\(s\) left out for the token budget\)$")
_ROUTINES_CUT = re.compile(r"^\(\+(\d+) inferred routine\(s\) left out for the token budget\)$")
_ROUTINE = re.compile(r"^- (\S+) (\S+) ×(\S+) \[(low|medium|high)\]: (.*)$")
_GUESSED = re.compile(r"^(\d+) input whose receiving window the capture did not record")
_TIMED_SPOT = re.compile(rf"^(.+) {_HM}-{_HM}(?: \((.*)\))?$")
_PAGE_MORE = re.compile(r"^\+(\d+) more$")
_VISITS = re.compile(r"^(.*) ×(\d+)$")
_UNITS = {"key": "keys", "keys": "keys", "click": "clicks", "clicks": "clicks", "copy": "copies",
          "copies": "copies", "scroll": "scrolls", "scrolls": "scrolls"}


def seconds(text: str) -> int:
    """A DUR back to seconds (exact under a minute, else to the minute)."""
    found = _DURATION.match(text)
    if not found:
        raise ValueError(f"not a duration: {text!r}")
    hours, mins, only_mins, secs = found.groups()
    if hours is not None:
        return int(hours) * 3600 + int(mins) * 60
    if only_mins is not None:
        return int(only_mins) * 60
    return int(secs)


def minute_of(hm: str) -> int:
    hours, mins = hm.split(":")
    return int(hours) * 60 + int(mins)


@dataclass(frozen=True)
class Stretch:
    start: str
    end: str
    reason: str
    seconds: int


@dataclass(frozen=True)
class Page:
    kind: str
    name: str          # entity, or a local file's title / file name
    visits: int


@dataclass(frozen=True)
class FrameLine:
    start: str
    end: str
    app: str
    site: str | None
    active: int
    idle: int
    away: int
    pages: tuple[Page, ...]
    pages_more: int
    summary: str
    input: dict[str, int]
    interruptions: int


@dataclass(frozen=True)
class AppTotal:
    app: str
    active: int
    keys: int
    clicks: int


@dataclass
class Block:
    label: str = ""
    zone: str = ""
    first: str | None = None
    last: str | None = None
    active: int = 0
    idle: int = 0
    away: int = 0
    span: int = 0
    apps: int = 0
    frames_total: int = 0
    apps_total: list[AppTotal] = field(default_factory=list)
    apps_more: int = 0
    on_screen: dict[str, list[str]] = field(default_factory=dict)   # HM -> apps (APP or APP · SITE); [] away
    on_screen_more: int = 0
    gaps: list[Stretch] = field(default_factory=list)
    gaps_more: int = 0
    silences: list[Stretch] = field(default_factory=list)
    silences_more: int = 0
    frames: list[FrameLine] = field(default_factory=list)
    frames_omitted: int = 0
    blind_spots: list[str] = field(default_factory=list)
    blind_spots_more: int = 0
    blind_spans: list[Stretch] = field(default_factory=list)   # the spots written with their times
    input_guessed: int = 0     # input credited to the nearest snapshot: its window was not recorded
    routines: list[tuple[str, int, str]] = field(default_factory=list)   # (id, support, label)
    routines_cut: int = 0
    provenance: str = ""
    unread: list[str] = field(default_factory=list)

    @property
    def hours_cut(self) -> bool:
        """The hour-by-hour line was shortened or left out for the budget."""
        return bool(self.on_screen_more) or (not self.on_screen and not self.apps_total
                                             and bool(self.apps_more))

    @property
    def complete_frames(self) -> bool:
        """Every frame of the window is written (no frame cut for the budget)."""
        return not self.frames_omitted and len(self.frames) == self.frames_total


def read(text: str) -> Block:
    block = Block()
    lines = text.splitlines()
    in_inferred = False
    for line in lines:
        if line.startswith("ACTIVITY "):
            head = line[len("ACTIVITY "):]
            block.label, _, rest = head.partition(" — local time ")
            block.zone = rest.split(";", 1)[0]
        elif line.startswith("window: "):
            continue
        elif line.startswith("coverage: "):
            _coverage(block, line)
        elif line.startswith("apps: "):
            _apps(block, line[len("apps: "):])
        elif line.startswith("on screen: "):
            for item in line[len("on screen: "):].split("; "):
                if (cut := _MORE.match(item)):
                    block.on_screen_more = int(cut.group(1))
                    continue
                at, _, what = item.partition(" ")
                block.on_screen[at] = [] if what == "away" else what.split(" + ")
        elif line.startswith("gaps: "):
            block.gaps, block.gaps_more = _stretches(line[len("gaps: "):])
        elif line.startswith("no input: "):
            block.silences, block.silences_more = _stretches(line[len("no input: "):])
        elif line.startswith("blind spots: "):
            for item in line[len("blind spots: "):].split("; "):
                more = _MORE.match(item)
                if more:
                    block.blind_spots_more = int(more.group(1))
                else:
                    block.blind_spots.append(item)
                    if (guessed := _GUESSED.match(item)):
                        block.input_guessed = int(guessed.group(1))
                    if (timed := _TIMED_SPOT.match(item)):
                        words, start, end, _reason = timed.groups()
                        block.blind_spans.append(Stretch(start, end, words, 0))
        elif line.startswith("inferred ("):
            in_inferred = True
        elif line.startswith("provenance: "):
            block.provenance = line
        elif (found := _OMITTED.match(line)):
            block.frames_omitted = int(found.group(1))
        elif (found := _ROUTINES_CUT.match(line)):
            block.routines_cut = int(found.group(1))
        elif in_inferred and (found := _ROUTINE.match(line)):
            support = found.group(3)
            block.routines.append((found.group(2), int(support) if support.isdigit() else 0, found.group(5)))
        elif not in_inferred and (frame := _frame(line)) is not None:
            block.frames.append(frame)
        else:
            block.unread.append(line)
    return block


def _coverage(block: Block, line: str) -> None:
    if line == "coverage: nothing captured in this window":
        return
    found = _COVERAGE.match(line)
    if not found:
        block.unread.append(line)
        return
    first, last, active, idle, away, span, _, apps, frames = found.groups()
    block.first, block.last = first, last
    block.active, block.idle, block.away, block.span = map(seconds, (active, idle, away, span))
    block.apps, block.frames_total = int(apps), int(frames)


def _apps(block: Block, text: str) -> None:
    for item in text.split("; "):
        cut = _MORE.match(item)
        if cut:
            block.apps_more = int(cut.group(1))
            continue
        head, *counts = item.split(", ")
        app, _, active = head.rpartition(" ")
        found: dict[str, int] = {}
        for part in counts:
            count = _COUNT.match(part)
            if count:
                found[_UNITS[count.group(2)]] = int(count.group(1))
        block.apps_total.append(AppTotal(app, seconds(active), found.get("keys", 0), found.get("clicks", 0)))


def _stretches(text: str) -> tuple[list[Stretch], int]:
    found: list[Stretch] = []
    more = 0
    for item in text.split("; "):
        cut = _MORE.match(item)
        if cut:
            more = int(cut.group(1))
            continue
        parts = _STRETCH.match(item)
        if parts:
            start, end, reason, length = parts.groups()
            found.append(Stretch(start, end, reason, seconds(length)))
    return found, more


def _frame(line: str) -> FrameLine | None:
    found = _FRAME.match(line)
    if not found:
        return None
    start, end, where, times, rest = found.groups()
    app, _, site = where.partition(" · ")
    parts = times.split("; ")
    active = seconds(parts[0])
    idle = away = 0
    for part in parts[1:]:
        word, _, value = part.partition(" ")
        if word == "idle":
            idle = seconds(value)
        elif word == "away":
            away = seconds(value)
    fields = rest.split(" | ")
    summary = fields[0]
    counts: dict[str, int] = {}
    interruptions = 0
    for extra in fields[1:]:
        if extra.endswith(("interruption", "interruptions")):
            interruptions = int(extra.split(" ", 1)[0])
            continue
        for item in extra.split(", "):
            count = _COUNT.match(item)
            if count:
                counts[_UNITS[count.group(2)]] = int(count.group(1))
    pages, more = _pages(summary)
    return FrameLine(start, end, app, site or None, active, idle, away, pages, more, summary, counts,
                     interruptions)


def _pages(summary: str) -> tuple[tuple[Page, ...], int]:
    """Pages when the summary is a page list (first item a known form), else ()."""
    items = _split_outside_quotes(summary)
    pages: list[Page] = []
    more = 0
    for item in items:
        cut = _PAGE_MORE.match(item)
        if cut:
            more = int(cut.group(1))
            continue
        visits = 1
        counted = _VISITS.match(item)
        if counted:
            item, visits = counted.group(1), int(counted.group(2))
        kind, _, name = item.partition(" ")
        if kind not in KINDS:
            return (), 0       # window titles, not pages
        pages.append(Page(kind, name.strip('"'), visits))
    return tuple(pages), more


def _split_outside_quotes(text: str) -> list[str]:
    items: list[str] = []
    current: list[str] = []
    quoted = False
    index = 0
    while index < len(text):
        char = text[index]
        if char == '"':
            quoted = not quoted
        if not quoted and text.startswith(", ", index):
            items.append("".join(current))
            current = []
            index += 2
            continue
        current.append(char)
        index += 1
    items.append("".join(current))
    return items
