"""Compilation: a capture window in, an activity-frames document out.

The passes run in a fixed order, each a pure function over frozen records:
segment → fold flickers → attribute input → build frames → coverage → blind
spots → provenance → (optionally) the inferred tier. Nothing here reads the
clock, the environment or a file: `compile_capture` is deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass

from .attribute import attribute
from .blind import blind_spots
from .coverage import coverage
from .flicker import fold
from .frames import build_frames
from .inferred import infer
from .provenance import provenance
from .records import Capture, Document
from .segment import runs


@dataclass(frozen=True, slots=True)
class CompileOptions:
    zone: str                 # the zone the window was cut in (rendering uses recorded offsets)
    inferred: bool = True


def compile_capture(capture: Capture, options: CompileOptions) -> Document:
    segments = runs(capture.snapshots)
    frames = build_frames(fold(segments), attribution := attribute(capture.snapshots, capture.inputs))
    return Document(
        coverage=coverage(segments, capture.snapshots, capture.blind_spots),
        frames=frames,
        blind_spots=blind_spots(capture, frames, attribution),
        provenance=provenance(capture, options.zone),
        inferred=infer(capture, frames) if options.inferred else None,
    )
