"""Frozen records for the rows the capture side writes.

Field names and order match the table columns, so the writer can insert any
record generically. Ids are assigned by the writer's allocator before a record
is built, which lets a snapshot name its tree and a click name its element in
the same batch without a round trip to the database.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from functools import cache
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from apsw import SQLiteValues


@dataclass(frozen=True, slots=True)
class Row:
    """Base for insertable rows: subclasses name their table."""

    TABLE: ClassVar[str] = ""
    # 'OR IGNORE' for content-addressed rows that may already exist.
    CONFLICT: ClassVar[str] = ""

    def values(self) -> SQLiteValues:
        return tuple(getattr(self, f.name) for f in fields(self))


@cache
def insert_sql(row_type: type[Row], replace: bool = False) -> str:
    """`INSERT INTO table(cols…) VALUES(?…)` for a row type, built once."""
    names = [f.name for f in fields(row_type)]
    conflict = " OR REPLACE" if replace else (f" {row_type.CONFLICT}" if row_type.CONFLICT else "")
    return (f"INSERT{conflict} INTO {row_type.TABLE}({', '.join(names)}) "
            f"VALUES({', '.join('?' for _ in names)})")


@dataclass(frozen=True, slots=True)
class BlobRow(Row):
    """A content-addressed image (thumbnail or click crop)."""

    TABLE: ClassVar[str] = "blobs"
    CONFLICT: ClassVar[str] = "OR IGNORE"
    sha256: str
    kind: str
    media_type: str
    width: int
    height: int
    data: bytes
    created_ms: int


@dataclass(frozen=True, slots=True)
class TreeRow(Row):
    """One bounded accessibility-tree walk."""

    TABLE: ClassVar[str] = "a11y_trees"
    id: int
    ts_ms: int
    app: str
    node_count: int
    truncated: str | None
    walk_ms: int


@dataclass(frozen=True, slots=True)
class ElementRow(Row):
    """One AT-SPI element, from a tree walk or a click's hit test."""

    TABLE: ClassVar[str] = "elements"
    id: int
    tree_id: int | None
    parent_id: int | None
    depth: int
    ordinal: int
    role: str
    name: str
    description: str
    labelled_by: str | None
    states: str
    x: int | None
    y: int | None
    w: int | None
    h: int | None
    path: str


@dataclass(frozen=True, slots=True)
class SnapshotRow(Row):
    """What one monitor showed at one instant."""

    TABLE: ClassVar[str] = "snapshots"
    id: int
    ts_ms: int
    utc_offset_min: int
    tz_name: str
    monitor: int
    trigger: str
    app: str
    wm_class: str
    pid: int | None
    executable: str | None
    title: str
    url: str | None
    idle: int
    focused: int
    screenshot: str | None
    tree_id: int | None
    window_id: int | None = None


@dataclass(frozen=True, slots=True)
class InputEventRow(Row):
    """A count of input: a click, a named key, a scroll or text burst, a copy."""

    TABLE: ClassVar[str] = "input_events"
    id: int
    ts_ms: int
    end_ms: int
    monitor: int
    kind: str
    count: int
    key: str | None = None
    button: int | None = None
    x: int | None = None
    y: int | None = None
    element_id: int | None = None
    resolution: str | None = None
    crop: str | None = None
    recording_id: int | None = None
    text: str | None = None
    snapshot_id: int | None = None
    target_role: str | None = None
    target_name: str | None = None
    target_path: str | None = None
    field_chars: int | None = None


@dataclass(frozen=True, slots=True)
class ClickEvidenceRow(Row):
    """One crop of a click's visual evidence (`core.visual_evidence`): its
    blob, its place, the click's place inside it and the receiving
    window's rectangle (None when the click lay outside it)."""

    TABLE: ClassVar[str] = "click_evidence"
    input_id: int
    kind: str
    blob: str
    x: int
    y: int
    width: int
    height: int
    ratio_x: float
    ratio_y: float
    window_x: int | None = None
    window_y: int | None = None
    window_w: int | None = None
    window_h: int | None = None


@dataclass(frozen=True, slots=True)
class BlindSpotRow(Row):
    """A stretch of time the capture could not or would not see."""

    TABLE: ClassVar[str] = "blind_spots"
    id: int
    start_ms: int
    end_ms: int | None
    utc_offset_min: int
    tz_name: str
    monitor: int | None
    kind: str
    reason: str


@dataclass(frozen=True, slots=True)
class RecordingRow(Row):
    """An explicit demonstration window."""

    TABLE: ClassVar[str] = "recordings"
    id: int
    name: str
    start_ms: int
    end_ms: int | None


@dataclass(frozen=True, slots=True)
class ImportKeyRow(Row):
    """Where an imported row came from; a key already stored means the
    source record was imported before."""

    TABLE: ClassVar[str] = "import_keys"
    source: str
    source_id: str
    row_table: str
    row_id: int


@dataclass(frozen=True, slots=True)
class Replace:
    """Insert a row, replacing the row with the same id: a burst of input is
    written while it grows and rewritten as it grows further."""

    row: Row


@dataclass(frozen=True, slots=True)
class SetEnd:
    """Close an open interval row (a blind spot or a recording) at `end_ms`."""

    table: str
    id: int
    end_ms: int


@dataclass(frozen=True, slots=True)
class SetMeta:
    """Upsert one key of the meta table."""

    key: str
    value: str


@dataclass(frozen=True, slots=True)
class RowBatch:
    """Many rows of one table as one op, inserted with `executemany`.

    For bulk writers (the synthetic corpus writes millions of element rows)
    a frozen record per row costs more than the insert itself, so a batch
    carries plain value tuples in the row type's column order. A tuple may
    stop before the row type's trailing defaulted columns (columns a later
    migration added): they are filled with their defaults (`padded_rows`).
    The batch is applied inside the writer's transaction like any other op;
    if it fails, it fails whole and is dropped as one op."""

    row_type: type[Row]
    rows: tuple[SQLiteValues, ...]

    @classmethod
    def of(cls, rows: Iterable[Row]) -> RowBatch:
        """A batch from records of one type."""
        records = tuple(rows)
        if not records:
            raise ValueError("an empty row batch")
        row_type = type(records[0])
        if any(type(row) is not row_type for row in records):
            raise ValueError("a row batch holds rows of one type")
        return cls(row_type, tuple(row.values() for row in records))

    def check(self) -> None:
        """Refuse a batch the writer could not insert as given."""
        if not (isinstance(self.row_type, type) and issubclass(self.row_type, Row) and self.row_type.TABLE):
            raise TypeError(f"not a row type: {self.row_type!r}")
        required, defaults = _shape(self.row_type)  # type: ignore[arg-type]  # a class is hashable: python/mypy#11470
        width = required + len(defaults)
        for values in self.rows:
            if not isinstance(values, tuple) or not required <= len(values) <= width:
                raise ValueError(f"a {self.row_type.__name__} batch row needs {required}–{width} "
                                 f"values: {values!r}")

    def padded_rows(self) -> tuple[SQLiteValues, ...]:
        """The rows, each filled out with the defaults of the columns it stops before."""
        required, defaults = _shape(self.row_type)  # type: ignore[arg-type]  # a class is hashable: python/mypy#11470
        width = required + len(defaults)
        if all(len(values) == width for values in self.rows):
            return self.rows
        return tuple(values + defaults[len(values) - required:] for values in self.rows)


@cache
def _shape(row_type: type[Row]) -> tuple[int, SQLiteValues]:
    """(number of columns without a default, the defaults of the rest)."""
    from dataclasses import MISSING

    columns = fields(row_type)
    required = sum(1 for column in columns if column.default is MISSING)
    return required, tuple(column.default for column in columns[required:])


WRITE_OPS = (BlobRow, TreeRow, ElementRow, SnapshotRow, InputEventRow, ClickEvidenceRow, BlindSpotRow,
             RecordingRow, ImportKeyRow, Replace, SetEnd, SetMeta, RowBatch)
ID_TABLES = ("a11y_trees", "elements", "snapshots", "input_events", "blind_spots", "recordings")
