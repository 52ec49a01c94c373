"""The capture store: the one package that owns Phantom's SQLite schema.

Everything else — the capture daemon, the compiler, replay, the interfaces —
reads and writes the store through this package: `open_readonly` for readers,
`StoreWriter` for the daemon's batched writes, `open_store` for short writes
from other processes (programs, replay runs).

Each name loads with its module on first use: a reader (`phantom compile`
as a whole process) pays for the connection helpers alone, not for the
daemon's write thread (logging, queues, futures) or the row records.
"""

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .connection import is_phantom_store, open_readonly, open_sqlite_readonly, open_store
    from .errors import StoreDamaged, StoreError
    from .paths import default_db_path, resolve_db_path
    from .records import (
        BlindSpotRow,
        BlobRow,
        ClickEvidenceRow,
        ElementRow,
        ImportKeyRow,
        InputEventRow,
        RecordingRow,
        Replace,
        SetEnd,
        SetMeta,
        SnapshotRow,
        TreeRow,
    )
    from .schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION
    from .writer import StoreWriter, WriterStats

_MODULE_OF = {
    **dict.fromkeys(("is_phantom_store", "open_readonly", "open_sqlite_readonly", "open_store"),
                    "connection"),
    **dict.fromkeys(("StoreDamaged", "StoreError"), "errors"),
    **dict.fromkeys(("default_db_path", "resolve_db_path"), "paths"),
    **dict.fromkeys(("BlindSpotRow", "BlobRow", "ClickEvidenceRow", "ElementRow", "ImportKeyRow",
                     "InputEventRow", "RecordingRow", "Replace", "SetEnd", "SetMeta", "SnapshotRow",
                     "TreeRow"), "records"),
    **dict.fromkeys(("APPLICATION_ID", "MIGRATIONS", "SCHEMA_VERSION"), "schema"),
    **dict.fromkeys(("StoreWriter", "WriterStats"), "writer"),
}


def __getattr__(name: str) -> object:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)


__all__ = [
    "APPLICATION_ID", "BlindSpotRow", "BlobRow", "ClickEvidenceRow", "ElementRow", "ImportKeyRow",
    "InputEventRow", "MIGRATIONS", "RecordingRow", "Replace", "SCHEMA_VERSION", "SetEnd", "SetMeta",
    "SnapshotRow", "StoreDamaged", "StoreError", "StoreWriter", "TreeRow", "WriterStats", "default_db_path",
    "is_phantom_store",
    "open_readonly", "open_sqlite_readonly", "open_store", "resolve_db_path",
]
