"""`org.phantom.Replay1`: replay (by name, or by what to do in words),
context and routines over the session bus, for desktop shortcuts
(`gdbus call …`) and any other local client.

Started on demand by D-Bus activation (or its systemd unit), it exits after
an idle timeout so the embedding model does not sit in memory. Replays go
through replay's one front door (`replay/api.py`): one per desktop across
processes (a second gets `org.phantom.Error.Busy`), every refusal a named
`org.phantom.Error.*` that sent no input, and a desktop notification when a
run the person started from a shortcut escalates, is refused or fails.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, overload

import apsw
from dbus_fast import BusType, DBusError, NameFlag, RequestNameReply
from dbus_fast.aio import MessageBus

from core.bus import REPLAY
from core.errors import PhantomError, kind_of

from .dbus_errors import check_arguments, clip_message, dbus_error, named_error
from .service_interface import ReplayInterface

if TYPE_CHECKING:
    from compiler.programs.records import Program

    from .api import Prepared, ReplayRequest
    from .desktop_lock import DesktopLock
    from .engine import ReplayEngine
    from .outcomes import StepOutcome
    from .telemetry import Telemetry

log = logging.getLogger(__name__)

BUS_NAME, OBJECT_PATH, INTERFACE = REPLAY.name, REPLAY.path, REPLAY.interface
DEFAULT_IDLE_TIMEOUT_S = 120.0


class ReplayService:
    def __init__(self, db: Path | None, idle_timeout: float = DEFAULT_IDLE_TIMEOUT_S, *,
                 notify_success: bool = False) -> None:
        self._db = db
        self.idle_timeout = idle_timeout
        self.notify_success = notify_success
        self.interface = ReplayInterface(self)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._bus: MessageBus | None = None
        self._last_activity = time.monotonic()
        self._lock = threading.Lock()
        self._busy = False
        self._token = 0
        self._engine: ReplayEngine | None = None
        self._telemetry: Telemetry | None = None
        self._telemetry_db: Path | None = None
        self._stop = threading.Event()

    @property
    def db(self) -> Path:
        """The store of this call: the one the service was started with, else
        the one the CLI would use now (`PHANTOM_DB`, the store `phantom
        install --db` recorded, the default). Read on every call, so a store
        chosen after the service started is the one the next call reaches."""
        from core.store.paths import default_db_path

        return self._db if self._db is not None else default_db_path()

    @property
    def busy(self) -> bool:
        return self._busy

    def touch(self) -> None:
        self._last_activity = time.monotonic()

    @property
    def _running_loop(self) -> asyncio.AbstractEventLoop:
        """The loop `serve` runs on: the bus's methods are called only from it."""
        loop = self._loop
        assert loop is not None, "a bus call before the service serves"
        return loop

    # -- running -------------------------------------------------------------------------------
    async def serve(self) -> int:
        self._loop = asyncio.get_running_loop()
        bus = self._bus = await MessageBus(bus_type=BusType.SESSION).connect()
        bus.export(OBJECT_PATH, self.interface)
        bus.add_message_handler(check_arguments)
        reply = await bus.request_name(BUS_NAME, NameFlag.DO_NOT_QUEUE)
        if reply not in (RequestNameReply.PRIMARY_OWNER, RequestNameReply.ALREADY_OWNER):
            bus.disconnect()
            log.error("%s is already owned", BUS_NAME)
            return 1
        log.info("serving %s (idle timeout %.0f s)", BUS_NAME, self.idle_timeout)
        try:
            while True:
                await asyncio.sleep(min(1.0, self.idle_timeout / 4))
                if not bus.connected:
                    log.info("the session bus went away; exiting")
                    break
                idle = time.monotonic() - self._last_activity
                if not self._busy and idle >= self.idle_timeout:
                    log.info("idle for %.0f s; exiting", idle)
                    break
        finally:
            if bus.connected:
                try:
                    await bus.release_name(BUS_NAME)
                except Exception:  # noqa: BLE001 - the bus may be going away
                    pass
                bus.disconnect()
        return 0

    def load(self, name_or_id: str) -> Program:
        from programs.api import load

        try:
            return load(self.db, name_or_id)
        except (PhantomError, apsw.Error) as exc:
            raise dbus_error(exc, self.db) from None

    def engine(self) -> ReplayEngine:
        """The replay engine (and its embedding model) and the telemetry
        connection, kept between calls."""
        from replay.engine import ReplayEngine
        from replay.telemetry import Telemetry

        db = self.db
        with self._lock:
            if self._engine is None:
                self._engine = ReplayEngine()
            if self._telemetry is None or self._telemetry_db != db:
                if self._telemetry is not None:
                    self._telemetry.close()
                self._telemetry, self._telemetry_db = Telemetry(db), db
            return self._engine

    async def find(self, intent: str) -> str:
        """FindProgram: rank, gate, and describe the choice."""
        from replay.api import find
        from replay.results import choice_dict

        self.touch()
        matcher = self.engine().matcher

        def work() -> str:
            try:
                return json.dumps(choice_dict(find(self.db, intent, matcher=matcher)), sort_keys=True)
            except (PhantomError, apsw.Error) as exc:
                raise dbus_error(exc, self.db) from None
        return await self._running_loop.run_in_executor(None, work)

    @overload
    async def replay(self, name_or_id: str, parameters: dict[str, str], *, wait: Literal[True],
                     intent: str | None = None) -> dict[str, Any]: ...

    @overload
    async def replay(self, name_or_id: str, parameters: dict[str, str], *, wait: Literal[False],
                     intent: str | None = None) -> int: ...

    async def replay(self, name_or_id: str, parameters: dict[str, str], *, wait: bool,
                     intent: str | None = None) -> dict[str, Any] | int:
        """Prepare and claim the desktop here, so a bad call or a busy desktop
        is a named error; then run in a worker thread."""
        from functools import partial

        from replay.api import ReplayRequest, claim, prepare

        self.touch()
        db = self.db   # one store for the whole call
        request = ReplayRequest(name_or_id, parameters, trigger="dbus", intent=intent)
        try:
            prepared = await self._running_loop.run_in_executor(
                None, partial(prepare, db, request, matcher=self.engine().matcher))
        except (PhantomError, apsw.Error) as exc:
            raise dbus_error(exc, db) from None
        with self._lock:
            if self._busy:
                raise named_error("Busy", "a replay is already running; wait for RunFinished; nothing was sent")
            self._busy = True
            self._token += 1
            token = self._token
        lock = None
        try:
            lock = await self._running_loop.run_in_executor(None, claim)
            if not wait:
                # ReplayAsync answers at once, so the window is looked for before it does.
                await self._running_loop.run_in_executor(None, _check_window, prepared.program)
        except BaseException as exc:
            # Whatever went wrong before the run started, the desktop is free
            # again: a flag left set would answer Busy until the idle exit.
            self._busy = False
            if lock is not None:
                lock.release()
            if isinstance(exc, (PhantomError, apsw.Error)):
                raise dbus_error(exc, db) from None
            raise
        self._stop.clear()
        self.interface.emit_properties_changed({"Busy": True})
        future = self._running_loop.run_in_executor(None, self._run, db, prepared, request, lock, token)
        if not wait:
            return token
        result = await future
        if result["status"] == "refused" and not result["sent_input"] and result.get("code"):
            # Nothing ran: the program's window is not there (or not one window).
            raise DBusError(kind_of(result["code"]).dbus_error,
                            clip_message(result["escalation"]["reason"]))
        return result

    def _run(self, db: Path, prepared: Prepared, request: ReplayRequest, lock: DesktopLock,
             token: int) -> dict[str, Any]:
        """Runs in a worker thread; signals go back through the loop."""
        from replay.api import run
        from replay.outcomes import broken_off
        from replay.results import result_dict

        emit = self._running_loop.call_soon_threadsafe
        program = prepared.program
        try:
            engine = self.engine()
            engine.stop = self._stop

            def on_step(outcome: StepOutcome) -> None:
                emit(self.interface.StepFinished, token, outcome.index, outcome.policy, outcome.outcome)

            engine.on_step = on_step
            result = result_dict(run(db, prepared, request, engine=engine,
                                     telemetry=self._telemetry))
        except Exception as exc:  # noqa: BLE001 - reported as a failed run, never a dead service
            log.exception("replay failed")
            result = result_dict(broken_off(program.id, program.name, str(exc), request.intent or ""))
        finally:
            lock.release()
            self._busy = False
            self.touch()
        escalation = result.get("escalation")
        if escalation:
            emit(self.interface.Escalated, token, escalation["step"], escalation["reason"],
                 json.dumps(escalation["candidates"], sort_keys=True))
        emit(self.interface.RunFinished, token, result["status"], json.dumps(result, sort_keys=True))
        emit(self.interface.emit_properties_changed, {"Busy": False})
        self._notify(result)
        return result

    def _notify(self, result: dict[str, Any]) -> None:
        """Tell the person on the screen when a run did not succeed (and, if
        asked, when it did)."""
        from replay.notify import message_for, notify

        if self._bus is None or (result["status"] == "success" and not self.notify_success):
            return
        message = message_for(result)
        if message is not None:
            asyncio.run_coroutine_threadsafe(
                notify(self._bus, *message, critical=result["status"] != "success"), self._running_loop)

    def cancel(self) -> bool:
        self.touch()
        if not self._busy:
            return False
        self._stop.set()
        return True

    async def context(self, since: str, until: str, fmt: str) -> str:
        self.touch()
        from compiler.api import compile_window, render

        def work() -> str:
            from core.clock import now_ms

            try:  # '' and '': today; a start alone: until now (the clock is read here, at the edge)
                compiled = compile_window(self.db, since=since or None, until=until or None,
                                          now_ms=now_ms())
                return render(compiled, fmt or "compact").decode()
            except (PhantomError, apsw.Error) as exc:
                raise dbus_error(exc, self.db) from None
        return await self._running_loop.run_in_executor(None, work)

    async def routines(self) -> str:
        self.touch()
        from compiler.api import report_dict, routine_report

        def work() -> str:
            try:
                report, _ = routine_report(self.db, limit=50)
            except (PhantomError, apsw.Error) as exc:
                raise dbus_error(exc, self.db) from None
            return json.dumps(report_dict(report), sort_keys=True)
        return await self._running_loop.run_in_executor(None, work)


def _check_window(program: Program) -> None:
    """The program's window must be there, and be one, before ReplayAsync
    accepts a run; otherwise the caller gets a named error and nothing is sent."""
    from replay.windows import XSession

    session = XSession()
    try:
        session.find(program.guard)
    finally:
        session.close()
