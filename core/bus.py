"""The session bus as every Phantom process reaches it: the services' names,
where the bus is when the environment does not say, and one small
synchronous call with a timeout for command-line clients.

MCP hosts and systemd units often start processes with a trimmed
environment: the SDK's own client passes only HOME, LOGNAME, PATH, SHELL,
TERM and USER. A systemd or dbus-broker session keeps its bus socket at
`$XDG_RUNTIME_DIR/bus` (`/run/user/<uid>/bus`), so that is where to look
before giving up. `dbus-fast` is imported only when a call is made.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from typing import Any

from .errors import ERROR_KINDS, PhantomError

CALL_TIMEOUT_S = 10.0


@dataclass(frozen=True, slots=True)
class BusService:
    """One of Phantom's services on the session bus."""

    name: str
    path: str
    interface: str


CAPTURE = BusService("org.phantom.Capture1", "/org/phantom/Capture1", "org.phantom.Capture1")
REPLAY = BusService("org.phantom.Replay1", "/org/phantom/Replay1", "org.phantom.Replay1")
ACCESSIBILITY = BusService("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus")
NOTIFICATIONS = BusService("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                           "org.freedesktop.Notifications")

_NOT_THERE = ("org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner")
_BY_DBUS_ERROR = {kind.dbus_error: code for code, kind in ERROR_KINDS.items()}


class BusUnavailable(PhantomError):
    """The session bus, or the service on it, is not there."""

    code = "unavailable"


class BusCallFailed(PhantomError):
    """The service answered with a named error; `name` is the D-Bus error name,
    and `code` the Phantom error kind it stands for (when it is one of ours)."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message, code=_BY_DBUS_ERROR.get(name, "failed"))
        self.name = name


def session_bus_address() -> str | None:
    """The session bus address: the environment's, else the standard socket
    under the runtime directory, else None. Fills in the environment when it
    finds the socket, so libraries that read it (pyatspi, GLib) see it too."""
    address = os.environ.get("DBUS_SESSION_BUS_ADDRESS")
    if address:
        return address
    runtime = os.environ.get("XDG_RUNTIME_DIR") or f"/run/user/{os.getuid()}"
    socket = os.path.join(runtime, "bus")
    if os.path.exists(socket):
        address = f"unix:path={socket}"
        os.environ["DBUS_SESSION_BUS_ADDRESS"] = address
        return address
    return None


def capture_status(timeout: float = 3.0) -> dict[str, Any] | None:
    """The running capture daemon's status (`Capture1.Status`, its JSON
    decoded), or None when no daemon answers on the session bus."""
    import json

    try:
        status = json.loads(call(CAPTURE, "Status", timeout=timeout)[0])
    except (BusUnavailable, BusCallFailed):
        return None
    return status if isinstance(status, dict) else None


def call(service: BusService, method: str, signature: str = "", body: list[Any] | None = None, *,
         timeout: float = CALL_TIMEOUT_S, activate: bool = False) -> list[Any]:
    """Call one method of `service` and return its reply body. Raises
    `BusUnavailable` when there is no bus or no such service (and `activate`
    is false), `BusCallFailed` for a named error reply."""
    return asyncio.run(call_async(service, method, signature, body, timeout=timeout, activate=activate))


async def call_async(service: BusService, method: str, signature: str = "", body: list[Any] | None = None, *,
                     timeout: float = CALL_TIMEOUT_S, activate: bool = False) -> list[Any]:
    """`call`, from a running event loop."""
    if session_bus_address() is None:
        raise BusUnavailable("no session D-Bus (DBUS_SESSION_BUS_ADDRESS is not set)")
    return await _call(service, method, signature, body or [], timeout, activate)


async def _call(service: BusService, method: str, signature: str, body: list[Any], timeout: float,
                activate: bool) -> list[Any]:
    from dbus_fast import Message, MessageType
    from dbus_fast.aio import MessageBus
    from dbus_fast.constants import MessageFlag

    try:
        bus = await asyncio.wait_for(MessageBus().connect(), timeout)
    except Exception as exc:  # noqa: BLE001 - any failure to connect means the same to a caller
        raise BusUnavailable(f"cannot reach the session D-Bus: {exc}") from None
    try:
        message = Message(destination=service.name, path=service.path, interface=service.interface,
                          member=method, signature=signature, body=body,
                          flags=MessageFlag(0) if activate else MessageFlag.NO_AUTOSTART)
        try:
            reply = await asyncio.wait_for(bus.call(message), timeout)
        except asyncio.TimeoutError:
            raise PhantomError(f"{service.name} did not answer {method} within {timeout:.0f}s",
                               code="unavailable") from None
        if reply is None:
            raise BusUnavailable(f"{service.name} sent no reply to {method}")
        if reply.message_type == MessageType.ERROR:
            name = reply.error_name or "org.freedesktop.DBus.Error.Failed"
            text = reply.body[0] if reply.body else name
            if name in _NOT_THERE:
                raise BusUnavailable(f"{service.name} is not running")
            raise BusCallFailed(name, str(text))
        return list(reply.body)
    finally:
        bus.disconnect()
