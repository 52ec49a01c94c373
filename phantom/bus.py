"""Small synchronous calls to Phantom's D-Bus services for the CLI, with a
timeout (dbus-fast proxy calls otherwise wait forever)."""

from __future__ import annotations

import asyncio
import os

from .errors import CliError

CALL_TIMEOUT_S = 10.0


class BusUnavailable(CliError):
    """The session bus or the service is not there."""


class BusCallFailed(CliError):
    """The service answered with a named error."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name


def call(bus_name: str, path: str, interface: str, method: str, signature: str = "",
         body: list | None = None, *, timeout: float = CALL_TIMEOUT_S, activate: bool = False):
    """Call one method and return its reply body (a list)."""
    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        runtime = os.environ.get("XDG_RUNTIME_DIR")
        if runtime and os.path.exists(f"{runtime}/bus"):
            os.environ["DBUS_SESSION_BUS_ADDRESS"] = f"unix:path={runtime}/bus"
        else:
            raise BusUnavailable("no session D-Bus (DBUS_SESSION_BUS_ADDRESS is not set)")
    return asyncio.run(_call(bus_name, path, interface, method, signature, body or [],
                             timeout, activate))


async def _call(bus_name, path, interface, method, signature, body, timeout, activate):
    from dbus_fast import Message, MessageType
    from dbus_fast.aio import MessageBus

    try:
        bus = await asyncio.wait_for(MessageBus().connect(), timeout)
    except Exception as exc:  # noqa: BLE001
        raise BusUnavailable(f"cannot reach the session D-Bus: {exc}") from None
    try:
        flags = 0
        if not activate:
            from dbus_fast.constants import MessageFlag

            flags = MessageFlag.NO_AUTOSTART
        message = Message(destination=bus_name, path=path, interface=interface, member=method,
                          signature=signature, body=body, flags=flags)
        try:
            reply = await asyncio.wait_for(bus.call(message), timeout)
        except asyncio.TimeoutError:
            raise CliError(f"{bus_name} did not answer {method} within {timeout:.0f}s") from None
        if reply.message_type == MessageType.ERROR:
            name = reply.error_name or "org.freedesktop.DBus.Error.Failed"
            text = reply.body[0] if reply.body else name
            if name in ("org.freedesktop.DBus.Error.ServiceUnknown",
                        "org.freedesktop.DBus.Error.NameHasNoOwner"):
                raise BusUnavailable(f"{bus_name} is not running")
            raise BusCallFailed(name, text)
        return reply.body
    finally:
        bus.disconnect()
