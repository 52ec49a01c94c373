"""Where a command's `--out` goes. A regular file (or a new name) is
written beside itself and renamed into place, so a reader or a crash never
sees half a document. Anything else at the path is somebody's: a
character device (`/dev/null`, `/dev/full`, a terminal) or a FIFO is
written into as it is, and a socket, a block device or a directory is
refused — never replaced by a rename, which as root would take
`/dev/full` away from every other program."""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from .errors import CliError

Data = bytes | Callable[[BinaryIO], None]


def write_output(path: Path, data: Data, *, private: bool = False) -> None:
    """Write `data` (bytes, or a function that writes to a binary file) to
    `path` as the module docstring says. `private` makes a new file 0600."""
    try:
        info = os.stat(path)   # through links: what is written to is what they name
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise CliError(f"cannot write {path}: {exc.strerror or exc}") from None
    if info is None or stat.S_ISREG(info.st_mode):
        _replace(path, Path(os.path.realpath(path)), data, private)   # a link is followed, never replaced
    elif stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode):
        # Opened by the name given: `/dev/stdout` names a pipe no other path reaches.
        _write_into(path, path, data, fifo=stat.S_ISFIFO(info.st_mode))
    else:
        raise CliError(f"cannot write {path}: it is {_kind(info.st_mode)}, not a file; Phantom writes "
                       "to a regular file, a character device or a FIFO, and never replaces anything else")


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISBLK(mode):
        return "a block device"
    return "not a regular file"


def _replace(path: Path, target: Path, data: Data, private: bool) -> None:
    directory = target.parent
    if not directory.is_dir():
        raise CliError(f"cannot write {path}: {directory} is not a directory")
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=directory)
    except OSError as exc:
        raise CliError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        if private:
            os.fchmod(fd, 0o600)
        with os.fdopen(fd, "wb") as handle:
            data(handle) if callable(data) else handle.write(data)
        os.replace(temporary, target)
    except OSError as exc:
        os.unlink(temporary)
        raise CliError(f"cannot write {path}: {exc.strerror or exc}") from None


def _write_into(path: Path, target: Path, data: Data, *, fifo: bool) -> None:
    """Write into a device or a FIFO as it stands. A FIFO is opened without
    blocking: with no reader at its other end the open fails at once
    (ENXIO) instead of waiting for one forever."""
    flags = os.O_WRONLY | os.O_NOCTTY | (os.O_NONBLOCK if fifo else 0)
    try:
        fd = os.open(target, flags)
    except OSError as exc:
        if exc.errno == errno.ENXIO and fifo:
            raise CliError(f"cannot write {path}: it is a FIFO and nothing is reading from it") from None
        raise CliError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        if fifo:   # blocking from here on: a slow reader is waited for, not dropped
            fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        with os.fdopen(fd, "wb") as handle:
            fd = -1
            data(handle) if callable(data) else handle.write(data)
    except OSError as exc:
        raise CliError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if fd != -1:
            os.close(fd)
