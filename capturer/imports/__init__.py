"""`phantom import`: history from other recorders brought into the store, so
a new user starts with months of memory.

Sources, told apart by their content:
- a nocta-recorder / screenpipe capture database (SQLite with a `frames`
  table), read by `compiler.sources.nocta` — through `read_capture`, which
  the caller passes (`compiler.api.read_nocta`): the capturer and the
  compiler do not import each other;
- ActivityWatch: its JSON export of buckets (aw-server and aw-server-rust) or
  the Python aw-server's database (aw-core's peewee `bucketmodel` and
  `eventmodel`), read by `activitywatch`.

Every import obeys the privacy rules in one place (`privacy`) and is keyed by
source record (`store`, table `import_keys`): importing the same history twice
adds nothing. The capture daemon must not write to the store meanwhile (both
hand out row ids), so the import takes the daemon's own lock.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from core.errors import PhantomError
from core.inputs import not_a_file

from .records import Capture, History
from .store import Written

if TYPE_CHECKING:
    from capturer.privacy import ExclusionRule
    from core.store import StoreWriter

    from .activitywatch import AwBucket

__all__ = ["HistoryError", "ImportReport", "import_history"]

SQLITE_HEADER = b"SQLite format 3\x00"


class HistoryError(PhantomError, ValueError):
    """A source that cannot be imported, or a store that cannot take it now;
    the message is one line."""

    code = "failed"


@dataclass(frozen=True, slots=True)
class ImportReport:
    source: str                 # 'activitywatch' | 'nocta'
    description: str
    written: Written
    already: int                # source records imported before, skipped


Progress = Callable[[str, int, int], None]   # (phase, done, total)
# Reads a nocta/screenpipe capture database whole; a PhantomError when it cannot.
ReadCapture = Callable[[Path], Capture]
# What a reader is handed: the exclusion rules bound (app, title, *, page_title,
# private -> the excluding rule's reason or None), the URL rule, the browsers.
Judge = Callable[..., "str | None"]
SanitizeUrl = Callable[["str | None"], "str | None"]
ReadHistory = Callable[[set[str], Judge, SanitizeUrl, tuple[str, ...]], History]


def import_history(path: Path, store: Path, *, rules: tuple[ExclusionRule, ...], browsers: tuple[str, ...],
                   read_capture: ReadCapture,
                   host: str | None = None, zone: str = "UTC", progress: Progress | None = None) -> ImportReport:
    """Read the history at `path` and write what is new of it into `store`."""
    from capturer.single_instance import AlreadyRunning, InstanceLock
    from core.store import StoreError, StoreWriter

    from . import store as keyed
    from .privacy import exclusion, sanitize_url

    def judge(app: str, title: str, *, page_title: str = "", private: bool = False) -> str | None:
        return exclusion(rules, app, title, page_title=page_title, private=private)

    if path.resolve() == store.resolve():
        raise HistoryError(f"{path} is the store itself; nothing to import")
    reader = _reader(path, host, read_capture)
    lock = InstanceLock(store)
    try:
        lock.acquire()
    except AlreadyRunning as exc:
        raise HistoryError(f"{exc}; stop it while importing (systemctl --user stop phantom-capture) "
                           "and start it again afterwards") from None
    try:
        try:
            writer = StoreWriter(store, commit_interval=None)
        except StoreError as exc:
            raise HistoryError(str(exc)) from None
        try:
            if progress is not None:
                progress("reading", 0, 0)
            history = reader(keyed.known_keys(store, reader.source), judge, sanitize_url, browsers)
            linked = {typed.window_key for typed in history.inputs if typed.window_key}
            written = keyed.write(writer, history, zone,
                                  (lambda done, total: progress("writing", done, total)) if progress else None,
                                  keyed.imported_snapshots(store, history.source, linked))
            if progress is not None:
                progress("committing", 0, 0)
            writer.flush(timeout=None)
            stats = writer.stats()
            if stats.dropped_ops or stats.committed_ops < written.ops:
                # a full disk or a lock held elsewhere: the writer keeps retrying, the import does not wait
                raise HistoryError(f"the store at {store} did not take the import ({stats.last_error}); "
                                   "importing again later adds only what is missing")
            _index_for_search(writer, progress)
        finally:
            writer.close()
    finally:
        lock.release()
    return ImportReport(history.source, history.description, written, history.already)


def _index_for_search(writer: StoreWriter, progress: Progress | None) -> None:
    """Index what was imported (and any backlog) for search now, on the
    writer's connection, so the first search after an import does not do
    it. The index is derived: if the store stays busy, the import stands
    and the next search or the capture daemon catches up."""
    import apsw

    from core.store.search_index import catch_up

    step = (lambda done, total: progress("indexing for search", done, total)) if progress else None
    try:
        writer.perform(lambda connection: catch_up(connection, step)).result()
    except apsw.BusyError:
        pass


class _Reader:
    """A recognised source, read when called with what is already imported."""

    def __init__(self, source: str, read: ReadHistory) -> None:
        self.source = source
        self._read = read

    def __call__(self, known: set[str], judge: Judge, sanitize_url: SanitizeUrl, browsers: tuple[str, ...]) -> History:
        return self._read(known, judge, sanitize_url, browsers)


def _reader(path: Path, host: str | None, read_capture: ReadCapture) -> _Reader:
    """What kind of history `path` holds; refused in one line when none
    (a FIFO or a device before it is opened: reading one may never end)."""
    kind = not_a_file(path)
    if kind == "a directory":
        raise HistoryError(f"{path} is a directory; give the database or export file")
    if kind is not None:
        raise HistoryError(f"{path} is {kind}, not a database or export file")
    try:
        with path.open("rb") as handle:
            head = handle.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        raise HistoryError(f"no file at {path}") from None
    except IsADirectoryError:
        raise HistoryError(f"{path} is a directory; give the database or export file") from None
    except OSError as exc:
        raise HistoryError(f"cannot read {path} ({exc.strerror or exc})") from None
    if head == SQLITE_HEADER:
        return _sqlite_reader(path, host, read_capture)
    if head.lstrip()[:1] in (b"{", b"["):
        return _activitywatch(_read_export(path), host, f"ActivityWatch export {path}")
    raise HistoryError(f"{path} is neither a SQLite database (nocta/screenpipe, ActivityWatch) "
                       "nor an ActivityWatch JSON export")


def _read_export(path: Path) -> tuple[AwBucket, ...]:
    from .activitywatch import AwFormatError, read_export

    try:
        return read_export(path)
    except AwFormatError as exc:
        raise HistoryError(str(exc)) from None
    except OSError as exc:
        raise HistoryError(f"cannot read {path} ({exc.strerror or exc})") from None


def _sqlite_reader(path: Path, host: str | None, read_capture: ReadCapture) -> _Reader:
    from core.store import StoreError, is_phantom_store, open_sqlite_readonly

    from . import nocta
    from .activitywatch import looks_like_aw_database, read_database

    try:
        connection = open_sqlite_readonly(path)
    except StoreError as exc:
        raise HistoryError(str(exc)) from None
    try:
        if is_phantom_store(connection):
            raise HistoryError(f"{path} is a Phantom store, not another recorder's history; nothing to import")
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if looks_like_aw_database(tables):
            return _activitywatch(read_database(connection), host, f"ActivityWatch database {path}")
    finally:
        connection.close()
    if host is not None:
        raise HistoryError("--host chooses among an ActivityWatch history's hosts; "
                           f"{path} is not ActivityWatch data")

    def read(known: set[str], judge: Judge, sanitize: SanitizeUrl, browsers: tuple[str, ...]) -> History:
        try:
            capture = read_capture(path)
        except PhantomError as exc:
            raise HistoryError(str(exc)) from None
        return nocta.history(capture, exclusion=judge, sanitize_url=sanitize, known=known,
                             description=f"nocta/screenpipe database {path}")

    return _Reader("nocta", read)


def _activitywatch(buckets: tuple[AwBucket, ...], host: str | None, description: str) -> _Reader:
    """ActivityWatch buckets, with the host to import chosen (refused in one
    line before anything is written when that is not clear)."""
    from .activitywatch import history, window_hosts

    hosts = window_hosts(buckets)
    if not hosts:
        raise HistoryError(f"the {description} has no window history "
                           "(no 'currentwindow' bucket from aw-watcher-window); nothing to import")
    if host is None and len(hosts) > 1:
        raise HistoryError(f"the history holds windows of {len(hosts)} hosts ({', '.join(hosts)}); "
                           "choose one with --host")
    chosen = host if host is not None else hosts[0]
    if chosen not in hosts:
        raise HistoryError(f"no window history of host {chosen!r}; the history has {', '.join(hosts)}")

    def read(known: set[str], judge: Judge, sanitize: SanitizeUrl, browsers: tuple[str, ...]) -> History:
        return history(buckets, chosen, exclusion=judge, sanitize_url=sanitize, browsers=browsers, known=known,
                       description=f"{description} (host {chosen})")

    return _Reader("activitywatch", read)
