"""The capture daemon's own connection to the accessibility bus.

libatspi says nothing when its bus goes away: calls simply fail, which
looks like applications that cannot be read. So the daemon holds a
connection of its own (dbus-fast, on its event loop) to the address it
checked and pinned for libatspi (`core.a11y.bus`); the moment that
connection drops, the bus is gone — a fact, not a guess from failing calls.
The same connection asks a hung application whether it answers again (a
property read handled by the application's own accessibility code, so a
stopped or busy application stays silent), without blocking the worker
thread that owns every libatspi call.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from core.a11y.bus import AccessibilityBusError, locate, pin_address

if TYPE_CHECKING:
    from dbus_fast.aio import MessageBus

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_S = 2.0
ROOT_PATH = "/org/a11y/atspi/accessible/root"


class AccessibilityBusWatch:
    def __init__(self, display: str, on_lost: Callable[[str], None]) -> None:
        self._display = display
        self._on_lost = on_lost
        self._bus: MessageBus | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._closing = False

    async def connect(self) -> str | None:
        if self._bus is not None:
            return None
        try:
            address = await locate(self._display, timeout=CONNECT_TIMEOUT_S)
        except AccessibilityBusError as exc:
            return str(exc)
        from dbus_fast.aio import MessageBus

        try:
            bus = await asyncio.wait_for(MessageBus(bus_address=address).connect(), CONNECT_TIMEOUT_S)
        except Exception as exc:  # noqa: BLE001 - gone again between the check and now
            return f"the accessibility bus at {address} did not accept a connection ({exc.__class__.__name__})"
        pin_address(address)
        self._bus = bus
        self._watcher = asyncio.ensure_future(self._watch(bus))
        return None

    async def _watch(self, bus: MessageBus) -> None:
        try:
            await bus.wait_for_disconnect()  # type: ignore[no-untyped-call]  # dbus-fast leaves it unannotated
        except Exception:  # noqa: BLE001 - a connection that ends in error has ended all the same
            pass
        if self._bus is bus:
            self._bus = None
            if not self._closing:
                self._on_lost("the accessibility bus connection closed")

    async def answers(self, bus_name: str, timeout: float) -> bool:
        bus = self._bus
        if bus is None:
            return False
        from dbus_fast import Message

        message = Message(destination=bus_name, path=ROOT_PATH, interface="org.freedesktop.DBus.Properties",
                          member="Get", signature="ss", body=["org.a11y.atspi.Accessible", "ChildCount"])
        try:
            await asyncio.wait_for(bus.call(message), timeout)
        except asyncio.TimeoutError:
            return False
        except Exception:  # noqa: BLE001 - the bus went away: nobody answers
            return False
        return True   # a reply, or an error from the bus daemon for a name that is gone

    async def close(self) -> None:
        self._closing = True
        bus, self._bus = self._bus, None
        if bus is not None:
            bus.disconnect()
        if self._watcher is not None:
            self._watcher.cancel()
