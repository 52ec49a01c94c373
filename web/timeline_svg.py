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

__all__ = ["day_svg"]

WIDTH, LEFT, LANE, TOP = 1100, 190, 22, 24


def _ms(iso: str) -> int:
    return int(datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() * 1000)


def day_svg(document: dict[str, Any], day: str) -> str:
    since, until = _ms(document["window"]["since"]), _ms(document["window"]["until"])
    span = max(1, until - since)
    frames = document["frames"]
    lanes = sorted({(f["monitor"], f["app"]) for f in frames})
    height = TOP + LANE * max(1, len(lanes)) + 8

    def x(ms: int) -> float:
        return LEFT + (WIDTH - LEFT - 10) * min(max(ms - since, 0), span) / span

    parts = [f'<svg class="timeline" viewBox="0 0 {WIDTH} {height}" role="img" '
             f'aria-label="Timeline of {e(day)}: {len(frames)} frames in {len(lanes)} lanes" '
             'xmlns="http://www.w3.org/2000/svg">']
    shaded = [(g["start"], g["end"], "idle", f"gap: {g['reason']}") for g in document["coverage"]["gaps"]]
    shaded += [(b["start"], b["end"], "blind", f"blind spot: {b['kind']} {b['detail']}".strip())
               for b in document["blind_spots"] if b.get("start")]
    for start, end, kind, label in shaded:
        left, right = x(_ms(start)), x(_ms(end) if end else until)
        parts.append(f'<rect class="{kind}" x="{left:.1f}" y="{TOP - 4}" width="{max(right - left, 1):.1f}" '
                     f'height="{height - TOP}"><title>{e(label)}</title></rect>')
    for hour in range(0, 25, 3):
        position = x(since + hour * 3_600_000)
        parts.append(f'<text x="{position:.1f}" y="14" text-anchor="middle">{hour:02d}:00</text>')
    for index, (monitor, app) in enumerate(lanes):
        parts.append(f'<text x="4" y="{TOP + index * LANE + 14}">{e(app)} (monitor {monitor})</text>')
    lane_of = {lane: index for index, lane in enumerate(lanes)}
    for frame in frames:
        row = lane_of[(frame["monitor"], frame["app"])]
        left, right = x(_ms(frame["start"])), x(_ms(frame["end"]))
        what = " · ".join(filter(None, [frame["app"], frame.get("site") or ""]))
        title = (f"{what}, {frame['start'][11:16]}–{frame['end'][11:16]}, "
                 f"{frame['active_minutes']} min active")
        href = f"/frame?day={quote(day)}&amp;id={quote(str(frame['id']))}"
        parts.append(f'<a href="{href}"><rect class="frame" x="{left:.1f}" y="{TOP + row * LANE}" '
                     f'width="{max(right - left, 2):.1f}" height="{LANE - 6}"><title>{e(title)}</title>'
                     "</rect></a>")
    parts.append("</svg>")
    return "".join(parts)
