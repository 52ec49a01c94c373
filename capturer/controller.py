"""The running session's controls, as `CaptureControl` promises them: status,
pause and resume, the explicit recordings — the only stretches in which
typed text is kept (never a password field's) — and forgetting a stretch."""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from core.caches import drop_caches
from core.clock import now_ms
from core.store import RecordingRow, SetEnd
from core.store.forget import forget_window

from .control import CaptureControlError, check_recording_name
from .decide import Pause, Resume
from .sources.base import DisplayLost

if TYPE_CHECKING:
    from .daemon import CaptureSession


@dataclass(frozen=True, slots=True)
class Recording:
    id: int
    name: str
    start_ms: int


class Controller:
    """What the D-Bus service (and tests) may ask of one running session."""

    def __init__(self, session: CaptureSession) -> None:
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
        if self._session.state.paused:
            return False
        self._session.observe_now(Pause(now_ms()))
        return True

    async def resume(self) -> bool:
        """Capture again, starting with a fresh snapshot of whatever has focus
        now, before the caller hears back (so input right after is counted)."""
        session = self._session
        if not session.state.paused:
            return False
        window, lost = None, None
        try:
            window = session.focus.focused_window()
        except DisplayLost as exc:
            lost = str(exc)
        try:
            await session.observe(Resume(now_ms(), window))
        except DisplayLost as exc:
            lost = lost or str(exc)
        if lost is not None:
            session.display.lost(lost)
        return True

    def start_recording(self, name: str) -> int:
        name = check_recording_name(name)
        if self.recording is not None:
            raise CaptureControlError(f"already recording {self.recording.name!r}; stop it first",
                                      code="already_recording")
        session = self._session
        if session.state.paused:
            raise CaptureControlError("capture is paused; resume before recording", code="paused")
        session.input.close_bursts(session.state.focus)
        now = now_ms()
        recording = Recording(session.writer.ids.next("recordings"), name, now)
        session.writer.submit(RecordingRow(recording.id, name, now, None))
        self.recording = recording
        session.writer.flush()
        return recording.id

    async def stop_recording(self) -> tuple[int, str]:
        recording = self.recording
        if recording is None:
            raise CaptureControlError("no recording is in progress", code="not_recording")
        await self._session.input.flush()
        self.end_recording(now_ms())
        await asyncio.get_running_loop().run_in_executor(None, self._session.writer.flush)
        return recording.id, recording.name

    async def forget(self, since_ms: int, until_ms: int) -> dict:
        """Erase [since, min(until, now)): open bursts are written first and the
        accessibility worker drops its cached walks, then the writer — the
        only one that writes — commits what it buffered and forgets, so
        nothing captured in the window survives in the store or in memory.
        What is captured after the call is kept."""
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
        await session.input.flush()
        try:
            await asyncio.wait_for(asyncio.wrap_future(session.a11y.forget_trees()), 5.0)
        except asyncio.TimeoutError:
            raise CaptureControlError("the accessibility worker did not answer; nothing was "
                                      "forgotten — try again", code="unavailable") from None
        writer = session.writer
        report = await asyncio.wrap_future(writer.perform(
            lambda connection: forget_window(connection, writer.path, since_ms, until_ms, now_ms=now,
                                             next_blind_spot_id=lambda: writer.ids.next("blind_spots"))))
        caches = await loop.run_in_executor(None, drop_caches)
        return replace(report, caches=caches).as_dict()

    def end_recording(self, now: int) -> None:
        recording, self.recording = self.recording, None
        if recording is not None:
            self._session.writer.submit(SetEnd("recordings", recording.id, now))

    def status(self) -> dict:
        session = self._session
        state, daemon = session.state, session.daemon
        if state.paused:
            name = "paused"
        elif not state.display_up:
            name = "display_lost"
        elif state.excluded_by is not None:
            name = "excluded"
        else:
            name = "idle" if state.idle else "capturing"
        try:
            size = sum(os.path.getsize(str(daemon.db_path) + s) for s in ("", "-wal")
                       if os.path.exists(str(daemon.db_path) + s))
        except OSError:
            size = 0
        return {
            "state": name,
            "since_ms": daemon.started_ms,
            "pid": os.getpid(),
            "display": daemon.display,
            "db": str(daemon.db_path),
            "db_bytes": size,
            "focused_app": state.focus.app if state.focus and not state.excluded_by else None,
            "excluded_by": state.excluded_by,
            "recording": self.recording_name,
            "accessibility": session.a11y.status,
            "snapshots": session.snapshots.written,
            "input_events": session.input.counts.rows_written + session.input.clicks,
            "blind_spots_open": session.blind.open_kinds(),
            "writer_errors": session.writer.stats().last_error,
            "monitors": len(state.monitors),
        }

    def summary_line(self) -> str:
        status = self.status()
        return f"{status['state']}: {status['snapshots']} snapshots, {status['input_events']} input rows"
