"""The frames pipeline: a capture window into an activity-frames document.

One module per pass, each with one entry function, run in this order by
`pipeline.compile_capture`:

    segment.runs            snapshots → runs of one (app, site), dwell credit
                            (ended at the next blind spot)
    quiet.quiet/apply       no input ≥ idle_after: idle (≤ 300 s) or away, moved
                            out of the runs' active time
    flicker.fold            A→B→A detours of ≤ 20 s folded into A
    attribute.attribute     input events → their nearest snapshot
    build.build_frames      folded runs + attributed input → frames
    coverage.coverage       active, idle and away time, span, the gaps between
                            and the silences
    blind.blind_spots       what the store and the compiler could not see
    provenance.provenance   schema, window and a digest of the input rows
    inferred.infer          the inferred tier: routines recurring in the window

Only `inferred` reaches into the routines side (the action stream and the
miner); nothing there imports this package. Segment, quiet, attribute and
coverage run on lists; from LONG_WINDOW rows on they hand the window to
their numpy versions in `arrays`, which give the same records.
"""

from .pipeline import CompileOptions, compile_capture

__all__ = ["CompileOptions", "compile_capture"]
