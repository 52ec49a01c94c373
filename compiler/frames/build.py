"""Frames from folded runs: timing, titles, typed pages, input volume, click
targets and the evidence pointers back to every row they were built from.

Each frame's snapshots and events are gathered first; then each frame's
input volume is one pass over its own events, and its click targets come
from its resolved clicks only."""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import chain, repeat
from operator import attrgetter
from typing import NamedTuple

from compiler.pages import type_url
from compiler.records import (
    CHRONOLOGICAL,
    ID,
    IDLE,
    URL,
    ClickTarget,
    Frame,
    InputEvent,
    InputVolume,
    Interruption,
    PageVisit,
    Snapshot,
)

from .attribute import Attribution
from .flicker import FoldedRun
from .segment import Run

MAX_TARGETS = 5
_BROWSERS = (r"(?:Mozilla Firefox|Firefox(?: ESR)?|Chromium|Google Chrome|Brave|Microsoft Edge|Epiphany|Web|"
             r"Phantom Browser)(?: Private Browsing)?")
_BROWSER_SUFFIX = re.compile(r"\s+[-—–]\s+" + _BROWSERS + "$")
_BROWSER_NAME = re.compile(_BROWSERS)   # a tab still loading shows the browser's name alone
NO_INPUT = InputVolume()
_IDLE_MS, _AWAY_MS = attrgetter("idle_ms"), attrgetter("away_ms")
_TITLE = attrgetter("title")

# event kinds and click resolutions as small integers: the volume counts' slots
_KEY, _TEXT, _COPY, _SCROLL, _CLICK, _OTHER = range(6)
_KIND_CODES = {"key": _KEY, "text": _TEXT, "copy": _COPY, "scroll": _SCROLL, "click": _CLICK}
_RESOLUTIONS = ("exact", "tolerance", "zone", "none")
_RESOLUTION_CODES = {name: code for code, name in enumerate(_RESOLUTIONS)}
_NONE = _RESOLUTION_CODES["none"]
_RESOLVED = frozenset(_RESOLUTIONS[:_RESOLUTION_CODES["tolerance"] + 1])   # exact, tolerance


class _Gathered(NamedTuple):
    """One frame's rows: its snapshots in order, every snapshot id it
    covers (detours included) and its events in time order."""

    snapshots: tuple[Snapshot, ...]
    snapshot_ids: tuple[int, ...]
    events: list[InputEvent]


def build_frames(folded: tuple[FoldedRun, ...], attribution: Attribution) -> tuple[Frame, ...]:
    """Frames in chronological order (ties: monitor), numbered f-0001…"""
    ordered = sorted(folded, key=lambda f: (f.first.start_ms, f.first.monitor,
                                            f.first.snapshots[0].id))
    ordered = [item._replace(interruptions=_with_detour_input(item, attribution))
               if item.interruptions else item for item in ordered]
    gathered = [_gather(item, attribution) for item in ordered]
    return tuple(_frame(index, item, rows, _volume(rows.events), _targets(rows.events))
                 for index, item, rows in zip(range(1, len(ordered) + 1), ordered, gathered))


def _gather(item: FoldedRun, attribution: Attribution) -> _Gathered:
    """The host's own rows: its snapshots and their events. A detour's
    snapshots stay in the frame's evidence, but the input made during the
    detour is the detour's (`_with_detour_input`), not the host's."""
    snapshots = tuple(chain.from_iterable(run.snapshots for run in item.runs))
    snapshot_ids = list(map(ID, snapshots))
    detour_ids = [i for interruption in item.interruptions for i in interruption.snapshots]
    owned = attribution.by_snapshot
    events = list(chain.from_iterable(map(owned.get, snapshot_ids, repeat(()))))
    if detour_ids:
        snapshot_ids += detour_ids
    return _Gathered(snapshots, tuple(sorted(set(snapshot_ids))), events)


def _with_detour_input(item: FoldedRun, attribution: Attribution) -> tuple[Interruption, ...]:
    """The interruptions, each with the input its own snapshots were credited."""
    owned = attribution.by_snapshot
    result = []
    for interruption in item.interruptions:
        events = sorted(chain.from_iterable(owned.get(i, ()) for i in interruption.snapshots),
                        key=CHRONOLOGICAL)
        if events:
            interruption = interruption._replace(input=_volume(events), input_ids=tuple(map(ID, events)))
        result.append(interruption)
    return tuple(result)


def _frame(index: int, item: FoldedRun, rows: _Gathered, volume: InputVolume,
           kept: tuple[tuple[ClickTarget, ...], int]) -> Frame:
    targets, more = kept
    runs, snapshots = item.runs, rows.snapshots
    first = snapshots[0]
    titles = dict.fromkeys(filter(None, map(_TITLE, snapshots)))
    head = item.first
    return Frame(
        id=f"f-{index:04d}", monitor=first.monitor, app=head.app, site=head.site,
        start_ms=head.start_ms,
        end_ms=max(run.end_ms for run in runs), active_ms=sum(run.active_ms for run in runs),
        utc_offset_min=first.utc_offset_min, tz_name=first.tz_name,
        titles=tuple(titles), pages=_pages(runs), input=volume, targets=targets,
        interruptions=item.interruptions,
        snapshot_ids=rows.snapshot_ids,
        input_ids=tuple(map(ID, rows.events)),
        idle_snapshots=sum(map(bool, map(IDLE, snapshots))),
        idle_ms=sum(map(_IDLE_MS, runs)), away_ms=sum(map(_AWAY_MS, runs)),
        targets_more=more)


def _pages(runs: tuple[Run, ...]) -> tuple[PageVisit, ...]:
    """Typed pages in the order first visited, each with its visits: an
    arrival from another page, or from another app (each run of a folded
    frame begins after a detour elsewhere). A snapshot without a URL
    neither ends nor starts a visit. The title is the last one the page
    showed (a page is titled once it has loaded), without the browser's
    name; each distinct URL is typed once."""
    keys: dict[str, tuple[str, str | None]] = {}
    visits: dict[tuple[str, str | None], int] = {}
    titles: dict[tuple[str, str | None], str] = {}
    for run in runs:
        urls = list(map(URL, run.snapshots))
        if not any(urls):
            continue
        previous = None
        for url, title in zip(urls, map(_TITLE, run.snapshots)):
            if not url:
                continue
            key = keys.get(url)
            if key is None:
                ref = type_url(url)
                key = keys[url] = (ref.kind, ref.entity)
            if key != previous:
                visits[key] = visits.get(key, 0) + 1
                previous = key
            if title:
                titles[key] = title
    return tuple(PageVisit(kind, entity, count, page_title(titles.get((kind, entity))))
                 for (kind, entity), count in visits.items())


@lru_cache(maxsize=4096)
def page_title(title: str | None) -> str | None:
    """A window title without the browser's name after it."""
    if not title:
        return None
    cut = _BROWSER_SUFFIX.sub("", title).strip()
    return None if not cut or _BROWSER_NAME.fullmatch(cut) else cut


def _volume(events: list[InputEvent]) -> InputVolume:
    """One frame's input volume. Keys count key presses, typed bursts'
    characters and copies; clicks are also split by how they resolved (an
    unknown or missing resolution counts as unresolved)."""
    if not events:
        return NO_INPUT
    sums = [0] * 6                          # per kind code: the summed counts
    bursts = 0
    by_resolution = [0] * len(_RESOLUTIONS)  # clicks' summed counts per resolution
    kinds, resolutions = _KIND_CODES.get, _RESOLUTION_CODES.get
    for event in events:
        kind = kinds(event.kind, _OTHER)
        sums[kind] += event.count
        if kind == _TEXT:
            bursts += 1
        elif kind == _CLICK:
            by_resolution[resolutions(event.resolution, _NONE)] += event.count   # type: ignore[arg-type]
    columns = {"keys": sums[_KEY] + sums[_TEXT] + sums[_COPY], "clicks": sums[_CLICK],
               "scrolls": sums[_SCROLL], "copies": sums[_COPY], "text_bursts": bursts,
               **{f"clicks_{name}": by_resolution[code] for name, code in _RESOLUTION_CODES.items()}}
    row = [columns[field] for field in InputVolume._fields]
    return InputVolume(*row) if any(row) else NO_INPUT


def _targets(events: list[InputEvent]) -> tuple[tuple[ClickTarget, ...], int]:
    """One frame's most clicked named elements (clicks resolved exactly or
    within tolerance onto an element with a label), at most MAX_TARGETS,
    and how many more there were (said, never silently cut)."""
    tally: dict[tuple[str, str], int] = {}
    for event in events:
        if event.kind == "click" and event.resolution in _RESOLVED:
            element = event.element
            if element is not None and element.label:
                key = (element.role, element.label)
                tally[key] = tally.get(key, 0) + 1
    return (tuple(ClickTarget(role, label, n) for (role, label), n in
                  sorted(tally.items(), key=_most_clicked)[:MAX_TARGETS]),
            max(0, len(tally) - MAX_TARGETS))


def _most_clicked(item: tuple[tuple[str, str], int]) -> tuple[int, tuple[str, str]]:
    """Ranking: most clicks first, then by (role, label)."""
    return -item[1], item[0]
