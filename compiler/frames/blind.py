"""Blind spots: the store's own rows (clipped to the window) and what the
compiler could not resolve — counted and named, never guessed."""

from __future__ import annotations

from bisect import bisect_right

from compiler.records import BlindSpotNote, Capture, Frame

from .attribute import Attribution


def blind_spots(capture: Capture, frames: tuple[Frame, ...],
                attribution: Attribution) -> tuple[BlindSpotNote, ...]:
    """An open-ended stored spot (capture stopped and not yet restarted)
    lasts until the next snapshot after it starts, or the window's end."""
    times = sorted(s.ts_ms for s in capture.snapshots) if any(
        spot.end_ms is None for spot in capture.blind_spots) else []
    notes = [BlindSpotNote(spot.kind, "store", max(spot.start_ms, capture.since_ms),
                           min(spot.end_ms if spot.end_ms is not None else _next(times, spot.start_ms,
                                                                                 capture.until_ms),
                               capture.until_ms), spot.reason)
             for spot in capture.blind_spots]
    unresolved = sum(f.input.clicks_none for f in frames)
    if unresolved:
        notes.append(BlindSpotNote("unresolved_clicks", "compiler", None, None,
                                   "clicks whose target could not be identified", unresolved))
    zoned = sum(f.input.clicks_zone for f in frames)
    if zoned:
        notes.append(BlindSpotNote("zone_only_clicks", "compiler", None, None,
                                   "clicks that landed in a container, not on a control", zoned))
    if attribution.unattributed:
        notes.append(BlindSpotNote("unattributed_input", "compiler", None, None,
                                   "input with no snapshot within 300 s on its monitor",
                                   len(attribution.unattributed)))
    if attribution.by_nearest:
        notes.append(BlindSpotNote("input_window_unrecorded", "compiler", None, None,
                                   "input whose receiving window the capture did not record, "
                                   "credited to the nearest snapshot on its monitor",
                                   attribution.by_nearest))
    if capture.source == "nocta":
        notes.append(BlindSpotNote("zone_unknown", "compiler", None, None,
                                   "this capture layout records no time zone; times are UTC "
                                   "unless --tz is given"))
    return tuple(sorted(notes, key=lambda n: (n.start_ms is None, n.start_ms or 0, n.kind, n.detail)))


def _next(times: list[int], start_ms: int, until_ms: int) -> int:
    at = bisect_right(times, start_ms)
    return times[at] if at < len(times) else until_ms
