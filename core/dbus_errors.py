"""The one mapping from Phantom's error family to D-Bus error replies, for
both services on the session bus (the capture daemon's `org.phantom.Capture1`
and the replay service's `org.phantom.Replay1`): the error's kind names the
reply, `org.phantom.Error.<dbus_name>` from `errors.ERROR_KINDS`, and its
message travels as one line, cut short. It lives in core because the two
services must not import each other."""

from __future__ import annotations

import os

import apsw
from dbus_fast import DBusError

from .errors import DBUS_ERROR_PREFIX, PhantomError, one_line
from .store.errors import from_sqlite

MAX_MESSAGE_CHARS = 500


def named_error(name: str, message: str) -> DBusError:
    """`org.phantom.Error.<name>` with `message` (for refusals a service
    makes itself, before any library code runs)."""
    return DBusError(DBUS_ERROR_PREFIX + name, clip_message(message))


def dbus_error(exc: PhantomError | apsw.Error, db: object = None) -> DBusError:
    """The reply for an error from the library. SQLite's own errors (damage,
    a full or read-only disk met mid-read) become the store error they stand
    for, naming `db`; any other is a plain failure."""
    if isinstance(exc, apsw.Error):
        store_error = from_sqlite(exc, db if isinstance(db, (str, os.PathLike)) else None)
        if store_error is None:
            return named_error("Failed", f"{exc.__class__.__name__}: {exc}")
        exc = store_error
    return DBusError(exc.kind.dbus_error, clip_message(str(exc)))


def clip_message(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """One line, cut short: a megabyte argument is never sent back whole."""
    return one_line(text, limit)
