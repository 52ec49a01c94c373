"""Where the store lives and how its files are protected.

The default is `$XDG_DATA_HOME/phantom/phantom.sqlite3`; `PHANTOM_DB` or an
explicit `--db` overrides it. The directory is created 0700 and every file the
store writes (database, WAL, shared-memory index) is 0600: a capture history is
private even from other local users.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

DB_FILENAME = "phantom.sqlite3"
DIR_MODE = 0o700
FILE_MODE = 0o600
SIDECAR_SUFFIXES = ("", "-wal", "-shm", "-journal")


def data_home() -> Path:
    """`$XDG_DATA_HOME`, or `~/.local/share` as the XDG spec says."""
    value = os.environ.get("XDG_DATA_HOME")
    return Path(value) if value else Path.home() / ".local" / "share"


def default_db_path() -> Path:
    """The store path when the user named none: `PHANTOM_DB`, else the XDG default."""
    override = os.environ.get("PHANTOM_DB")
    if override:
        return Path(override).expanduser()
    return data_home() / "phantom" / DB_FILENAME


def resolve_db_path(explicit: str | os.PathLike[str] | None) -> Path:
    """An explicit path wins over the environment and the default."""
    return Path(explicit).expanduser() if explicit else default_db_path()


def prepare_private_dir(directory: Path) -> None:
    """Create the store's directory 0700 (and tighten it if it already exists
    and belongs to us; a shared directory such as /tmp is left alone)."""
    directory.mkdir(parents=True, exist_ok=True, mode=DIR_MODE)
    stat = directory.stat()
    if stat.st_uid == os.getuid() and not (stat.st_mode & 0o1000):
        os.chmod(directory, DIR_MODE)


def tighten_file_modes(db_path: Path) -> None:
    """Take group and other permissions off the database and its sidecar
    files (SQLite creates the WAL and shared-memory files with the umask, so
    this runs after they appear). Only ever removes bits: a file the user
    made read-only stays read-only."""
    for suffix in SIDECAR_SUFFIXES:
        candidate = Path(str(db_path) + suffix)
        try:
            mode = stat.S_IMODE(candidate.stat().st_mode)
            if mode & ~FILE_MODE:
                os.chmod(candidate, mode & FILE_MODE)
        except FileNotFoundError:
            continue
