"""`org.phantom.Capture1` on the session bus: status, pause/resume, the
explicit recordings that are the only place typed text is kept, and
forgetting a stretch of time.

Every method takes plain arguments so a desktop shortcut can bind it with
`gdbus call`; refusals are named `org.phantom.Error.<Name>` errors, through
the mapping both services share (`core.dbus_errors`).
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from typing import Annotated

import apsw
from dbus_fast import BusType, NameFlag, RequestNameReply
from dbus_fast.aio import MessageBus
from dbus_fast.annotations import DBusBool, DBusSignature, DBusStr, DBusUInt32
from dbus_fast.constants import PropertyAccess
from dbus_fast.service import ServiceInterface, dbus_method, dbus_property, dbus_signal

from core.bus import CAPTURE
from core.clock import parse_instant_ms
from core.dbus_errors import dbus_error
from core.errors import PhantomError, quoted

from .control import CaptureControl, CaptureControlError, PausedListener

log = logging.getLogger(__name__)

BUS_NAME, OBJECT_PATH, INTERFACE = CAPTURE.name, CAPTURE.path, CAPTURE.interface

IdAndName = Annotated[tuple[int, str], DBusSignature("us")]


class CaptureInterface(ServiceInterface):
    def __init__(self, control: CaptureControl) -> None:
        super().__init__(INTERFACE)
        self._control = control

    @dbus_method()
    def Status(self) -> DBusStr:
        """The daemon's status as a JSON object."""
        return json.dumps(self._control.status(), sort_keys=True)

    @dbus_method()
    def Pause(self) -> DBusBool:
        """Stop capturing; returns false if already paused."""
        return self._control.pause()

    @dbus_method()
    async def Resume(self) -> DBusBool:
        """Capture again; returns false if not paused."""
        return await self._control.resume()

    @dbus_method()
    def StartRecording(self, name: DBusStr) -> DBusUInt32:
        """Begin an explicit demonstration; typed text (never passwords) is kept until stop."""
        try:
            return self._control.start_recording(name)
        except CaptureControlError as exc:
            raise dbus_error(exc) from None

    @dbus_method()
    async def StopRecording(self) -> IdAndName:
        try:
            return await self._control.stop_recording()
        except CaptureControlError as exc:
            raise dbus_error(exc) from None

    @dbus_method()
    async def Forget(self, since: DBusStr, until: DBusStr) -> DBusStr:
        """Erase everything captured from `since` to `until` (ISO 8601; a time
        without an offset is local), through the daemon's own writer; what
        went, as JSON."""
        try:
            since_ms, until_ms = parse_instant_ms(since), parse_instant_ms(until)
        except ValueError:
            raise dbus_error(PhantomError(f"not ISO 8601 times: {quoted(since)}, {quoted(until)}",
                                          code="invalid_window")) from None
        try:
            return json.dumps(await self._control.forget(since_ms, until_ms), sort_keys=True)
        except (PhantomError, apsw.Error) as exc:   # SQLite's own: the store error it stands for
            raise dbus_error(exc) from None

    @dbus_property(access=PropertyAccess.READ)
    def Paused(self) -> DBusBool:
        return self._control.paused

    @dbus_property(access=PropertyAccess.READ)
    def Recording(self) -> DBusStr:
        return self._control.recording_name or ""

    @dbus_signal()
    def PausedChanged(self, paused: bool) -> DBusBool:
        return paused


class CaptureBusService:
    """Exports the interface and owns the bus connection."""

    def __init__(self, control: CaptureControl, on_paused_changed: Callable[[PausedListener], None]) -> None:
        """`on_paused_changed(listener)` subscribes the service to pause
        changes; it emits them as the PausedChanged signal and property."""
        self._bus: MessageBus | None = None
        self.interface = CaptureInterface(control)
        self._subscribe = on_paused_changed

    async def start(self) -> None:
        bus = await MessageBus(bus_type=BusType.SESSION).connect()
        bus.export(OBJECT_PATH, self.interface)
        reply = await bus.request_name(BUS_NAME, NameFlag.DO_NOT_QUEUE)
        if reply not in (RequestNameReply.PRIMARY_OWNER, RequestNameReply.ALREADY_OWNER):
            bus.disconnect()
            raise RuntimeError(f"{BUS_NAME} is already owned by another capture daemon")
        self._bus = bus
        self._subscribe(self._paused_changed)

    def _paused_changed(self, paused: bool) -> None:
        if self._bus is not None:
            self.interface.PausedChanged(paused)
            self.interface.emit_properties_changed({"Paused": paused})

    async def stop(self) -> None:
        if self._bus is not None:
            try:
                await self._bus.release_name(BUS_NAME)
            except Exception:  # noqa: BLE001 - the bus may be gone
                pass
            self._bus.disconnect()
            self._bus = None


async def start_control_bus(control: CaptureControl,
                            subscribe: Callable[[PausedListener], None]) -> CaptureBusService | None:
    """Export org.phantom.Capture1 on the session bus, or say in the log
    why not: capture runs on without its control channel."""
    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        log.info("no session bus: pause/resume/record over D-Bus are unavailable")
        return None
    try:
        service = CaptureBusService(control, subscribe)
        await service.start()
    except Exception as exc:  # noqa: BLE001 - capture runs without its control channel
        log.warning("could not export org.phantom.Capture1: %s", exc)
        return None
    return service
