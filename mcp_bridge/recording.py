"""Starting and stopping a demonstration through the capture daemon's D-Bus
interface — the same calls `phantom record start|stop` makes.

MCP hosts start servers with a trimmed environment (the SDK's own client
passes only HOME, LOGNAME, PATH, SHELL, TERM and USER), so the session bus
address is often missing. The bus socket of a systemd or dbus-broker
session sits at a fixed place, so look there before giving up."""

from __future__ import annotations

import os
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError

from phantom.bus import BusUnavailable, call
from phantom.commands.capture import CAPTURE
from phantom.errors import CliError


def start(name: str) -> dict[str, Any]:
    name = name.strip()
    if not name:
        raise ToolError("the recording name must not be empty")
    recording_id = _call("StartRecording", "s", [name])[0]
    return {"recording_id": int(recording_id), "name": name, "recording": True,
            "next": "do the task once, then call phantom_stop_record; record it at least twice "
                    "(with different values where they vary), then phantom_compile_program"}


def stop() -> dict[str, Any]:
    recording_id, name = _call("StopRecording")
    return {"recording_id": int(recording_id), "name": name, "recording": False}


def _call(method: str, signature: str = "", body: list | None = None) -> list:
    ensure_session_bus_address()
    try:
        return call(*CAPTURE, method, signature, body)
    except BusUnavailable as exc:
        raise ToolError(f"capture daemon not reachable: {exc}") from None
    except CliError as exc:  # a named daemon error (BusCallFailed) or a timeout: one line each
        raise ToolError(str(exc)) from None


def ensure_session_bus_address() -> None:
    """Fill in DBUS_SESSION_BUS_ADDRESS from $XDG_RUNTIME_DIR/bus, or from
    /run/user/<uid>/bus when even XDG_RUNTIME_DIR was not passed on."""
    if os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        return
    runtime = os.environ.get("XDG_RUNTIME_DIR") or f"/run/user/{os.getuid()}"
    if os.path.exists(os.path.join(runtime, "bus")):
        os.environ["DBUS_SESSION_BUS_ADDRESS"] = f"unix:path={runtime}/bus"
