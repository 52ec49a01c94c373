"""How `org.phantom.Replay1` answers a bad call: the methods' argument
signatures, checked before dbus-fast dispatches (it would answer a wrong
signature with UnknownMethod, which misleads a shortcut author), and the one
mapping from Phantom's error family to `org.phantom.Error.*` names."""

from __future__ import annotations

import os

import apsw
from dbus_fast import DBusError

from core.bus import REPLAY
from core.errors import DBUS_ERROR_PREFIX, PhantomError, one_line
from core.store.errors import from_sqlite


def named_error(name: str, message: str) -> DBusError:
    return DBusError(DBUS_ERROR_PREFIX + name, message)


SIGNATURES = {"ListPrograms": "", "Describe": "s", "Replay": "sa{ss}", "ReplayAsync": "sa{ss}",
              "ReplayIntent": "sa{ss}", "FindProgram": "s", "Cancel": "", "Context": "sss",
              "ListRoutines": ""}


def check_arguments(message) -> bool:
    """A call to one of our methods with the wrong argument types gets
    org.phantom.Error.InvalidArguments, naming what the method takes (the
    library alone would answer UnknownMethod, which misleads a shortcut author)."""
    from dbus_fast.constants import MessageType

    if (message.message_type == MessageType.METHOD_CALL and message.path == REPLAY.path
            and message.interface in (REPLAY.interface, None) and message.member in SIGNATURES
            and message.signature != SIGNATURES[message.member]):
        expected = SIGNATURES[message.member] or "no arguments"
        raise named_error("InvalidArguments", f"{message.member} takes ({expected}), "
                          f"not ({message.signature or 'nothing'}); nothing was sent")
    return False


def dbus_error(exc: PhantomError | apsw.Error, db: object = None) -> DBusError:
    """The one mapping from Phantom's error family to a D-Bus error name.
    SQLite's own errors (damage, a full or read-only disk met mid-read)
    become the store error they stand for; any other is a plain failure."""
    if isinstance(exc, apsw.Error):
        store_error = from_sqlite(exc, db if isinstance(db, (str, os.PathLike)) else None)
        if store_error is None:
            return named_error("Failed", clip_message(f"{exc.__class__.__name__}: {exc}"))
        exc = store_error
    return DBusError(exc.kind.dbus_error, clip_message(str(exc)))


def clip_message(text: str, limit: int = 500) -> str:
    """One line, cut short: a megabyte argument is never sent back whole."""
    return one_line(text, limit)
