"""One capture daemon per store: two writers would hand out the same row ids.

The lock belongs to the store file itself, not to the name it was opened by:
an advisory `flock` on the database file, which the kernel keys by the file
(device and inode) — a symlink or a hard link to a locked store finds it
locked — and releases when the process dies, even by kill -9. SQLite never
uses `flock` (its locks are POSIX record locks), so the two do not meet.

One care: closing *any* descriptor of a file drops the POSIX locks the
process holds on it, SQLite's included. `release()` therefore only unlocks;
the descriptor stays open (close-on-exec) until the process ends or
re-executes itself, when no SQLite connection of it is left.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from core.errors import PhantomError


class AlreadyRunning(PhantomError):
    """Another capture daemon already writes to this store."""


class InstanceLock:
    def __init__(self, db_path: Path) -> None:
        self.db_path = Path(db_path)
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the store's lock (creating the store first if there is none,
        so that it has an identity). Raises AlreadyRunning, or StoreError
        when the store cannot be created or opened."""
        from core.store import StoreError, open_store

        if not os.path.lexists(self.db_path):
            open_store(self.db_path).close()
        try:
            fd = os.open(self.db_path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError as exc:
            raise StoreError(f"cannot open {self.db_path}: {exc.strerror or exc}",
                             path=str(self.db_path)) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            info = os.fstat(fd)
            os.close(fd)   # no SQLite connection of this process is open on it yet
            holder = _flock_holder(info.st_dev, info.st_ino)
            real = os.path.realpath(self.db_path)
            also = f" (the same file as {real})" if real != os.path.abspath(self.db_path) else ""
            raise AlreadyRunning(f"another capture daemon (pid {holder or '?'}) is writing to "
                                 f"{self.db_path}{also}") from None
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            self._fd = None   # the descriptor itself stays open (see the module docstring)


def _flock_holder(device: int, inode: int) -> int | None:
    """The pid holding a flock on the file, as /proc/locks tells it."""
    wanted = f"{os.major(device):02x}:{os.minor(device):02x}:{inode}"
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as locks:
            for line in locks:
                fields = line.split()
                # "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"
                if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == wanted:
                    return int(fields[4])
    except (OSError, ValueError):
        return None
    return None
