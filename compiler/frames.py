"""Frames from folded runs: timing, titles, typed pages, input volume, click
targets and the evidence pointers back to every row they were built from."""

from __future__ import annotations

from collections import Counter
from itertools import chain, repeat
from operator import attrgetter

from .attribute import Attribution
from .flicker import FoldedRun
from .pages import type_url
from .records import ClickTarget, Frame, InputVolume, PageVisit

MAX_TARGETS = 5
NO_INPUT = InputVolume()
_ID, _TITLE, _URL, _IDLE = attrgetter("id"), attrgetter("title"), attrgetter("url"), attrgetter("idle")
_WHEN = attrgetter("ts_ms", "id")


def build_frames(folded: tuple[FoldedRun, ...], attribution: Attribution) -> tuple[Frame, ...]:
    """Frames in chronological order (ties: monitor), numbered f-0001…"""
    ordered = sorted(folded, key=lambda f: (f.first.start_ms, f.first.monitor,
                                            f.first.snapshots[0].id))
    return tuple(_frame(index, item, attribution) for index, item in enumerate(ordered, start=1))


def _frame(index: int, item: FoldedRun, attribution: Attribution) -> Frame:
    runs = item.runs
    snapshots = runs[0].snapshots if len(runs) == 1 else tuple(chain.from_iterable(r.snapshots for r in runs))
    snapshot_ids = list(map(_ID, snapshots))
    detour_ids = [i for interruption in item.interruptions for i in interruption.snapshots]
    owned = attribution.by_snapshot
    events = list(chain.from_iterable(map(owned.get, snapshot_ids, repeat(()))))
    if detour_ids:
        events += chain.from_iterable(map(owned.get, detour_ids, repeat(())))
        events.sort(key=_WHEN)  # detours interleave; runs alone are in order
        snapshot_ids += detour_ids
    first = snapshots[0]
    titles = dict.fromkeys(map(_TITLE, snapshots))
    titles.pop("", None)
    head = item.first
    return Frame(
        id=f"f-{index:04d}", monitor=first.monitor, app=head.app, site=head.site,
        start_ms=head.start_ms,
        end_ms=runs[0].end_ms if len(runs) == 1 else max(run.end_ms for run in runs),
        active_ms=runs[0].active_ms if len(runs) == 1 else sum(run.active_ms for run in runs),
        utc_offset_min=first.utc_offset_min, tz_name=first.tz_name,
        titles=tuple(titles), pages=_pages(snapshots), input=_volume(events), targets=_targets(events),
        interruptions=item.interruptions,
        snapshot_ids=tuple(sorted(set(snapshot_ids))),
        input_ids=tuple(map(_ID, events)),
        idle_snapshots=sum(map(_IDLE, snapshots)))


def _pages(snapshots) -> tuple[PageVisit, ...]:
    """Page kinds in order of first sight; each distinct URL is typed once."""
    by_url = Counter(map(_URL, snapshots))
    by_url.pop(None, None)
    by_url.pop("", None)
    counts: dict[tuple[str, str | None], int] = {}
    for url, seen in by_url.items():
        ref = type_url(url)
        key = (ref.kind, ref.entity)
        counts[key] = counts.get(key, 0) + seen
    return tuple(PageVisit(kind, entity, count) for (kind, entity), count in counts.items())


def _volume(events) -> InputVolume:
    if not events:
        return NO_INPUT
    keys = clicks = scrolls = copies = bursts = 0
    resolutions = {"exact": 0, "tolerance": 0, "zone": 0, "none": 0}
    for event in events:
        kind = event.kind
        if kind == "text":
            keys += event.count
            bursts += 1
        elif kind == "key":
            keys += event.count
        elif kind == "copy":
            keys += event.count
            copies += event.count
        elif kind == "scroll":
            scrolls += event.count
        elif kind == "click":
            clicks += event.count
            resolutions[event.resolution or "none"] += event.count
    return InputVolume(keys, clicks, scrolls, copies, bursts, resolutions["exact"],
                       resolutions["tolerance"], resolutions["zone"], resolutions["none"])


def _targets(events) -> tuple[ClickTarget, ...]:
    counts: dict[tuple[str, str], int] = {}
    for event in events:
        if (event.kind == "click" and event.element is not None
                and event.resolution in ("exact", "tolerance") and event.element.label):
            key = (event.element.role, event.element.label)
            counts[key] = counts.get(key, 0) + 1
    if not counts:
        return ()
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return tuple(ClickTarget(role, label, n) for (role, label), n in ranked[:MAX_TARGETS])
