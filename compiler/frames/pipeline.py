"""Compilation: a capture window in, an activity-frames document out.

The passes run in a fixed order, each a pure function over frozen records
and each in its own module of this package, named for its stage:
segment → quiet (no input, blind spots) → flicker (fold detours) →
attribute input → build frames → coverage → blind spots → provenance →
(optionally) the inferred tier.
Nothing here reads the clock, the environment or a file: `compile_capture`
is deterministic.
"""

from __future__ import annotations

from typing import NamedTuple

from compiler.records import Capture, Document

from . import attribute, blind, build, coverage, flicker, provenance, quiet, segment


class CompileOptions(NamedTuple):
    zone: str                 # the zone the window was cut in (rendering uses recorded offsets)
    inferred: bool = True
    idle_after_ms: int = quiet.IDLE_AFTER_MS   # no input this long is idle (quiet.py)


def compile_capture(capture: Capture, options: CompileOptions) -> Document:
    # Snapshots taken only to name the window that got input without focus
    # anchor input rows; they earn no dwell and open no frame.
    stream = tuple(s for s in capture.snapshots if not attribute.anchor_only(s))
    credited = segment.runs(stream, capture.blind_spots)
    found = quiet.quiet(stream, capture.inputs, capture.blind_spots, capture.until_ms,
                        options.idle_after_ms, quiet.seen_until(credited))
    runs = quiet.apply(credited, found)
    attribution = attribute.attribute_linked(stream, {s.id: s for s in capture.snapshots},
                                             capture.inputs)
    frames = build.build_frames(flicker.fold(runs), attribution)
    tier = None
    if options.inferred:    # the miner behind it (and numpy, which it uses) loads only when asked for
        from .inferred import infer

        tier = infer(capture, frames)
    return Document(
        coverage=coverage.coverage(runs, stream, capture.blind_spots, found, options.idle_after_ms),
        frames=frames,
        blind_spots=blind.blind_spots(capture, frames, attribution),
        provenance=provenance.provenance(capture, options.zone),
        inferred=tier,
    )
