"""What a running capture can be asked to do: report its status, pause,
resume, start or stop an explicit recording, and forget a stretch of time.

The D-Bus service (and anything else that controls capture) depends on this
protocol alone, never on the daemon: it is handed an object that follows
`CaptureControl` and a way to hear about pause changes (`PauseListeners`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from core.errors import PhantomError


class CaptureControlError(PhantomError):
    """A control request (pause, record, forget…) that cannot be honoured now;
    its code says why (invalid_name, already_recording, paused, not_recording,
    invalid_window)."""


class CaptureControl(Protocol):
    """The running capture, as its controllers see it."""

    @property
    def paused(self) -> bool:
        """True while the user has paused capture."""

    @property
    def recording_name(self) -> str | None:
        """The name of the explicit recording in progress, if any."""

    def status(self) -> dict[str, Any]:
        """What is being captured, since when, and into which store."""

    def pause(self) -> bool:
        """Stop capturing; False if capture was already paused."""

    async def resume(self) -> bool:
        """Capture again, starting with a fresh snapshot; False if not paused."""

    def start_recording(self, name: str) -> int:
        """Begin an explicit recording; its id. Raises CaptureControlError."""

    async def stop_recording(self) -> tuple[int, str]:
        """End the recording in progress: (id, name). Raises CaptureControlError."""

    async def forget(self, since_ms: int, until_ms: int) -> dict[str, Any]:
        """Erase [since, until) from the store through the daemon's own
        writer, so nothing it holds escapes; what went, as a dict. Raises
        CaptureControlError (or the store's error)."""


PausedListener = Callable[[bool], None]


class PauseListeners:
    """Whoever wants to hear that capture was paused or resumed."""

    def __init__(self) -> None:
        self._listeners: list[PausedListener] = []

    def subscribe(self, listener: PausedListener) -> None:
        self._listeners.append(listener)

    def notify(self, paused: bool) -> None:
        for listener in tuple(self._listeners):
            listener(paused)


MAX_RECORDING_NAME = 200


def check_recording_name(name: str) -> str:
    """The name without surrounding blanks; raises unless it is 1–200
    printable characters."""
    name = name.strip()
    if not name or len(name) > MAX_RECORDING_NAME or any(ord(c) < 32 for c in name):
        raise CaptureControlError("a recording name is 1–200 printable characters", code="invalid_name")
    return name
