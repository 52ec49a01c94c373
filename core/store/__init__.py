"""The capture store: the one package that owns Phantom's SQLite schema.

Everything else — the capture daemon, the compiler, replay, the interfaces —
reads and writes the store through this package: `open_readonly` for readers,
`StoreWriter` for the daemon's batched writes, `open_store` for short writes
from other processes (programs, replay runs).
"""

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

__all__ = [
    "APPLICATION_ID", "BlindSpotRow", "BlobRow", "ClickEvidenceRow", "ElementRow", "ImportKeyRow",
    "InputEventRow", "MIGRATIONS", "RecordingRow", "Replace", "SCHEMA_VERSION", "SetEnd", "SetMeta",
    "SnapshotRow", "StoreDamaged", "StoreError", "StoreWriter", "TreeRow", "WriterStats", "default_db_path",
    "is_phantom_store",
    "open_readonly", "open_sqlite_readonly", "open_store", "resolve_db_path",
]
