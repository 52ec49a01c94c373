"""Where the store lives and how its files are protected.

The default is `$XDG_DATA_HOME/phantom/phantom.sqlite3`; `PHANTOM_DB` or an
explicit `--db` overrides it. The directory is created 0700 and every file the
store writes (database, WAL, shared-memory index) is 0600: a capture history is
private even from other local users. Found with wider modes, they lose their
group and other bits whenever the store is opened for writing; no bit is ever
added, so a store the person made read-only stays read-only (and is refused
for writing, with the reason, while every reader still works).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..private import DIR_MODE as DIR_MODE  # the modes, named too where the store's files are described
from ..private import FILE_MODE as FILE_MODE
from ..private import make_private_dirs

DB_FILENAME = "phantom.sqlite3"
SIDECAR_SUFFIXES = ("", "-wal", "-shm", "-journal")


def data_home() -> Path:
    """`$XDG_DATA_HOME`, or `~/.local/share` as the XDG spec says."""
    value = os.environ.get("XDG_DATA_HOME")
    return Path(value) if value else Path.home() / ".local" / "share"


def config_home() -> Path:
    """`$XDG_CONFIG_HOME`, or `~/.config` as the XDG spec says."""
    value = os.environ.get("XDG_CONFIG_HOME")
    return Path(value) if value else Path.home() / ".config"


def chosen_store_file() -> Path:
    """Where `phantom install --db PATH` records PATH: one line, read by the
    CLI, the capture unit and the replay service (on every call), so a
    shortcut's `gdbus` line reaches the store the person chose without an
    environment variable the session manager never passes on."""
    return config_home() / "phantom" / "store"


def chosen_store() -> Path | None:
    """The store `phantom install --db` recorded, or None (none recorded, or
    the file unreadable or empty: the default then applies)."""
    try:
        text = chosen_store_file().read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return Path(text).expanduser() if text else None


def record_chosen_store(db_path: Path) -> Path:
    """Write `db_path` (absolute) as the chosen store, 0600 in a 0700
    directory, replacing the previous choice atomically."""
    target = chosen_store_file()
    prepare_private_dir(target.parent)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    try:
        os.write(fd, f"{db_path.expanduser().absolute()}\n".encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(temporary, target)
    return target


def default_db_path() -> Path:
    """The store path when the command line named none: `PHANTOM_DB`, else the
    store `phantom install --db` recorded, else the XDG default."""
    override = os.environ.get("PHANTOM_DB")
    if override:
        return Path(override).expanduser()
    chosen = chosen_store()
    if chosen is not None:
        return chosen
    return data_home() / "phantom" / DB_FILENAME


def resolve_db_path(explicit: str | os.PathLike[str] | None) -> Path:
    """An explicit path wins over the environment and the default."""
    return Path(explicit).expanduser() if explicit else default_db_path()


def remove_group_other(path: Path) -> None:
    """Clear the group and other permission bits of a file or directory this
    user owns. Never adds a bit: a file the person made read-only stays
    read-only. A shared directory (sticky, such as /tmp) is left alone, and
    so is anything that is neither a file nor a directory: root passing
    `--config /dev/null` must not take the device from every other user."""
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return
    mode = stat.S_IMODE(status.st_mode)
    if not (stat.S_ISREG(status.st_mode) or stat.S_ISDIR(status.st_mode)):
        return
    if status.st_uid != os.getuid() or mode & stat.S_ISVTX or not mode & 0o077:
        return
    try:
        os.chmod(path, mode & ~0o077)
    except OSError:
        pass   # a read-only file system: nothing will be written there either (read_only_reason says so)


def is_own_directory(directory: Path) -> bool:
    """Phantom's own directories are named `phantom` (`$XDG_DATA_HOME/phantom`,
    `$XDG_CONFIG_HOME/phantom`). A directory the person chose for `--db` or
    `PHANTOM_DB` that holds other things keeps the modes they gave it."""
    return directory.name == "phantom"


def prepare_private_dir(directory: Path) -> None:
    """Create the store's directory 0700, and any parent it needs (an XDG
    base directory among them) 0700 too, whatever the umask; if it exists
    and is Phantom's own, remove group and other bits from it."""
    if not directory.exists():
        make_private_dirs(directory)
    elif is_own_directory(directory):
        remove_group_other(directory)


def tighten_file_modes(db_path: Path) -> None:
    """Remove group and other bits from the database and its sidecar files
    (SQLite creates the WAL and shared-memory files with the database file's
    mode, which a umask or an older Phantom may have left open)."""
    for suffix in SIDECAR_SUFFIXES:
        remove_group_other(Path(str(db_path) + suffix))


def read_only_reason(db_path: Path) -> str | None:
    """Why this store cannot be written, or None: a file or directory the
    person made read-only (Phantom never makes them writable again), or a
    file system mounted read-only."""
    for suffix in SIDECAR_SUFFIXES:
        candidate = Path(str(db_path) + suffix)
        if not candidate.exists():
            continue
        mode = stat.S_IMODE(candidate.stat().st_mode)
        if not mode & stat.S_IWUSR:   # made read-only by its owner: refused even to root
            return f"{candidate} is read-only (mode {mode:04o})"
        if not os.access(candidate, os.W_OK):
            return f"{candidate} cannot be written (a read-only file system, or another user's file)"
    directory = db_path.parent
    if directory.is_dir() and not os.access(directory, os.W_OK | os.X_OK):
        mode = stat.S_IMODE(directory.stat().st_mode)
        return f"its directory {directory} is read-only (mode {mode:04o})"
    return None
