"""One capture daemon per store: two writers would hand out the same row ids.
An advisory lock on `<db>.lock` (released by the kernel when the process dies,
even by kill -9) keeps a second daemon out with a clear message."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from core.errors import PhantomError
from core.store.paths import remove_group_other


class AlreadyRunning(PhantomError):
    """Another capture daemon already writes to this store."""


class InstanceLock:
    def __init__(self, db_path: Path) -> None:
        self.path = Path(f"{db_path}.lock")
        self._fd: int | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        remove_group_other(self.path)  # a lock file left 0644 by an older Phantom
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise AlreadyRunning(f"another capture daemon (pid {holder}) is writing to "
                                 f"{self.path.with_suffix('')}") from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
