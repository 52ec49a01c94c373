"""Starting and stopping a demonstration through the capture daemon's D-Bus
interface — the same calls `phantom record start|stop` makes (the bus is
found as `core.bus` finds it, even from a trimmed MCP host environment)."""

from __future__ import annotations

from typing import Any

from core.bus import CAPTURE, BusUnavailable, call
from core.errors import PhantomError

from .errors import check_text


def start(name: str) -> dict[str, Any]:
    name = check_text(name.strip(), "the recording name")
    if not name:
        raise PhantomError("the recording name must not be empty", code="usage")
    recording_id = _call("StartRecording", "s", [name])[0]
    return {"recording_id": int(recording_id), "name": name, "recording": True,
            "next": "do the task once, then call phantom_stop_record; record it at least twice "
                    "(with different values where they vary), then phantom_compile_program"}


def stop() -> dict[str, Any]:
    recording_id, name = _call("StopRecording")
    return {"recording_id": int(recording_id), "name": name, "recording": False}


def _call(method: str, signature: str = "", body: list[Any] | None = None) -> list[Any]:
    try:
        return call(CAPTURE, method, signature, body)
    except BusUnavailable as exc:
        raise BusUnavailable(f"capture daemon not reachable: {exc}") from None

