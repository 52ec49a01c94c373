"""A picture of a window: per monitor, one lane per application, frames as
bars, gaps and blind spots shaded, routines marked (`phantom timeline`).

Drawn with matplotlib's object API on the Agg canvas (no pyplot, no global
state, no display), imported here and only here: the compile path never
loads it. The same document gives the same bytes: the font is the DejaVu
Sans matplotlib ships, every colour and position comes from the document
in a fixed order, PNG metadata is left out (matplotlib would stamp its
version) and SVG's element ids are salted with a constant instead of a
random value, and it carries no date.
"""

from __future__ import annotations

import io
from collections import defaultdict
from collections.abc import Callable
from typing import NamedTuple

from ..records import Document
from ..timefmt import TimeFormat

FORMATS = ("png", "svg")
WIDTH_IN, LANE_IN, DPI = 14.0, 0.28, 100
# Colours a person can tell apart (Okabe-Ito and Tableau's), in a fixed order.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
           "#4E79A7", "#F28E2B", "#59A14F", "#B07AA1", "#9C755F", "#76B7B2", "#EDC948")
SHADE = {"idle": "#FFF3B0", "away": "#E6E6E6"}
BLIND = "#F4B6B6"


class RoutineSpan(NamedTuple):
    """One occurrence of a routine: from its first action to its last."""

    routine: str
    monitor: int
    start_ms: int
    end_ms: int


def render_timeline(document: Document, times: TimeFormat, label: str,
                    routines: tuple[RoutineSpan, ...] = (), fmt: str = "png") -> bytes:
    import matplotlib

    matplotlib.use("Agg", force=True)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    if fmt not in FORMATS:
        raise ValueError(f"unknown picture format {fmt!r}; choose from {', '.join(FORMATS)}")
    origin = times.local(document.provenance.since_ms).replace(hour=0, minute=0, second=0,
                                                                microsecond=0)
    origin_ms = int(origin.timestamp() * 1000)

    def hours(ms: int) -> float:
        return (ms - origin_ms) / 3_600_000

    lanes = _lanes(document)
    routine_ids = sorted({r.routine for r in routines})
    rows = len(lanes) + (1 if routine_ids else 0)
    with matplotlib.rc_context({"font.family": "DejaVu Sans", "font.size": 8,
                                "svg.hashsalt": "phantom-timeline", "svg.fonttype": "path",
                                "axes.titlesize": 10}):
        figure = Figure(figsize=(WIDTH_IN, 1.3 + LANE_IN * max(rows, 3)), dpi=DPI)
        FigureCanvasAgg(figure)
        axes = figure.add_subplot()
        colours = {app: PALETTE[i % len(PALETTE)]
                   for i, app in enumerate(sorted({f.app for f in document.frames}))}
        for gap in document.coverage.gaps:
            axes.axvspan(hours(gap.start_ms), hours(gap.end_ms), color=SHADE.get(gap.reason, BLIND),
                         zorder=0, linewidth=0)
        for note in document.blind_spots:
            if note.start_ms is not None and note.end_ms is not None and note.source == "store":
                axes.axvspan(hours(note.start_ms), hours(note.end_ms), facecolor="none",
                             edgecolor=BLIND, hatch="////", zorder=1, linewidth=0)
        low, high = _hour_range(document, hours)
        thinnest = (high - low) / 1000   # a one-snapshot frame still shows
        for row, (monitor, app) in enumerate(lanes):
            spans = [(hours(f.start_ms), max(hours(f.end_ms) - hours(f.start_ms), thinnest))
                     for f in document.frames if f.monitor == monitor and f.app == app]
            axes.broken_barh(spans, (row - 0.35, 0.7), facecolors=colours[app], zorder=2)
        if routine_ids:
            row = len(lanes)
            for index, routine in enumerate(routine_ids):
                spans = [(hours(r.start_ms), max(hours(r.end_ms) - hours(r.start_ms), thinnest))
                         for r in routines if r.routine == routine]
                axes.broken_barh(spans, (row - 0.35, 0.7), facecolors="#333333",
                                 edgecolors=PALETTE[index % len(PALETTE)], linewidth=1.5, zorder=3)
        axes.set_yticks(range(rows), [f"screen {m} · {app}" for m, app in lanes]
                        + (["routines"] if routine_ids else []))
        axes.set_ylim(-0.7, max(rows, 1) - 0.3)
        axes.invert_yaxis()
        axes.set_xlim(low, high)
        ticks = _ticks(low, high)
        axes.set_xticks([t / 3600 for t in ticks], [_tick(t, ticks) for t in ticks])
        axes.grid(axis="x", color="#CCCCCC", linewidth=0.5, zorder=0)
        axes.set_axisbelow(True)
        axes.set_title(f"{label} — {document.provenance.zone}; {len(document.frames)} frames")
        legend = [Patch(facecolor=SHADE["idle"], label="idle gap"),
                  Patch(facecolor=SHADE["away"], label="away"),
                  Patch(facecolor="white", edgecolor=BLIND, hatch="////", label="blind spot")]
        legend += [Patch(facecolor="#333333", edgecolor=PALETTE[i % len(PALETTE)], label=r)
                   for i, r in enumerate(routine_ids[:6])]
        height = figure.get_figheight()
        figure.legend(handles=legend, loc="lower center", ncol=min(len(legend), 6), frameon=False)
        figure.tight_layout(rect=(0, 0.35 / height, 1, 1))
        buffer = io.BytesIO()
        metadata = {"Software": None} if fmt == "png" else {"Date": None, "Creator": None}
        figure.savefig(buffer, format=fmt, dpi=DPI, metadata=metadata)
    return buffer.getvalue()


def _lanes(document: Document) -> list[tuple[int, str]]:
    """(monitor, app) lanes: monitors in order, each's apps by time on it."""
    active: dict[tuple[int, str], int] = defaultdict(int)
    for frame in document.frames:
        active[frame.monitor, frame.app] += frame.end_ms - frame.start_ms
    return sorted(active, key=lambda lane: (lane[0], -active[lane], lane[1]))


def _hour_range(document: Document, hours: Callable[[int], float]) -> tuple[float, float]:
    """The activity's span with a margin: whole hours for a working day, a
    few seconds either side of a capture of a minute."""
    coverage = document.coverage
    if coverage.first_activity_ms is None or coverage.last_activity_ms is None:
        return 0.0, 24.0
    first, last = hours(coverage.first_activity_ms), hours(coverage.last_activity_ms)
    if last - first >= 2:
        return float(int(first)), float(int(last) + 1)
    margin = max((last - first) * 0.1, 10 / 3600)
    return first - margin, last + margin


_STEPS = (5, 10, 30, 60, 300, 900, 1800, 3600, 7200, 21600, 86400)   # seconds


def _ticks(low: float, high: float) -> list[int]:
    """Tick positions in seconds from the origin: the finest step giving at
    most 14 ticks."""
    span = (high - low) * 3600
    step = next((s for s in _STEPS if span / s <= 14), _STEPS[-1])
    first = int(low * 3600) // step * step + (step if low * 3600 % step else 0)
    return list(range(first, int(high * 3600) + 1, step))


def _tick(seconds: int, ticks: list[int]) -> str:
    day, within = divmod(seconds, 86400)
    clock = f"{within // 3600:02d}:{within % 3600 // 60:02d}"
    if len(ticks) > 1 and ticks[1] - ticks[0] < 60:
        clock += f":{within % 60:02d}"
    return clock if day == 0 else f"+{day}d {clock}"
