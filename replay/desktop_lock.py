"""One replay per desktop, across processes.

A D-Bus replay, a CLI replay and an agent's replay are different processes;
two at once would interleave their keys in one window. A run holds an
exclusive `flock` on a file named after the X display for its whole length;
the kernel drops it when the process ends, so a crashed run never leaves
the desktop locked. The file lives under `$XDG_RUNTIME_DIR/phantom/` (the
session's private runtime directory), else under a 0700 directory of this
user's in the system's temporary directory.
"""

from __future__ import annotations

import fcntl
import os
import re
import tempfile
from pathlib import Path

from core.errors import PhantomError
from core.private import make_private_dirs


class Busy(PhantomError):
    """Another replay holds the desktop; nothing was sent."""

    code = "busy"


def display_key(display: str) -> str:
    """One name per desktop: ':0', ':0.0' and 'unix:0' are the same display."""
    match = re.fullmatch(r"(?:unix)?(?P<host>[^:]*):(?P<number>\d+)(?:\.\d+)?", display.strip())
    if match is None:
        return re.sub(r"[^A-Za-z0-9_.-]", "_", display.strip()) or "default"
    host = match["host"] if match["host"] not in ("", "localhost", "unix") else ""
    return f"{host + '_' if host else ''}{match['number']}"


def lock_directory() -> Path:
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    base = Path(runtime) / "phantom" if runtime else Path(tempfile.gettempdir()) / f"phantom-{os.getuid()}"
    make_private_dirs(base)
    return base


class DesktopLock:
    """`with DesktopLock(display):` — or `acquire()`/`release()` when the
    run outlives one call (an asynchronous D-Bus replay)."""

    def __init__(self, display: str | None = None) -> None:
        self.display = display if display is not None else os.environ.get("DISPLAY", "")
        self.path = lock_directory() / f"replay-{display_key(self.display)}.lock"
        self._fd: int | None = None

    def acquire(self) -> "DesktopLock":
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd)
            os.close(fd)
            raise Busy(f"another replay is running on display {self.display or '?'}"
                       f"{f' (pid {holder})' if holder else ''}; nothing was sent") from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)   # closing the descriptor drops the lock
            self._fd = None

    def __enter__(self) -> "DesktopLock":
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _read_holder(fd: int) -> str:
    try:
        return os.pread(fd, 32, 0).decode().strip()
    except OSError:
        return ""
