"""Writing an imported history into the store: through the store's one
writer, in batches, every row's source record keyed in `import_keys` so a
second import of the same history adds nothing.

Imported rows carry the zone the person lived in when it is given (`--tz`),
else UTC (neither ActivityWatch nor the nocta layout records one), each with
that zone's offset at its own instant."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Callable
from zoneinfo import ZoneInfo

from core.store import BlindSpotRow, ElementRow, ImportKeyRow, InputEventRow, SnapshotRow, StoreWriter, open_readonly
from core.store.records import Row, RowBatch

from .records import History

if TYPE_CHECKING:
    from apsw import SQLiteValues

BATCH = 5000
Progress = Callable[[int, int], None]   # (records written, records to write)


@dataclass(frozen=True, slots=True)
class Written:
    snapshots: int
    input_events: int
    blind_spots: int
    ops: int            # store writes queued (row batches), to check that all were committed


def known_keys(store: Path, source: str) -> set[str]:
    """The source ids of `source` already imported into the store."""
    connection = open_readonly(store)
    try:
        return {row[0] for row in connection.execute(
            "SELECT source_id FROM import_keys WHERE source = ?", (source,))}
    finally:
        connection.close()


def imported_snapshots(store: Path, source: str, keys: set[str]) -> dict[str, int]:
    """Snapshot row ids of source records imported before (an event imported
    now may name the window of a frame imported then)."""
    if not keys:
        return {}
    connection = open_readonly(store)
    try:
        rows = connection.execute("SELECT source_id, row_id FROM import_keys WHERE source = ? "
                                  "AND row_table = 'snapshots'", (source,))
        return {key: row_id for key, row_id in rows if key in keys}
    finally:
        connection.close()


@lru_cache(maxsize=16)
def _zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def offset_minutes(zone: str, ts_ms: int) -> int:
    """The zone's UTC offset at an instant, in minutes."""
    if zone == "UTC":
        return 0
    moment = datetime.fromtimestamp(ts_ms / 1000, tz=timezone.utc).astimezone(_zone(zone))
    offset = moment.utcoffset()
    assert offset is not None, "a moment in a ZoneInfo zone has an offset"
    return int(offset.total_seconds() // 60)


def write(writer: StoreWriter, history: History, zone: str, progress: Progress | None = None,
          earlier: dict[str, int] | None = None) -> Written:
    """Queue every row of `history` and its keys; the caller flushes. An
    input event linked to a frame keeps the link as its snapshot reference
    (to the frame's row from this import, or `earlier`'s from a previous one)."""
    ids = writer.ids
    batches = _Batches(writer)
    total = len(history.shown) + len(history.hidden) + len(history.inputs)
    done = 0
    first_row: dict[str, tuple[str, int]] = {}
    for item in history.shown:
        row_id = ids.next("snapshots")
        batches.add(SnapshotRow, (row_id, item.ts_ms, offset_minutes(zone, item.ts_ms), zone, item.monitor,
                                  item.trigger, item.app, "", None, None, item.title, item.url,
                                  int(item.idle), int(item.focused), None, None))
        first_row.setdefault(item.key, ("snapshots", row_id))
        done += 1
        if progress is not None and done % BATCH == 0:
            progress(done, total)
    for spot in history.hidden:
        row_id = ids.next("blind_spots")
        batches.add(BlindSpotRow, (row_id, spot.start_ms, spot.end_ms, offset_minutes(zone, spot.start_ms),
                                   zone, spot.monitor, "excluded", spot.reason))
        for key in spot.keys:
            first_row.setdefault(key, ("blind_spots", row_id))
        done += 1
    elements: dict[tuple[str, str, str], int] = {}
    for typed in history.inputs:
        event = typed.event
        element_id = None
        if event.element is not None:
            element_key = (event.element.role, event.element.name, event.element.path)
            element_id = elements.get(element_key)
            if element_id is None:
                element_id = elements[element_key] = ids.next("elements")
                batches.add(ElementRow, (element_id, None, None, 0, 0, event.element.role, event.element.name,
                                         "", None, "", None, None, None, None, event.element.path))
        row_id = ids.next("input_events")
        window = first_row.get(typed.window_key) if typed.window_key else None
        snapshot_id = window[1] if window is not None and window[0] == "snapshots" else (
            (earlier or {}).get(typed.window_key) if typed.window_key else None)
        batches.add(InputEventRow, (row_id, event.ts_ms, event.end_ms, event.monitor, event.kind, event.count,
                                    event.key, None, event.x, event.y, element_id, event.resolution, None,
                                    None, None, snapshot_id))
        first_row.setdefault(typed.key, ("input_events", row_id))
        done += 1
        if progress is not None and done % BATCH == 0:
            progress(done, total)
    for key, (table, row_id) in first_row.items():
        batches.add(ImportKeyRow, (history.source, key, table, row_id))
    batches.flush()
    if progress is not None:
        progress(total, total)
    return Written(len(history.shown), len(history.inputs), len(history.hidden), batches.submitted)


class _Batches:
    """Row tuples per table, handed to the writer as `RowBatch`es. Elements
    go before the input events that name them (foreign keys are checked)."""

    ORDER = (SnapshotRow, BlindSpotRow, ElementRow, InputEventRow, ImportKeyRow)

    def __init__(self, writer: StoreWriter) -> None:
        self.writer = writer
        self.rows: dict[type[Row], list[SQLiteValues]] = {kind: [] for kind in self.ORDER}
        self.pending = 0
        self.submitted = 0

    def add(self, kind: type[Row], values: SQLiteValues) -> None:
        self.rows[kind].append(values)
        self.pending += 1
        if self.pending >= BATCH:
            self.flush()

    def flush(self) -> None:
        for kind in self.ORDER:
            if self.rows[kind]:
                self.writer.submit(RowBatch(kind, tuple(self.rows[kind])))
                self.submitted += 1
                self.rows[kind] = []
        self.pending = 0
