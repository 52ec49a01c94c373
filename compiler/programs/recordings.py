"""Reading the demonstrations behind a program name from the store (the I/O
edge of compilation; everything it hands on is pure).

Each finished recording with the name is read on its own window, from a
little before its start to its end: the lead-in supplies the last focused
snapshot before the recording, so its first inputs are attributed to the
right app and an app that already had focus is not mistaken for a switch.
Recordings of one task may be days apart; reading each on its own keeps
the reads small.
"""

from __future__ import annotations

import os
import shlex

from core.errors import PhantomError, quoted

from ..sources import CaptureSource
from .errors import ProgramCompileError
from .evidence import read_store_evidence, with_store_evidence
from .traces import Recording, Trace, recording_traces

# Focused snapshots come at least every 30 s (150 s when idle); ten minutes
# of lead-in always contains one if the capture was running.
LEAD_IN_MS = 600_000

_FINISHED = ("SELECT id, name, start_ms, end_ms FROM recordings "
             "WHERE name = ? AND end_ms IS NOT NULL ORDER BY start_ms, id")
_RUNNING = "SELECT count(*) FROM recordings WHERE name = ? AND end_ms IS NULL"


def traces_for_recordings(db_path: str | os.PathLike[str], name: str) -> tuple[Trace, ...]:
    """One trace per finished recording named `name`, oldest first."""
    try:
        with CaptureSource(db_path) as source:
            if source.kind != "phantom":
                raise ProgramCompileError(
                    f"{db_path} is a {source.kind} capture database; recordings exist only in a "
                    "Phantom store")
            connection = source.connection
            recordings = tuple(Recording(*row) for row in connection.execute(_FINISHED, (name,)))
            running = connection.execute(_RUNNING, (name,)).get
            if not recordings:
                shown = quoted(name)
                hint = (f"a recording named {shown} is still running — stop it with "
                        "`phantom record stop`" if running else
                        f"use `phantom record start {shlex.quote(name) if len(shown) == len(repr(name)) else 'NAME'}`, "
                        "do the task, then `phantom record stop`")
                raise ProgramCompileError(f"no finished recording named {shown}; {hint}")
            traces: list[Trace] = []
            for recording in recordings:
                capture = source.read(recording.start_ms - LEAD_IN_MS, recording.end_ms + 1)
                traces.extend(recording_traces(capture, (recording,)))
        return with_store_evidence(traces, read_store_evidence(db_path, traces))
    except PhantomError:      # a store that cannot be read stays store_unavailable
        raise
    except ValueError as exc:  # a malformed table in the source
        raise ProgramCompileError(f"cannot read {db_path}: {exc}") from None
