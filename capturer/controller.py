"""The running session's controls, as `CaptureControl` promises them: status,
pause and resume, the explicit recordings — the only stretches in which
typed text is kept (never a password field's) — and forgetting a stretch.

The controller holds the rules of these controls (what may happen when, in
which order, and what is on disk before the caller hears back); the session
it controls owns the parts that carry them out. It sees that session only as
`RunningSession`: a handful of questions and requests in the controls' own
terms, so the session's parts (the display, the input path, the
accessibility worker, the store writer) can change without the controller
knowing them.
"""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import Future
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from core.caches import drop_caches
from core.clock import now_ms
from core.store.forget import ForgetReport

from .control import CaptureControlError, check_recording_name
from .decide import CaptureState, Forgot, Observation, Pause, Resume
from .sources.base import DisplayLost, WindowInfo


@dataclass(frozen=True, slots=True)
class Recording:
    id: int
    name: str
    start_ms: int


@dataclass(frozen=True, slots=True)
class SessionFigures:
    """What a status report says of a session besides its rules' state:
    where it captures, since when, and what it has written so far."""

    db_path: Path
    display: str
    started_ms: int
    snapshots: int                      # snapshot rows written
    input_events: int                   # input rows written, clicks included
    blind_spots_open: tuple[str, ...]   # kinds, sorted
    writer_error: str | None            # the store writer's last error, until a commit succeeds
    accessibility: str                  # the accessibility worker's status
    accessibility_error: str | None


class RunningSession(Protocol):
    """What the controller asks of the session it controls
    (`capturer.daemon.CaptureSession` is the one that runs)."""

    @property
    def state(self) -> CaptureState:
        """The rules' current state (paused, focus, display, accessibility)."""

    def observe_now(self, observation: Observation) -> None:
        """Decide `observation` and perform what the rules say; for
        observations whose rules never ask for a snapshot."""

    async def observe(self, observation: Observation) -> None:
        """Decide `observation` and perform what the rules say, snapshots included."""

    def focused_window(self) -> WindowInfo | None:
        """The window that has focus now; raises DisplayLost."""

    def display_lost(self, reason: str) -> None:
        """The display went away (found out by a control): reconnect as for any loss."""

    def close_bursts(self, window: WindowInfo | None) -> None:
        """End the input bursts open in `window`, so what follows is counted apart."""

    async def flush_input(self) -> None:
        """Hand every open burst to the writer."""

    def open_recording_row(self, name: str, start_ms: int) -> int:
        """Write the row of a recording that starts now; its id."""

    def close_recording_row(self, recording_id: int, end_ms: int) -> None:
        """Write the end of a recording."""

    def flush(self) -> bool:
        """Commit what the writer holds (blocks); True once it is on disk."""

    def forget_trees(self) -> Future[None]:
        """Drop the accessibility walks held in memory; done when they are gone."""

    def forget_rows(self, since_ms: int, until_ms: int, now: int) -> Future[ForgetReport]:
        """Erase [since, until) through the store writer, after what it buffered."""

    def figures(self) -> SessionFigures: ...


class Controller:
    """What the D-Bus service (and tests) may ask of one running session."""

    def __init__(self, session: RunningSession) -> None:
        self._session = session
        self.recording: Recording | None = None

    @property
    def paused(self) -> bool:
        return self._session.state.paused

    @property
    def recording_name(self) -> str | None:
        return self.recording.name if self.recording else None

    @property
    def recording_id(self) -> int | None:
        return self.recording.id if self.recording else None

    def pause(self) -> bool:
        """Pause; the pause is on disk before the caller hears back (a
        crash right after must not forget it)."""
        if self._session.state.paused:
            return False
        self._session.observe_now(Pause(now_ms()))
        self._session.flush()
        return True

    async def resume(self) -> bool:
        """Capture again, starting with a fresh snapshot of whatever has focus
        now, before the caller hears back (so input right after is counted)."""
        session = self._session
        if not session.state.paused:
            return False
        window, lost = None, None
        try:
            window = session.focused_window()
        except DisplayLost as exc:
            lost = str(exc)
        try:
            await session.observe(Resume(now_ms(), window))
        except DisplayLost as exc:
            lost = lost or str(exc)
        if lost is not None:
            session.display_lost(lost)
        await asyncio.get_running_loop().run_in_executor(None, session.flush)
        return True

    def start_recording(self, name: str) -> int:
        name = check_recording_name(name)
        if self.recording is not None:
            raise CaptureControlError(f"already recording {self.recording.name!r}; stop it first",
                                      code="already_recording")
        session = self._session
        if session.state.paused:
            raise CaptureControlError("capture is paused; resume before recording", code="paused")
        session.close_bursts(session.state.focus)
        now = now_ms()
        recording = Recording(session.open_recording_row(name, now), name, now)
        self.recording = recording
        session.flush()
        return recording.id

    async def stop_recording(self) -> tuple[int, str]:
        recording = self.recording
        if recording is None:
            raise CaptureControlError("no recording is in progress", code="not_recording")
        await self._session.flush_input()
        self.end_recording(now_ms())
        await asyncio.get_running_loop().run_in_executor(None, self._session.flush)
        return recording.id, recording.name

    def adopt_recording(self, recording: Recording) -> None:
        """Carry on a recording the run before this one handed over (it
        re-executed itself): typed text keeps being kept until it stops."""
        self.recording = recording

    def hand_over_recording(self) -> Recording | None:
        """The recording in progress, let go without ending it: the daemon
        re-executes and the next run carries it on (`adopt_recording`)."""
        recording, self.recording = self.recording, None
        return recording

    async def forget(self, since_ms: int, until_ms: int) -> dict[str, Any]:
        """Erase [since, min(until, now)): open bursts are written first and the
        accessibility worker drops its cached walks, then the writer — the
        session's, which holds what it buffered — commits and forgets, so
        nothing captured in the window survives in the store or in memory.
        What is captured after the call is kept, linked to a fresh snapshot
        of the window that has focus."""
        now = now_ms()
        if since_ms >= min(until_ms, now):
            raise CaptureControlError("nothing to forget: the window must start before it ends "
                                      "and before now", code="invalid_window")
        recording = self.recording
        if recording is not None and recording.start_ms < until_ms:
            raise CaptureControlError(
                f"the demonstration {recording.name!r} being recorded overlaps that time; stop it "
                "(`phantom record stop`) or discard it (`phantom record discard`) first",
                code="already_recording")
        session = self._session
        loop = asyncio.get_running_loop()
        await session.flush_input()
        try:
            await asyncio.wait_for(asyncio.wrap_future(session.forget_trees()), 5.0)
        except asyncio.TimeoutError:
            raise CaptureControlError("the accessibility worker did not answer; nothing was "
                                      "forgotten — try again", code="unavailable") from None
        forgetting = session.forget_rows(since_ms, until_ms, now)
        # The window that has focus is seen again at once (committed after
        # the forget), so what is typed next names a snapshot that exists.
        try:
            await session.observe(Forgot(now_ms()))
        except DisplayLost as exc:
            session.display_lost(str(exc))
        report = await asyncio.wrap_future(forgetting)
        caches = await loop.run_in_executor(None, drop_caches)
        return replace(report, caches=caches).as_dict()

    def end_recording(self, now: int) -> None:
        recording, self.recording = self.recording, None
        if recording is not None:
            self._session.close_recording_row(recording.id, now)

    def status(self) -> dict[str, Any]:
        state = self._session.state
        figures = self._session.figures()
        if state.paused:
            name = "paused"
        elif not state.display_up:
            name = "display_lost"
        elif state.excluded_by is not None:
            name = "excluded"
        else:
            name = "idle" if state.idle else "capturing"
        db = str(figures.db_path)
        try:
            size = sum(os.path.getsize(db + s) for s in ("", "-wal") if os.path.exists(db + s))
        except OSError:
            size = 0
        return {
            "state": name,
            "since_ms": figures.started_ms,
            "pid": os.getpid(),
            "display": figures.display,
            "db": db,
            "db_bytes": size,
            "focused_app": state.focus.app if state.focus and not state.excluded_by else None,
            "excluded_by": state.excluded_by,
            "recording": self.recording_name,
            "accessibility": figures.accessibility if state.accessibility_up else state.accessibility,
            "accessibility_error": None if state.accessibility_up else figures.accessibility_error,
            "snapshots": figures.snapshots,
            "input_events": figures.input_events,
            "blind_spots_open": list(figures.blind_spots_open),
            "writer_errors": figures.writer_error,
            "monitors": len(state.monitors),
        }

    def summary_line(self) -> str:
        status = self.status()
        return f"{status['state']}: {status['snapshots']} snapshots, {status['input_events']} input rows"
