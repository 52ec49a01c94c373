"""The org.phantom.Replay1 interface: each D-Bus method, its signature and
what it answers, handed to the service (`replay/service.py`) that does the
work. Kept apart so the method table reads on one screen."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import apsw
from dbus_fast import DBusError
from dbus_fast.annotations import DBusBool, DBusSignature, DBusStr, DBusUInt32
from dbus_fast.constants import PropertyAccess
from dbus_fast.service import ServiceInterface, dbus_method, dbus_property, dbus_signal

from core.bus import REPLAY
from core.errors import PhantomError, kind_of

from .dbus_errors import clip_message, dbus_error

if TYPE_CHECKING:
    from .service import ReplayService

__all__ = ["ReplayInterface"]

INTERFACE = REPLAY.interface
StrDict = Annotated[dict[str, str], DBusSignature("a{ss}")]
ProgramList = Annotated[list[tuple[str, str, int, int]], DBusSignature("a(ssuu)")]
RunReply = Annotated[tuple[str, int, str], DBusSignature("sus")]


class ReplayInterface(ServiceInterface):
    def __init__(self, service: "ReplayService") -> None:
        super().__init__(INTERFACE)
        self._service = service

    # -- programs ------------------------------------------------------------------------
    @dbus_method()
    def ListPrograms(self) -> ProgramList:
        """(id, name, steps, parameters) of every stored program."""
        self._service.touch()
        from programs.api import list_programs

        if not self._service.db.exists():
            return []  # nothing captured or compiled yet
        try:
            programs = list_programs(self._service.db)
        except (PhantomError, apsw.Error) as exc:
            raise dbus_error(exc, self._service.db) from None
        return [(p.id, p.name, p.steps or 0, p.parameters or 0) for p in programs]

    @dbus_method()
    def Describe(self, program: DBusStr) -> DBusStr:
        """A program's steps, parameter map and guard, as JSON."""
        self._service.touch()
        loaded = self._service.load(program)
        from compiler.programs.records import to_json

        body = json.loads(to_json(loaded))
        body["id"] = loaded.id
        return json.dumps(body, sort_keys=True)

    # -- replay ----------------------------------------------------------------------------
    @dbus_method()
    async def Replay(self, program: DBusStr, parameters: StrDict) -> RunReply:
        """Replay and wait: (status, run id, result JSON)."""
        result = await self._service.replay(program, parameters, wait=True)
        return (result["status"], result["run_id"] or 0, json.dumps(result, sort_keys=True))

    @dbus_method()
    async def ReplayChecked(self, program: DBusStr, parameters: StrDict) -> RunReply:
        """Replay and wait, as Replay; but a run that escalated, was refused or
        failed is an error (org.phantom.Error.Escalated, Refused or Failed,
        the run in its message), so `gdbus call` — what a keyboard shortcut
        runs — exits non-zero. Replay keeps its reply for existing callers."""
        from .results import unsuccessful_run

        result = await self._service.replay(program, parameters, wait=True)
        failure = unsuccessful_run(result)
        if failure is not None:
            code, message = failure
            raise DBusError(kind_of(code).dbus_error, clip_message(message))
        return (result["status"], result["run_id"] or 0, json.dumps(result, sort_keys=True))

    @dbus_method()
    async def ReplayIntent(self, intent: DBusStr, parameters: StrDict) -> RunReply:
        """Replay the active program the words describe — the one that passes
        every gate on the screen as it is, with a compatibility of at least
        0.75 and no close second — and wait: (status, run id, result JSON).
        Its parameters must all be given. No such program:
        org.phantom.Error.NoCompatibleProgram, and nothing is sent."""
        result = await self._service.replay("", parameters, wait=True, intent=intent)
        return (result["status"], result["run_id"] or 0, json.dumps(result, sort_keys=True))

    @dbus_method()
    async def FindProgram(self, intent: DBusStr) -> DBusStr:
        """The active program the words describe that can run now, as JSON:
        id, name, its parameters (name, field, shape — never recorded
        values), the compatibility score and terms, and the other candidates
        with the gate each failed. None fits: NoCompatibleProgram."""
        return await self._service.find(intent)

    @dbus_method()
    async def ReplayAsync(self, program: DBusStr, parameters: StrDict) -> DBusUInt32:
        """Start a replay and return its token at once; follow StepFinished,
        Escalated and RunFinished signals."""
        return await self._service.replay(program, parameters, wait=False)

    @dbus_method()
    def Cancel(self) -> DBusBool:
        """Stop the running replay before its next step."""
        return self._service.cancel()

    # -- memory ----------------------------------------------------------------------------
    @dbus_method()
    async def Context(self, since: DBusStr, until: DBusStr, format: DBusStr) -> DBusStr:
        """The compiled window in compact, json or markdown format. Times: ISO 8601,
        now, today, yesterday, 14:00 or -2h; since='' and until='' for today, a
        since alone runs until now."""
        return await self._service.context(since, until, format)

    @dbus_method()
    async def ListRoutines(self) -> DBusStr:
        """Routine candidates with measures and gate verdicts, as JSON."""
        return await self._service.routines()

    @dbus_property(access=PropertyAccess.READ)
    def Busy(self) -> DBusBool:
        return self._service.busy

    # -- signals -----------------------------------------------------------------------------
    @dbus_signal()
    def StepFinished(self, token: int, step: int, policy: str, outcome: str) -> Annotated[
            tuple[int, int, str, str], DBusSignature("uuss")]:
        return (token, step, policy, outcome)

    @dbus_signal()
    def Escalated(self, token: int, step: int, reason: str, candidates: str) -> Annotated[
            tuple[int, int, str, str], DBusSignature("uuss")]:
        return (token, step, reason, candidates)

    @dbus_signal()
    def RunFinished(self, token: int, status: str, result: str) -> Annotated[
            tuple[int, str, str], DBusSignature("uss")]:
        return (token, status, result)
