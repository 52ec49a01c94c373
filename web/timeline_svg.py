"""A day as an SVG picture for the web view: a lane per monitor and app,
each frame a bar linking to its detail, gaps and blind spots shaded behind
them, an hour scale on top. Pure: the JSON document in, markup out. Each
bar carries a <title> (the tooltip and its accessible name) and is a link,
so the picture can be walked by keyboard; the frame table below it on the
page says the same in text."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import quote

from .html import e

__all__ = ["day_svg", "first_shot", "iso_ms"]

WIDTH, LEFT, LANE, TOP = 1100, 190, 22, 24


def iso_ms(iso: str) -> int:
    """An ISO 8601 instant of the JSON document (with its offset) in epoch ms."""
    return int(datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() * 1000)


def first_shot(ranges: str, shots: dict[int, str]) -> str | None:
    """The first snapshot of an evidence range list ("12-40,44") that has a
    screenshot, by its sha256."""
    for part in filter(None, ranges.split(",")):
        low, _, high = part.partition("-")
        for snapshot in range(int(low), int(high or low) + 1):
            if snapshot in shots:
                return shots[snapshot]
    return None


def day_svg(document: dict[str, Any], day: str, shots: dict[int, str] | None = None,
            hits: list[tuple[str, str, str]] | None = None) -> str:
    """The picture; `shots` (snapshot id → screenshot) adds each frame's first
    screenshot, shown while the bar is hovered or focused; `hits` (start,
    end, what matched) marks search results in a strip above the lanes."""
    since, until = iso_ms(document["window"]["since"]), iso_ms(document["window"]["until"])
    span = max(1, until - since)
    frames = document["frames"]
    lanes = sorted({(f["monitor"], f["app"]) for f in frames})
    height = max(TOP + LANE * max(1, len(lanes)) + 8, 130)

    def x(ms: int) -> float:
        return LEFT + (WIDTH - LEFT - 10) * min(max(ms - since, 0), span) / span

    parts = [f'<svg class="timeline" viewBox="0 0 {WIDTH} {height}" role="img" '
             f'aria-label="Timeline of {e(day)}: {len(frames)} frames in {len(lanes)} lanes" '
             'xmlns="http://www.w3.org/2000/svg">']
    shaded = [(g["start"], g["end"], "idle", f"gap: {g['reason']}") for g in document["coverage"]["gaps"]]
    shaded += [(b["start"], b["end"], "blind", f"blind spot: {b['kind']} {b['detail']}".strip())
               for b in document["blind_spots"] if b.get("start")]
    for start, end, kind, label in shaded:
        left, right = x(iso_ms(start)), x(iso_ms(end) if end else until)
        parts.append(f'<rect class="{kind}" x="{left:.1f}" y="{TOP - 4}" width="{max(right - left, 1):.1f}" '
                     f'height="{height - TOP}"><title>{e(label)}</title></rect>')
    for hour in range(0, 25, 3):
        position = x(since + hour * 3_600_000)
        parts.append(f'<text x="{position:.1f}" y="14" text-anchor="middle">{hour:02d}:00</text>')
    for index, (monitor, app) in enumerate(lanes):
        parts.append(f'<text x="4" y="{TOP + index * LANE + 14}">{e(app)} (monitor {monitor})</text>')
    lane_of = {lane: index for index, lane in enumerate(lanes)}
    for start, end, label in hits or []:
        left, right = x(iso_ms(start)), x(iso_ms(end))
        parts.append(f'<rect class="hit" x="{left:.1f}" y="17" width="{max(right - left, 3):.1f}" height="5">'
                     f"<title>{e(label)}</title></rect>")
    for frame in frames:
        row = lane_of[(frame["monitor"], frame["app"])]
        left, right = x(iso_ms(frame["start"])), x(iso_ms(frame["end"]))
        what = " · ".join(filter(None, [frame["app"], frame.get("site") or ""]))
        title = (f"{what}, {frame['start'][11:16]}–{frame['end'][11:16]}, "
                 f"{frame['active_minutes']} min active")
        href = f"/frame?day={quote(day)}&amp;id={quote(str(frame['id']))}"
        shot = first_shot(frame["evidence"]["snapshots"], shots or {})
        preview = ""
        if shot is not None:   # above the lanes' top, or below when the bar is high up
            top = TOP + row * LANE
            y = top - 92 if top > 100 else top + LANE
            preview = (f'<image class="preview" href="/image/{e(shot)}" x="{min(left, WIDTH - 160):.1f}" '
                       f'y="{y}" width="150" height="90" preserveAspectRatio="xMinYMin meet"/>')
        parts.append(f'<a href="{href}"><rect class="frame" x="{left:.1f}" y="{TOP + row * LANE}" '
                     f'width="{max(right - left, 2):.1f}" height="{LANE - 6}"><title>{e(title)}</title>'
                     f"</rect>{preview}</a>")
    parts.append("</svg>")
    return "".join(parts)
