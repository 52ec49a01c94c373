"""Opening the store: one function per connection setting, applied at connect
time, and the two ways in — read-write (creates and migrates) and read-only
(never writes, refuses anything that is not a Phantom store)."""

from __future__ import annotations

import os
from pathlib import Path

import apsw

from ..inputs import not_a_file
from .errors import StoreError, damaged, from_sqlite
from .paths import FILE_MODE, SIDECAR_SUFFIXES, prepare_private_dir, read_only_reason, tighten_file_modes
from .schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION

BUSY_TIMEOUT_MS = 5000


INCREMENTAL = 2  # PRAGMA auto_vacuum values: 0 none, 1 full, 2 incremental


def _incremental_vacuum_when_new(connection: apsw.Connection) -> None:
    """A new store keeps the pointer maps that let `PRAGMA incremental_vacuum`
    hand freed pages back to the file system (retention frees most of a
    store's pages). It can only be chosen before the first table; an older
    store is converted once by `phantom retention run` (core/store/vacuum.py)."""
    if not connection.execute("SELECT count(*) FROM sqlite_master").get:
        connection.pragma("auto_vacuum", INCREMENTAL)


def _wal(connection: apsw.Connection) -> None:
    """WAL lets the compiler read while the daemon writes."""
    connection.pragma("journal_mode", "wal")


def _synchronous_normal(connection: apsw.Connection) -> None:
    """In WAL mode NORMAL is crash-safe for the database; a power cut may lose
    the last commits, which the capture contract (≤ 1 s) already allows."""
    connection.pragma("synchronous", "normal")


def _foreign_keys(connection: apsw.Connection) -> None:
    """References between rows are checked, so a bug cannot leave dangling ids."""
    connection.pragma("foreign_keys", 1)


def _secure_delete(connection: apsw.Connection) -> None:
    """Deleted and replaced rows are overwritten with zeros, not left in free
    space: a burst rewritten as it grew, or a forgotten stretch, leaves no
    older copy behind in the file (see forget.py)."""
    connection.pragma("secure_delete", 1)


def _temp_in_memory(connection: apsw.Connection) -> None:
    """SQLite's temporary files (statement journals, sorts, the shadow
    tables an FTS5 table is created with) stay in memory: inside the capture
    daemon's sandbox only the store's directory is writable, and a temporary
    file in /tmp failed the first start's migration with 'disk I/O error'."""
    connection.pragma("temp_store", "memory")


def _busy_timeout(connection: apsw.Connection) -> None:
    """Wait for another writer (the CLI recording a program) instead of failing."""
    connection.set_busy_timeout(BUSY_TIMEOUT_MS)


WRITE_SETTINGS = (_busy_timeout, _temp_in_memory, _incremental_vacuum_when_new, _wal,
                  _synchronous_normal, _foreign_keys, _secure_delete)
READ_SETTINGS = (_busy_timeout,)


def _schema_version(connection: apsw.Connection) -> int:
    return int(connection.pragma("user_version"))


def _application_id(connection: apsw.Connection) -> int:
    return int(connection.pragma("application_id"))


def has_table(connection: apsw.Connection, name: str) -> bool:
    """Whether the store has this table: older stores lack the tables later
    migrations add, and readers of them (forget, retention, programs) ask."""
    return connection.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                              (name,)).fetchone() is not None


def _has_tables(connection: apsw.Connection) -> bool:
    row = connection.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").get
    return bool(row)


def _probe(connection: apsw.Connection, path: Path) -> tuple[int, int, bool]:
    """Read the header facts, turning 'not a database' into a StoreError. A
    Phantom store of a schema newer than this code knows is refused here,
    where every way in passes (the compiler, search, import, doctor):
    its tables may mean something else now, and reading them as the old
    ones would answer wrongly or fail in the middle of a query."""
    try:
        facts = _application_id(connection), _schema_version(connection), _has_tables(connection)
    except apsw.NotADBError:
        raise StoreError(f"{path} is not a readable SQLite database (NotADBError)",
                         path=str(path)) from None
    except apsw.CorruptError as exc:
        raise damaged(path, str(exc) or "CorruptError") from None
    app_id, version, _ = facts
    if app_id == APPLICATION_ID and version > SCHEMA_VERSION:
        raise StoreError(
            f"{path} has schema version {version}, newer than this Phantom understands "
            f"({SCHEMA_VERSION}); upgrade Phantom", path=str(path))
    return facts


def migrate(connection: apsw.Connection, path: Path) -> int:
    """Apply every migration newer than the file's version, each in its own
    transaction; return the resulting version."""
    app_id, version, has_tables = _probe(connection, path)
    if app_id not in (0, APPLICATION_ID) or (app_id == 0 and has_tables and version == 0):
        raise StoreError(f"{path} is a SQLite database but not a Phantom store", path=str(path))
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{path} has schema version {version}, newer than this Phantom understands "
            f"({SCHEMA_VERSION}); upgrade Phantom", path=str(path))
    for migration in MIGRATIONS:
        if migration.version <= version:
            continue
        with connection:
            if migration.sql:
                connection.execute(migration.sql)
            if migration.apply is not None:
                migration.apply(connection)
            connection.pragma("application_id", APPLICATION_ID)
            connection.pragma("user_version", migration.version)
        version = migration.version
    return version


def prepare_for_writing(path: str | os.PathLike[str]) -> Path:
    """Check that a store can be written, before anything opens it: group and
    other bits come off its files and Phantom's own directory; a store (or
    directory) the person made read-only is refused with the reason — it is
    never made writable again, and readers keep working on it."""
    db_path = Path(path)
    if db_path.is_dir():
        raise StoreError(f"{db_path} is a directory, not a database file", path=str(db_path))
    if db_path.parent.is_dir():
        prepare_private_dir(db_path.parent)
        tighten_file_modes(db_path)
    reason = read_only_reason(db_path)
    if reason is not None:
        raise StoreError(f"cannot write to {db_path}: {reason}; Phantom never makes a store "
                         "writable again (`chmod u+w` it to write to it; reading it works as it is)",
                         path=str(db_path))
    return db_path


def open_store(path: str | os.PathLike[str]) -> apsw.Connection:
    """Open (creating if needed) the store for writing, migrated to the current
    schema. A `StoreWriter`'s thread uses this, and so do the short writes
    beside it (programs, replay telemetry, the search index, retention, forget).
    A new store appears whole or not at all (`_create_store`); an existing
    file must be a non-empty store this user may write."""
    db_path = prepare_for_writing(path)
    if not os.path.lexists(db_path):
        _create_store(db_path)
    _check_file(db_path)
    try:
        connection = apsw.Connection(str(db_path))
    except apsw.Error as exc:
        raise (from_sqlite(exc, db_path) or StoreError(f"cannot open {db_path} for writing",
                                                         path=str(db_path))) from None
    try:
        if connection.readonly("main"):
            raise StoreError(f"cannot write to {db_path}: SQLite could open it only for reading (its file "
                             "system is read-only?); reading it works as it is", path=str(db_path))
        for setting in WRITE_SETTINGS:
            setting(connection)
        migrate(connection, db_path)
    except StoreError:
        connection.close()
        raise
    except apsw.Error as exc:
        connection.close()
        error = from_sqlite(exc, db_path)
        if error is None:
            raise
        raise error from None
    tighten_file_modes(db_path)
    return connection


def _create_store(db_path: Path) -> None:
    """Create and migrate a new store under a temporary name beside the
    target, then link it into place: a crash, a full disk or a second
    process starting at the same moment never leaves an empty or
    half-made file at the store's path (an empty file is refused as
    damage, not taken for a new store). The file is 0600 before SQLite
    writes: SQLite gives the WAL and shared-memory files its permissions."""
    try:
        prepare_private_dir(db_path.parent)
    except OSError as exc:
        raise StoreError(f"cannot create {db_path.parent}: {exc.strerror or exc}",
                         path=str(db_path)) from None
    temporary = db_path.with_name(f".{db_path.name}.new-{os.getpid()}-{os.urandom(4).hex()}")
    try:
        fd = os.open(temporary, os.O_CREAT | os.O_EXCL | os.O_WRONLY, FILE_MODE)
        try:
            os.fchmod(fd, FILE_MODE)   # exactly 0600: a umask such as 0277 would leave it 0400
        finally:
            os.close(fd)
        connection = apsw.Connection(str(temporary))
        try:
            for setting in WRITE_SETTINGS:
                setting(connection)
            migrate(connection, temporary)
        finally:
            connection.close()
        try:
            os.link(temporary, db_path)
        except FileExistsError:
            pass   # another process created it first: use theirs
    except OSError as exc:
        raise StoreError(f"cannot create the store {db_path}: {exc.strerror or exc}",
                         path=str(db_path)) from None
    except apsw.Error as exc:
        error = from_sqlite(exc, db_path)
        if error is None:
            raise
        raise error from None
    finally:
        for suffix in SIDECAR_SUFFIXES:
            try:
                os.unlink(f"{temporary}{suffix}")
            except OSError:
                pass


def _check_file(db_path: Path) -> None:
    """Refuse what cannot be a store: a FIFO, a device or a socket (SQLite
    reading a FIFO waits for a writer forever), a dangling link, an empty
    file (a store is never empty; an empty file at its path is damage or a
    mistake, and taking it for a new store would hide that)."""
    kind = not_a_file(db_path)
    if kind is not None:
        raise StoreError(f"{db_path} is {kind}, not a database file", path=str(db_path))
    try:
        size = db_path.stat().st_size
    except FileNotFoundError:
        raise StoreError(f"{db_path} is a link to a file that does not exist", path=str(db_path)) from None
    except OSError as exc:
        raise StoreError(f"cannot read {db_path}: {exc.strerror or exc}", path=str(db_path)) from None
    if size == 0 and not os.path.exists(f"{db_path}-wal"):
        raise StoreError(f"{db_path} is an empty file (0 bytes), not a Phantom store; move it aside "
                         "(a new store is created where none exists) or pass --db", path=str(db_path))


def open_sqlite_readonly(path: str | os.PathLike[str]) -> apsw.Connection:
    """Open any existing SQLite file read-only (SQLite `mode=ro`), without
    judging its layout: source detection in the compiler starts here."""
    db_path = Path(path)
    if not db_path.exists():
        raise StoreError(f"no database at {db_path}", path=str(db_path))
    if db_path.is_dir():
        raise StoreError(f"{db_path} is a directory, not a database file", path=str(db_path))
    _check_file(db_path)
    uri = db_path.resolve().as_uri() + "?mode=ro"
    connection = _connect_readonly(uri, db_path)
    try:
        _probe_or_close(connection, db_path)
    except (apsw.ReadOnlyError, apsw.CantOpenError):
        # A WAL store in a directory the person made read-only (or on a
        # read-only mount): a reader needs the shared-memory index beside the
        # file and cannot create it. With no WAL there either, nothing can
        # write to the file, so reading it as immutable is exact.
        connection.close()
        wal = Path(f"{db_path}-wal")
        if os.access(db_path.parent, os.W_OK) or (wal.exists() and wal.stat().st_size):
            raise StoreError(f"cannot read {db_path}: its shared-memory index is not writable",
                             path=str(db_path)) from None
        connection = _connect_readonly(uri + "&immutable=1", db_path)
        _probe_or_close(connection, db_path)
    return connection


def _probe_or_close(connection: apsw.Connection, db_path: Path) -> None:
    """`_probe`, closing the connection when it refuses the file."""
    try:
        _probe(connection, db_path)
    except StoreError:
        connection.close()
        raise


def _connect_readonly(uri: str, db_path: Path) -> apsw.Connection:
    try:
        connection = apsw.Connection(uri, flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    except apsw.CantOpenError:
        raise StoreError(f"cannot open {db_path} for reading", path=str(db_path)) from None
    for setting in READ_SETTINGS:
        setting(connection)
    return connection


def open_readonly(path: str | os.PathLike[str]) -> apsw.Connection:
    """Open an existing Phantom store read-only: the compiler and every reader
    use this, so a bug there cannot change capture data."""
    db_path = Path(path)
    connection = open_sqlite_readonly(db_path)
    app_id, _, _ = _probe(connection, db_path)   # a newer schema was refused on the way in
    if app_id != APPLICATION_ID:
        connection.close()
        raise StoreError(f"{db_path} is not a Phantom store", path=str(db_path))
    return connection


def is_phantom_store(connection: apsw.Connection) -> bool:
    """True when the open database carries Phantom's application id."""
    return _application_id(connection) == APPLICATION_ID
