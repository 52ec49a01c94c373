"""The compiled-document cache: a window compiled once is not compiled again
while its rows stay the same.

An entry holds one window's `Document` and is found by a key made of
- the store's identity (device and inode of the database file, so a
  read-only or foreign database is cached like Phantom's own, and a file
  put in its place is another store),
- the window (bounds and zone), whether the inferred tier is in, and
- a fingerprint of the compiler's own source files (size and mtime of each),
  so an upgraded or edited compiler never reads an older one's output.
Inside, the entry records two things about what it was compiled from:
- the window's stamp (revisions.py): for a Phantom store, the per-UTC-day
  revisions its triggers keep; for any other file, its size and mtime and
  its WAL's. A hit checks the stamp first, before any row is read: a warm
  window costs what it takes to read a few counters, not its rows.
- the sha256 of exactly the rows it was compiled from, as the source read
  them (`sources.Fetched.digest`). When the stamp differs (or there is
  none: a file written a moment ago), the rows are read and the entry is
  still used when their digest is equal — then it is re-stamped, so the
  next hit is cheap again. A changed, added or removed row can therefore
  never serve stale output: its day's revision (or the file) moved, and its
  digest differs.
The entry is rewritten after a compile, so an open day simply replaces its
own entry.

Entries live in `$XDG_CACHE_HOME/phantom/compiled/` (`~/.cache` without it):
the directory 0700, each file 0600, written to a temporary file and renamed.
The cache is an optimisation and never an error: an entry that is
truncated, corrupt (a checksum covers the payload), of another version or
unreadable is ignored and rebuilt, and a directory that is not ours or is
open to others is not used at all. At most MAX_ENTRIES files are kept; the
least recently written go first.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from .records import Document
from .revisions import stamp

if TYPE_CHECKING:
    from .sources import CaptureSource
    from .window import Window

MAGIC = b"phantom-compiled 2\n"
MAX_ENTRIES = 2000
DIR_MODE = 0o700
FILE_MODE = 0o600
_PACKAGE = Path(__file__).resolve().parent


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base) if base else Path.home() / ".cache") / "phantom" / "compiled"


@lru_cache(maxsize=1)
def compiler_fingerprint() -> str:
    """sha256 over the path, size and mtime of every source file of the
    compiler package (and the Python version, which decides pickle's format)."""
    digest = hashlib.sha256(f"{sys.version}\n".encode())
    pending = [_PACKAGE]
    found = []
    while pending:
        with os.scandir(pending.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False) and entry.name != "__pycache__":
                    pending.append(Path(entry.path))
                elif entry.name.endswith(".py"):
                    info = entry.stat()
                    found.append(f"{entry.path}\0{info.st_size}\0{info.st_mtime_ns}\n")
    digest.update("".join(sorted(found)).encode())
    return digest.hexdigest()


def entry_key(db_path: str | os.PathLike[str], since_ms: int, until_ms: int, zone: str,
              inferred: bool) -> str | None:
    """The name of a window's entry; None when the store cannot be stat'ed."""
    try:
        info = os.stat(db_path)
    except OSError:
        return None
    text = (f"{info.st_dev}:{info.st_ino}\n{since_ms}:{until_ms}:{zone}\n{int(inferred)}\n"
            f"{compiler_fingerprint()}")
    return hashlib.sha256(text.encode()).hexdigest()


def _usable_dir(create: bool) -> Path | None:
    """The cache directory if it is ours and private (made so when `create`)."""
    directory = cache_dir()
    try:
        if create and not directory.is_dir():
            from core.private import make_private_dirs

            make_private_dirs(directory)  # every level it makes is 0700, whatever the umask
        info = directory.stat()
    except OSError:
        return None
    if info.st_uid != os.getuid() or not stat.S_ISDIR(info.st_mode):
        return None
    if info.st_mode & 0o077:
        try:
            os.chmod(directory, DIR_MODE)
        except OSError:
            return None
    return directory


class Entry(NamedTuple):
    """A cached document and what it was compiled from."""

    stamp: str          # "" when the window had no stamp
    digest: str
    document: Document


def load(key: str) -> Entry | None:
    """The entry for `key`; None on any miss or damage."""
    directory = _usable_dir(create=False)
    if directory is None:
        return None
    try:
        with open(directory / key, "rb") as handle:
            info = os.fstat(handle.fileno())
            if info.st_uid != os.getuid() or info.st_mode & 0o077:
                return None
            data = handle.read()
    except OSError:
        return None
    header = MAGIC + f"{key}\n".encode()
    if not data.startswith(header):
        return None
    try:
        stamp, digest, checksum, payload = data[len(header):].split(b"\n", 3)
    except ValueError:
        return None
    if hashlib.sha256(b"%s\n%s\n%s" % (stamp, digest, payload)).hexdigest().encode() != checksum:
        return None
    try:
        document = pickle.loads(payload)
    except Exception:  # noqa: BLE001 - a damaged entry is a miss, whatever it raises
        return None
    if not isinstance(document, Document):
        return None
    return Entry(stamp.decode("ascii", "replace"), digest.decode("ascii", "replace"), document)


def save(key: str, stamp: str | None, rows_digest: str, document: Document) -> None:
    """Write (or replace) an entry; a cache that cannot be written is skipped."""
    directory = _usable_dir(create=True)
    if directory is None:
        return
    payload = pickle.dumps(document, protocol=pickle.HIGHEST_PROTOCOL)
    signed = f"{stamp or ''}\n{rows_digest}\n".encode() + payload
    data = b"".join((MAGIC, f"{key}\n{stamp or ''}\n{rows_digest}\n".encode(),
                     hashlib.sha256(signed).hexdigest().encode(), b"\n", payload))
    try:
        fd, temporary = tempfile.mkstemp(prefix=".entry-", dir=directory)
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as handle:  # mkstemp makes it 0600
            handle.write(data)
        os.replace(temporary, directory / key)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        return
    _prune(directory)


class Probe:
    """One window's visit to the cache: `hit` before the rows are read,
    `reuse` once they are (their digest), `keep` after a compile. Without
    a key (no cache for this compile) it finds and keeps nothing."""

    def __init__(self, key: str | None, stamp: str | None) -> None:
        self.key, self.stamp = key, stamp
        self.entry = load(key) if key is not None else None

    @classmethod
    def of(cls, source: CaptureSource, db_path: str | os.PathLike[str], window: Window,
           inferred: bool | None) -> Probe:
        """The probe of a window read from `source` (open, no row read yet);
        `inferred` None: a compile that does not use the cache."""
        if inferred is None:
            return cls(None, None)
        key = entry_key(db_path, window.since_ms, window.until_ms, window.zone, inferred)
        if key is None:
            return cls(None, None)
        return cls(key, stamp(source.connection, source.kind, db_path, window.since_ms, window.until_ms))

    def hit(self) -> Document | None:
        """The entry's document when the window's stamp is the entry's."""
        entry = self.entry
        return entry.document if entry and self.stamp and entry.stamp == self.stamp else None

    def reuse(self, rows_digest: str) -> Document | None:
        """The entry's document when the rows are those it was compiled
        from (re-stamped, so the next visit is a `hit`)."""
        entry = self.entry
        if entry is None or entry.digest != rows_digest:
            return None
        if self.key is not None and self.stamp and entry.stamp != self.stamp:
            save(self.key, self.stamp, rows_digest, entry.document)
        return entry.document

    def keep(self, rows_digest: str, document: Document) -> None:
        if self.key is not None:
            save(self.key, self.stamp, rows_digest, document)


def _prune(directory: Path) -> None:
    """Keep the newest MAX_ENTRIES entries (counted by name first: only a
    full cache pays for a stat of every entry)."""
    try:
        if len(os.listdir(directory)) <= MAX_ENTRIES:
            return
        with os.scandir(directory) as entries:
            files = [(entry.stat().st_mtime_ns, entry.path) for entry in entries
                     if entry.is_file(follow_symlinks=False)]
    except OSError:
        return
    if len(files) <= MAX_ENTRIES:
        return
    files.sort()
    for _, path in files[:len(files) - MAX_ENTRIES]:
        try:
            os.unlink(path)
        except OSError:
            pass
