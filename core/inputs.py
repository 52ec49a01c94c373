"""What a path given as an input file (a config file, a history to import,
a store) must be: a regular file. Reading a FIFO waits for a writer that
may never come, and a device or a socket is no file of ours to read, so
each is refused in one line before anything opens it."""

from __future__ import annotations

import os
import stat

_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory"))


def not_a_file(path: str | os.PathLike[str]) -> str | None:
    """What `path` is when it is there and is not a regular file (a link is
    followed): "a FIFO", "a character device", "a directory" …; None for a
    regular file and for nothing at all (each caller says what a missing
    file means to it)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")
