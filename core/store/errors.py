"""The exceptions the store raises, so callers can tell store trouble
(missing file, wrong kind of file, newer schema, damage, a read-only or full
disk) from bugs, and the one translation of SQLite's own errors into them."""

from __future__ import annotations

import os

import apsw

from ..errors import PhantomError

REPAIR_HINT = "run `phantom doctor --repair` to copy what can still be read into a new store"


class StoreError(PhantomError):
    """A problem with the capture store that a user can act on.

    The message is written for a person: it names the path and says what to do.
    The CLI prints it as one line and exits non-zero.
    """

    code = "store_unavailable"

    def __init__(self, message: str, *, path: str | None = None) -> None:
        super().__init__(message)
        self.path = path


class StoreDamaged(StoreError):
    """SQLite found the file damaged (a corrupt page, a mangled header)."""

    code = "store_damaged"


def damaged(path: str | os.PathLike[str], detail: str) -> StoreDamaged:
    return StoreDamaged(f"{path} is damaged ({detail}); {REPAIR_HINT}", path=str(path))


def from_sqlite(exc: BaseException, path: str | os.PathLike[str] | None) -> StoreError | None:
    """The store error an SQLite exception stands for (None: not one a
    person can act on, such as a bug in a query). Every interface calls
    this at its boundary, so damage or a full disk met in the middle of a
    compile is one line naming the store, never a traceback. SQLite rolls
    a transaction back by itself on a full disk, and a `with connection:`
    block then fails its own ROLLBACK: the error that caused it is looked
    for along the exception's context."""
    current: BaseException | None = exc
    for _ in range(5):
        if current is None:
            break
        found = _from_one(current, path)
        if found is not None:
            return found
        current = current.__context__
    return None


def _from_one(exc: BaseException, path: str | os.PathLike[str] | None) -> StoreError | None:
    where = str(path) if path is not None else "the store"
    detail = " ".join(str(exc).split())[:120]
    if isinstance(exc, apsw.CorruptError):
        return damaged(where, detail or "CorruptError")
    if isinstance(exc, apsw.NotADBError):
        # No SQLite header at all: another kind of file, or one mangled past repair.
        return StoreError(f"{where} is not a readable SQLite database (NotADBError)", path=where)
    if isinstance(exc, apsw.ReadOnlyError):
        return StoreError(f"{where} is read-only ({detail}); this needs to write to it", path=where)
    if isinstance(exc, apsw.FullError):
        return StoreError(f"the disk holding {where} is full; free some space and try again", path=where)
    if isinstance(exc, apsw.CantOpenError):
        return StoreError(f"cannot open {where} ({detail})", path=where)
    if isinstance(exc, apsw.IOError):
        return StoreError(f"I/O error on {where} ({detail})", path=where)
    if isinstance(exc, (apsw.BusyError, apsw.LockedError)):
        return StoreError(f"{where} stayed locked by another process; try again", path=where)
    return None
