"""`phantom import`: bring capture history from a nocta-recorder /
screenpipe-family database into the Phantom store, so `phantom routines`
and program compilation see it too (the compiler can also read such a
database directly with `--db`)."""

from __future__ import annotations

from pathlib import Path

from ..errors import CliError


def add_parsers(sub, common) -> None:
    p = sub.add_parser(
        "import", parents=[common], help="import a nocta/screenpipe capture database into the store",
        description="Copy the snapshots and input events of a capture database in the "
        "nocta-recorder / screenpipe layout (tables frames, ui_events, elements) into the Phantom "
        "store, through the store's own writer. Typed text is never imported, only its length. "
        "The layout records no time zone, so imported rows are marked UTC.")
    p.add_argument("source", type=Path, help="the nocta/screenpipe database to read (read-only)")
    p.set_defaults(handler=run_import)


def run_import(args) -> int:
    from core.store import ElementRow, InputEventRow, SnapshotRow, StoreError, StoreWriter
    from core.store.paths import resolve_db_path
    from compiler.sources import CaptureSource, SourceError

    target = resolve_db_path(args.db)
    try:
        with CaptureSource(args.source) as source:
            if source.kind != "nocta":
                raise CliError(f"{args.source} is a {source.kind} store, not a nocta/screenpipe "
                               "database; nothing to import")
            first, last = source.span()
            capture = source.read(first or 0, (last or 0) + 1)
    except SourceError as exc:
        raise CliError(str(exc)) from None
    try:
        writer = StoreWriter(target, commit_interval=None)
    except StoreError as exc:
        raise CliError(str(exc)) from None
    ids = writer.ids
    snapshot_ids = {}
    try:
        for s in capture.snapshots:
            snapshot_ids[s.id] = ids.next("snapshots")
            writer.submit(SnapshotRow(snapshot_ids[s.id], s.ts_ms, 0, "UTC", s.monitor, "imported",
                                      s.app, "", None, None, s.title, s.url, 0, int(s.focused),
                                      None, None))
        elements = {}
        for event in capture.inputs:
            element_id = None
            if event.element is not None:
                key = (event.element.role, event.element.name, event.element.path)
                element_id = elements.get(key)
                if element_id is None:
                    element_id = elements[key] = ids.next("elements")
                    writer.submit(ElementRow(element_id, None, None, 0, 0, event.element.role,
                                             event.element.name, "", None, "", None, None, None,
                                             None, event.element.path))
            writer.submit(InputEventRow(ids.next("input_events"), event.ts_ms, event.end_ms,
                                        event.monitor, event.kind, event.count, key=event.key,
                                        x=event.x, y=event.y, element_id=element_id,
                                        resolution=event.resolution))
        writer.flush(timeout=600)
    finally:
        writer.close()
    print(f"imported {len(capture.snapshots)} snapshots and {len(capture.inputs)} input events "
          f"from {args.source} into {target}")
    return 0
