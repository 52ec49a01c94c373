"""Frames from folded runs: timing, titles, typed pages, input volume, click
targets and the evidence pointers back to every row they were built from."""

from __future__ import annotations

from .attribute import Attribution
from .flicker import FoldedRun
from .pages import type_url
from .records import ClickTarget, Frame, InputVolume, PageVisit

MAX_TARGETS = 5


def build_frames(folded: tuple[FoldedRun, ...], attribution: Attribution) -> tuple[Frame, ...]:
    """Frames in chronological order (ties: monitor), numbered f-0001…"""
    ordered = sorted(folded, key=lambda f: (f.first.start_ms, f.first.monitor,
                                            f.first.snapshots[0].id))
    return tuple(_frame(index, item, attribution) for index, item in enumerate(ordered, start=1))


def _frame(index: int, item: FoldedRun, attribution: Attribution) -> Frame:
    snapshots = tuple(s for run in item.runs for s in run.snapshots)
    detour_ids = tuple(i for interruption in item.interruptions for i in interruption.snapshots)
    owned = attribution.by_snapshot
    events = [e for s in snapshots for e in owned.get(s.id, ())]
    if detour_ids:
        events += [e for sid in detour_ids for e in owned.get(sid, ())]
        events.sort(key=lambda e: (e.ts_ms, e.id))  # detours interleave; runs alone are in order
    first = snapshots[0]
    return Frame(
        id=f"f-{index:04d}", monitor=first.monitor, app=item.first.app, site=item.first.site,
        start_ms=item.first.start_ms, end_ms=max(run.end_ms for run in item.runs),
        active_ms=sum(run.active_ms for run in item.runs),
        utc_offset_min=first.utc_offset_min, tz_name=first.tz_name,
        titles=_distinct(s.title for s in snapshots if s.title),
        pages=_pages(snapshots), input=_volume(events), targets=_targets(events),
        interruptions=item.interruptions,
        snapshot_ids=tuple(sorted({s.id for s in snapshots} | set(detour_ids))),
        input_ids=tuple(e.id for e in events),
        idle_snapshots=sum(1 for s in snapshots if s.idle))


def _distinct(values) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for value in values:
        seen.setdefault(value, None)
    return tuple(seen)


def _pages(snapshots) -> tuple[PageVisit, ...]:
    counts: dict[tuple[str, str | None], int] = {}
    for snapshot in snapshots:
        if snapshot.url:
            ref = type_url(snapshot.url)
            key = (ref.kind, ref.entity)
            counts[key] = counts.get(key, 0) + 1
    return tuple(PageVisit(kind, entity, count) for (kind, entity), count in counts.items())


def _volume(events) -> InputVolume:
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
