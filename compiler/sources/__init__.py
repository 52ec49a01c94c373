"""Where capture rows come from. Phantom's own store is read through the
store package; a database in the nocta-recorder / screenpipe layout (tables
`frames`, `ui_events`, `elements`) is detected automatically and read into
the same records, so existing capture history compiles at once."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Protocol

import apsw

from core.errors import PhantomError
from core.store import StoreError, is_phantom_store, open_sqlite_readonly

from ..records import Capture
from . import nocta, phantom_store

if TYPE_CHECKING:   # the routine gate's evidence reads: loaded only when a routine is gated
    from . import recorded


class SourceError(PhantomError, ValueError):
    """A database the compiler cannot read (one-line message)."""

    code = "store_unavailable"


def detect(connection: apsw.Connection) -> str:
    """'phantom' or 'nocta', from what the database contains."""
    if is_phantom_store(connection):
        return "phantom"
    tables = {row[0] for row in connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    if nocta.looks_like_nocta(tables):
        return "nocta"
    return "unknown"


class Fetched(NamedTuple):
    """A window's rows as read, before they become records: `digest` is a
    sha256 of exactly these rows (and, for a foreign layout, the queries that
    read them), which is what the compiled-document cache checks."""

    kind: str
    rows: phantom_store.Rows | nocta.Rows
    digest: str

    def capture(self) -> Capture:
        if isinstance(self.rows, phantom_store.Rows):   # kind == "phantom"
            return phantom_store.capture(self.rows)
        return nocta.capture(self.rows)


class _Reader(Protocol):
    """What `phantom_store` and `nocta` each provide (the module is the reader)."""

    def zone_near(self, connection: apsw.Connection, ts_ms: int) -> str | None: ...

    def span(self, connection: apsw.Connection) -> tuple[int | None, int | None]: ...

    def fetch(self, connection: apsw.Connection, since_ms: int,
              until_ms: int) -> phantom_store.Rows | nocta.Rows: ...


class CaptureSource:
    """An open, read-only capture database of either layout."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        try:
            self.connection = open_sqlite_readonly(self.path)
        except StoreError as exc:
            raise SourceError(str(exc)) from None
        self.kind = detect(self.connection)
        if self.kind == "unknown":
            self.connection.close()
            raise SourceError(f"{self.path} is a SQLite database but neither a Phantom store nor "
                              "a nocta/screenpipe capture database")
        self._reader: _Reader = phantom_store if self.kind == "phantom" else nocta

    def zone_near(self, ts_ms: int) -> str | None:
        """The capture zone recorded nearest this instant (None when empty)."""
        return self._reader.zone_near(self.connection, ts_ms)

    def span(self) -> tuple[int | None, int | None]:
        """First and last snapshot instants in the database."""
        return self._reader.span(self.connection)

    def read(self, since_ms: int, until_ms: int) -> Capture:
        return self.fetch(since_ms, until_ms).capture()

    def fetch(self, since_ms: int, until_ms: int) -> Fetched:
        """The window's rows, in one read transaction."""
        rows = self._reader.fetch(self.connection, since_ms, until_ms)
        return Fetched(self.kind, rows, rows.digest)

    def trees(self, wants: tuple[tuple[str, int], ...], roles: tuple[str, ...]
              ) -> dict[tuple[str, int], recorded.TreeRow | None]:
        """The accessibility trees stored around given (app, instant)s
        (`recorded.read_trees`; only elements of `roles`); a foreign layout stores none Phantom can
        match a plan against, so every answer is None there."""
        if self.kind != "phantom":
            return {want: None for want in wants}
        from . import recorded

        return recorded.read_trees(self.connection, wants, roles)

    def replay_statuses(self, routine_ids: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
        """Statuses of replays of programs compiled from these routines."""
        if self.kind != "phantom":
            return {}
        from . import recorded

        return recorded.read_replay_statuses(self.connection, routine_ids)

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> "CaptureSource":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
