"""Directories and files that only their owner may read, whatever the
umask. A capture history, the config that names the applications a person
keeps private, a compiled day: none of it is for the other users of the
machine, and a umask of 000 (or 022) must not decide otherwise.

`Path.mkdir(parents=True, mode=0o700)` gives only the last directory that
mode: the parents it creates get 0777 less the umask, so a first run under
umask 000 left `$XDG_DATA_HOME` itself open to everyone. And a umask such
as 0277 takes bits from the directory itself, so each one is set with
chmod after it is made."""

from __future__ import annotations

import os
from pathlib import Path
from typing import BinaryIO

DIR_MODE = 0o700
FILE_MODE = 0o600


def make_private_dirs(directory: Path) -> None:
    """Create `directory` and each missing parent, every one 0700.
    Directories already there keep their modes: a parent the person made
    (their home, a shared data directory) is theirs to set."""
    missing: list[Path] = []
    current = directory
    while not os.path.lexists(current) and current != current.parent:
        missing.append(current)
        current = current.parent
    for path in reversed(missing):
        try:
            os.mkdir(path, DIR_MODE)
        except FileExistsError:
            continue   # another process made it first: theirs is used as it is
        os.chmod(path, DIR_MODE)
    if not directory.is_dir():
        raise NotADirectoryError(f"{directory} is not a directory")


def open_private(path: Path) -> BinaryIO:
    """`path` opened for writing (created, or emptied), 0600 whether new or
    found with wider modes."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    try:
        os.fchmod(fd, FILE_MODE)
        return os.fdopen(fd, "wb")
    except BaseException:
        os.close(fd)
        raise


def write_private(path: Path, data: bytes) -> None:
    """`data` as the whole of `path`, 0600 (see `open_private`)."""
    with open_private(path) as handle:
        handle.write(data)
