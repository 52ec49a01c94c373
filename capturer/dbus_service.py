"""`org.phantom.Capture1` on the session bus: status, pause/resume, the
explicit recordings that are the only place typed text is kept, and
forgetting a stretch of time.

Every method takes plain arguments so a desktop shortcut can bind it with
`gdbus call`; refusals are named `org.phantom.Error.<Name>` errors, through
the mapping both services share (`core.dbus_errors`).

Two requests are not taken on a caller's word alone. Starting a recording
(typed text is kept while it runs) posts a desktop notification naming the
calling process (`recording_notice`), and `Status` says who started it.
`Forget` erases at most a day: a wider window — `Forget('2000-01-01',
'2100-01-01')` would take the whole history — is refused with
`ConfirmationRequired`, and `ForgetConfirmed` is what a front end that has
asked the person itself (`phantom forget`'s y/N) calls.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Callable, Coroutine
from contextvars import ContextVar
from typing import Annotated, Any

import apsw
from dbus_fast import BusType, Message, NameFlag, RequestNameReply
from dbus_fast.aio import MessageBus
from dbus_fast.annotations import DBusBool, DBusSignature, DBusStr, DBusUInt32
from dbus_fast.constants import PropertyAccess
from dbus_fast.service import ServiceInterface, dbus_method, dbus_property, dbus_signal

from core.bus import CAPTURE
from core.clock import now_ms, parse_instant_ms
from core.dbus_errors import dbus_error
from core.errors import PhantomError, quoted

from .control import CaptureControl, CaptureControlError, PausedListener
from .recording_notice import announce, who_called

log = logging.getLogger(__name__)

BUS_NAME, OBJECT_PATH, INTERFACE = CAPTURE.name, CAPTURE.path, CAPTURE.interface

IdAndName = Annotated[tuple[int, str], DBusSignature("us")]

# Who sent the D-Bus call being handled (see `CaptureInterface.note_caller`).
_CALLER: ContextVar[str | None] = ContextVar("phantom_capture_caller", default=None)

# The widest window `Forget` erases without the person's own confirmation.
UNCONFIRMED_FORGET_MS = 24 * 3_600_000


class CaptureInterface(ServiceInterface):
    def __init__(self, control: CaptureControl) -> None:
        super().__init__(INTERFACE)
        self._control = control
        self.bus: MessageBus | None = None      # set once exported: notifications go out on it
        self._started_by: tuple[str, str] | None = None   # (recording name, who started it)
        self._tasks: set[asyncio.Task[bool]] = set()

    @staticmethod
    def note_caller(message: Message) -> bool:
        """The bus's message handler, run just before it dispatches each call:
        sets `_CALLER` to who sent it. The bus starts a coroutine method as a
        task right after, in the same step, and a task keeps a copy of the
        context it was made in: each call's task sees its own sender, however
        many calls arrive together. Never handles the message itself."""
        if message.interface == INTERFACE:
            _CALLER.set(message.sender)
        return False

    @dbus_method()
    def Status(self) -> DBusStr:
        """The daemon's status as a JSON object."""
        status = self._control.status()
        started = self._started_by
        status["recording_started_by"] = (started[1] if started and status.get("recording") == started[0]
                                          else None)
        return json.dumps(status, sort_keys=True)

    @dbus_method()
    def Pause(self) -> DBusBool:
        """Stop capturing; returns false if already paused."""
        return self._control.pause()

    @dbus_method()
    async def Resume(self) -> DBusBool:
        """Capture again; returns false if not paused."""
        return await self._control.resume()

    @dbus_method()
    async def StartRecording(self, name: DBusStr) -> DBusUInt32:
        """Begin an explicit demonstration; typed text (never passwords) is kept
        until stop. The person is told on the desktop, with the caller's name:
        the caller is looked up before the reply, while it still waits for
        it (a `gdbus call` is gone the moment it has its answer)."""
        caller = _CALLER.get()
        who = await who_called(self.bus, caller) if self.bus is not None else "an unknown caller"
        try:
            recording_id = self._control.start_recording(name)
        except CaptureControlError as exc:
            raise dbus_error(exc) from None
        recording = self._control.recording_name or name
        self._started_by = (recording, who)
        if self.bus is not None:
            self._spawn(announce(self.bus, recording, who))
        return recording_id

    def _spawn(self, work: Coroutine[Any, Any, bool]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)   # held until done: the loop keeps only a weak reference
        task.add_done_callback(self._tasks.discard)

    @dbus_method()
    async def StopRecording(self) -> IdAndName:
        try:
            stopped = await self._control.stop_recording()
        except CaptureControlError as exc:
            raise dbus_error(exc) from None
        self._started_by = None
        return stopped

    @dbus_method()
    async def Forget(self, since: DBusStr, until: DBusStr) -> DBusStr:
        """Erase everything captured from `since` to `until` (ISO 8601; a time
        without an offset is local), through the daemon's own writer; what
        went, as JSON. At most a day: a wider window is refused with
        ConfirmationRequired (see `ForgetConfirmed`)."""
        since_ms, until_ms = _window(since, until)
        if min(until_ms, now_ms()) - since_ms > UNCONFIRMED_FORGET_MS:
            raise dbus_error(PhantomError(
                f"forgetting {quoted(since)} to {quoted(until)} would erase more than a day; ask the "
                "person, then call ForgetConfirmed (`phantom forget` asks and does)",
                code="confirmation_required"))
        return await self._forget(since_ms, until_ms)

    @dbus_method()
    async def ForgetConfirmed(self, since: DBusStr, until: DBusStr) -> DBusStr:
        """`Forget` of any width, for a caller that has asked the person first
        (`phantom forget` after its y/N prompt or --yes)."""
        return await self._forget(*_window(since, until))

    async def _forget(self, since_ms: int, until_ms: int) -> str:
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


def _window(since: str, until: str) -> tuple[int, int]:
    try:
        return parse_instant_ms(since), parse_instant_ms(until)
    except ValueError:
        raise dbus_error(PhantomError(f"not ISO 8601 times: {quoted(since)}, {quoted(until)}",
                                      code="invalid_window")) from None


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
        self.interface.bus = bus
        bus.add_message_handler(self.interface.note_caller)
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
