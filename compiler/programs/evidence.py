"""Visual evidence for click steps (docs/VISUAL.md §1): what replay's visual
rung needs to find a click's target again when the accessibility tree
cannot — crops of the screen around the click, where each lay and where the
click lay inside it, and the window's rectangle then.

Two sources, one record (`records.Visual`):
- the capture hook `core.visual_evidence.crop_variants` makes all three
  crops (target, context, wide context) at click time; the capture daemon
  stores them as blobs with a `click_evidence` row each, which
  `read_store_evidence` reads back (`visual_of` turns the hook's own output
  into program evidence, for callers that hold it);
- stores written before the daemon called that hook only hold its one click
  crop (a square centred on the click, clamped to the monitor) and the
  focused window's accessibility tree. `store_crop_visual` lifts that crop
  as the target variant — only when the window's rectangle is known and the
  crop lies inside it, because only then is the crop surely centred on the
  click (a clamped crop would put the click elsewhere in it, and a crop
  reaching past the window holds pixels of whatever lay behind). No context
  crops can be made from such a store: it keeps no larger picture than a
  thumbnail.
A click with stored crops gets those; the lift is only for a click without.

`read_store_evidence` is the I/O edge (read-only); the rest is pure.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, NamedTuple, Protocol

from .errors import ProgramCompileError
from .records import CROP_KINDS, Crop, Program, Visual, from_json, to_json
from .traces import Trace, TraceAction

Rect = tuple[int, int, int, int]
RATIO_DIGITS = 4


class StoreFacts(NamedTuple):
    """What the store says about one click: the crops the capture hook
    stored for it (`visual`), or else — for `store_crop_visual`'s lift — its
    one crop blob's width and height and the focused window's rectangle
    before it."""

    size: tuple[int, int] | None
    window: Rect | None
    visual: Visual | None = None


class CropLike(Protocol):
    """What `visual_of` reads of a capture hook's crop (`core.visual_evidence.CropVariant`)."""

    kind: str
    sha256: str
    x: int
    y: int
    width: int
    height: int
    ratio_x: float
    ratio_y: float


_CROP = "SELECT width, height FROM blobs WHERE sha256 = ?"
_EVIDENCE = ("SELECT kind, blob, x, y, width, height, ratio_x, ratio_y, window_x, window_y, window_w, "
             "window_h FROM click_evidence WHERE input_id = ?")
_HAS_EVIDENCE = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'click_evidence'"
# The focused window's accessibility tree nearest before the click: its root
# element (depth 0) is the window, with its desktop extents.
_WINDOW = ("SELECT e.x, e.y, e.w, e.h FROM snapshots s JOIN elements e "
           "ON e.tree_id = s.tree_id AND e.depth = 0 "
           "WHERE s.focused = 1 AND s.tree_id IS NOT NULL AND s.ts_ms <= ? AND s.app = ? "
           "ORDER BY s.ts_ms DESC, s.id DESC LIMIT 1")


def visual_of(variants: Sequence[CropLike], window: Rect | None) -> Visual | None:
    """Program evidence from the capture hook's crops (`CropVariant`s, whose
    PNGs the caller stores as blobs)."""
    crops = tuple(Crop(v.kind, v.sha256, v.x, v.y, v.width, v.height, v.ratio_x, v.ratio_y)
                  for v in variants)
    if not crops:
        return None
    return Visual(crops, None if window is None else (int(window[0]), int(window[1]), int(window[2]),
                                                       int(window[3])))


def store_crop_visual(x: int | None, y: int | None, crop: str | None, size: tuple[int, int] | None,
                      window: Rect | None) -> Visual | None:
    """The daemon's click crop as a target variant, when it is surely
    centred on the click (see the module docstring); else None."""
    if x is None or y is None or crop is None or size is None or window is None:
        return None
    if min(size) <= 0 or window[2] <= 0 or window[3] <= 0:
        return None
    width, height = size
    left, top = x - width // 2, y - height // 2     # the capturer centres its crop this way
    wx, wy, ww, wh = window
    if left < wx or top < wy or left + width > wx + ww or top + height > wy + wh:
        return None
    target = Crop("target", crop, left, top, width, height,
                  round((x - left + 0.5) / width, RATIO_DIGITS),
                  round((y - top + 0.5) / height, RATIO_DIGITS))
    return Visual((target,), (wx, wy, ww, wh))


def with_store_evidence(traces: Sequence[Trace], facts: Mapping[int, StoreFacts]) -> tuple[Trace, ...]:
    """Traces whose clicks carry the evidence `facts` gives for their input
    event (event id → `StoreFacts`, from `read_store_evidence`): the stored
    crops where there are any, else the lifted click crop; a click that
    already has evidence keeps it."""
    result = []
    for trace in traces:
        actions = []
        for traced in trace.actions:
            event = _event_id(traced)
            if traced.visual is None and traced.step.kind == "click" and event is not None \
                    and event in facts:
                found = facts[event]
                visual = found.visual or store_crop_visual(traced.x, traced.y, traced.crop, found.size,
                                                           found.window)
                traced = replace(traced, visual=visual)
            actions.append(traced)
        result.append(replace(trace, actions=tuple(actions)))
    return tuple(result)


def read_store_evidence(db_path: str | os.PathLike[str], traces: Sequence[Trace]) -> dict[int, StoreFacts]:
    """For every click: the crops the capture stored for it, or else (a click
    with only a crop) the crop blob's size and the focused window's
    rectangle before it (None when the store cannot tell)."""
    from core.store import open_readonly

    wanted = [(event, traced) for trace in traces for traced in trace.actions
              if traced.step.kind == "click" and (event := _event_id(traced)) is not None]
    if not wanted:
        return {}
    connection = open_readonly(db_path)
    try:
        stored = connection.execute(_HAS_EVIDENCE).fetchone() is not None
        facts: dict[int, StoreFacts] = {}
        for event, traced in wanted:
            visual = _stored_visual(connection.execute(_EVIDENCE, (event,)).fetchall()) if stored else None
            if visual is not None:
                facts[event] = StoreFacts(None, None, visual)
                continue
            if not traced.crop:
                continue
            size: Any = connection.execute(_CROP, (traced.crop,)).fetchone()
            window: Any = connection.execute(_WINDOW, (traced.action.ts_ms, traced.step.app)).fetchone()
            usable = window is not None and None not in window
            facts[event] = StoreFacts((int(size[0]), int(size[1])) if size else None,
                                      (int(window[0]), int(window[1]), int(window[2]), int(window[3]))
                                      if usable else None)
        return facts
    finally:
        connection.close()


def _stored_visual(rows: Sequence[Any]) -> Visual | None:
    """A click's `click_evidence` rows as program evidence, smallest crop
    first; None when it has none (or a row of a kind this Phantom does not
    know: better no evidence than a program that will not load)."""
    if not rows or any(row[0] not in CROP_KINDS for row in rows):
        return None
    ordered = sorted(rows, key=lambda row: CROP_KINDS.index(row[0]))
    crops = tuple(Crop(str(kind), str(blob), int(x), int(y), int(width), int(height), float(rx), float(ry))
                  for kind, blob, x, y, width, height, rx, ry, *_ in ordered)
    window = ordered[0][8:12]
    known = None not in window and window[2] > 0 and window[3] > 0
    return Visual(crops, (int(window[0]), int(window[1]), int(window[2]), int(window[3])) if known else None)


def with_visual(program: Program, evidence: Mapping[int, Visual]) -> Program:
    """The program with visual evidence on the given click steps (by index),
    validated and re-identified as a stored program would be."""
    steps = list(program.steps)
    for index, visual in evidence.items():
        step = steps[index]
        if step.action != "click" or step.target is None:
            raise ProgramCompileError(f"step {index} is a {step.action} step; only clicks carry "
                                      "visual evidence")
        steps[index] = replace(step, target=replace(step.target, visual=visual))
    return from_json(to_json(replace(program, steps=tuple(steps))))


def _event_id(traced: TraceAction) -> int | None:
    for reference in traced.action.evidence:
        table, _, row = reference.partition(":")
        if table == "input_events" and row.isdigit():
            return int(row)
    return None
