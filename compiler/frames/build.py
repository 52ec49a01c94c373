"""Frames from folded runs: timing, titles, typed pages, input volume, click
targets and the evidence pointers back to every row they were built from.

Each frame's snapshots and events are gathered first; input volumes are
then counted for all frames at once (int64 numpy sums over the window's
events) and click targets from the window's resolved clicks only, so no
per-frame loop walks every key press."""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import chain, repeat
from operator import attrgetter
from typing import NamedTuple

import numpy as np

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
_TITLE, _KIND, _COUNT, _RESOLUTION = (attrgetter("title"), attrgetter("kind"), attrgetter("count"),
                                      attrgetter("resolution"))

# event kinds and click resolutions as small integers for the volume counts
_KEY, _TEXT, _COPY, _SCROLL, _CLICK, _OTHER = range(6)
_KIND_CODES = {"key": _KEY, "text": _TEXT, "copy": _COPY, "scroll": _SCROLL, "click": _CLICK}
_RESOLUTIONS = ("exact", "tolerance", "zone", "none")
_RESOLUTION_CODES = {name: code for code, name in enumerate(_RESOLUTIONS)}
_NONE = _RESOLUTION_CODES["none"]


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
    window = _WindowEvents([g.events for g in gathered])
    return tuple(_frame(index, item, rows, volume, targets) for index, item, rows, volume, targets
                 in zip(range(1, len(ordered) + 1), ordered, gathered, _volumes(window), _targets(window)))


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
            window = _WindowEvents([events])
            interruption = interruption._replace(input=_volumes(window)[0],
                                   input_ids=tuple(map(ID, events)))
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


class _WindowEvents:
    """Every frame's events laid end to end, with per-event columns."""

    def __init__(self, events: list[list[InputEvent]]) -> None:
        self.frames = len(events)
        self.flat = flat = list(chain.from_iterable(events))
        self.owner = np.repeat(np.arange(self.frames),
                               np.fromiter(map(len, events), dtype=np.int64, count=self.frames))
        self.kind = np.fromiter(map(_KIND_CODES.get, map(_KIND, flat), repeat(_OTHER)),
                                dtype=np.int8, count=len(flat))
        self.count = np.fromiter(map(_COUNT, flat), dtype=np.int64, count=len(flat))
        self.resolution = np.fromiter(map(_RESOLUTION_CODES.get, map(_RESOLUTION, flat), repeat(_NONE)),
                                      dtype=np.int8, count=len(flat))


def _volumes(window: _WindowEvents) -> list[InputVolume]:
    """Each frame's input volume. Keys count key presses, typed bursts'
    characters and copies; clicks are also split by how they resolved."""
    if not window.flat:
        return [NO_INPUT] * window.frames
    kind, owner, count = window.kind, window.owner, window.count

    def total(where: np.ndarray, weighted: bool = True) -> np.ndarray:
        """Per frame: the summed counts (or the number) of the events where `where`."""
        sums = np.zeros(window.frames, dtype=np.int64)
        np.add.at(sums, owner[where], count[where] if weighted else 1)
        return sums

    click = kind == _CLICK  # an unknown or missing resolution counts as unresolved
    columns = {
        "keys": total((kind == _KEY) | (kind == _TEXT) | (kind == _COPY)),
        "clicks": total(click),
        "scrolls": total(kind == _SCROLL),
        "copies": total(kind == _COPY),
        "text_bursts": total(kind == _TEXT, weighted=False),
        **{f"clicks_{name}": total(click & (window.resolution == code))
           for name, code in _RESOLUTION_CODES.items()},
    }
    table = np.stack([columns[field] for field in InputVolume._fields], axis=1)
    busy: list[bool] = np.any(table, axis=1).tolist()
    return [InputVolume(*row) if active else NO_INPUT for row, active in zip(table.tolist(), busy)]


def _targets(window: _WindowEvents) -> list[tuple[tuple[ClickTarget, ...], int]]:
    """Each frame's most clicked named elements (clicks resolved exactly or
    within tolerance onto an element with a label), at most MAX_TARGETS,
    and how many more there were (said, never silently cut)."""
    counts: list[dict[tuple[str, str], int]] = [{} for _ in range(window.frames)]
    resolved = (window.kind == _CLICK) & (window.resolution <= _RESOLUTION_CODES["tolerance"])
    for position, owner in zip(np.flatnonzero(resolved).tolist(), window.owner[resolved].tolist()):
        element = window.flat[position].element
        if element is not None and element.label:
            key = (element.role, element.label)
            tally = counts[owner]
            tally[key] = tally.get(key, 0) + 1
    return [(tuple(ClickTarget(role, label, n) for (role, label), n in
                   sorted(tally.items(), key=_most_clicked)[:MAX_TARGETS]),
             max(0, len(tally) - MAX_TARGETS)) if tally else ((), 0)
            for tally in counts]


def _most_clicked(item: tuple[tuple[str, str], int]) -> tuple[int, tuple[str, str]]:
    """Ranking: most clicks first, then by (role, label)."""
    return -item[1], item[0]
