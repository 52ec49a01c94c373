"""Retention's roll-up: a compiled day kept after its raw rows are gone.

A day is rolled up as two things: its compiled document (exactly what
`phantom compile --day` made from the raw rows, inferred tier included) and
its action stream (what the routine miner reads), so that compiling an old
day still answers — from the roll-up, and saying so — and routines still
count the day. Both are the compiler's own records as canonical JSON
(orjson, positional, the records' field order), zlib-compressed; `FORMAT`
names that encoding, and a roll-up of another format is refused rather
than misread. Typed text is never kept: the actions of a demonstration lose
the text they carried (the raw rows that held it are retention's to remove).

`merge` joins the documents of several stretches (raw compiles and
roll-ups, in time order) into one window's document: frames renumbered in
time order, coverage summed with the gaps between the stretches, blind
spots in order, provenance over all their digests. It is exact for frames
and blind spots; coverage's active time and gaps are the stretches' own,
as each was compiled (a frame is never split at a day's edge).
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Callable
from typing import Any, TypeVar

import orjson

from core.store.errors import REPAIR_HINT, StoreDamaged, StoreError

from .records import (
    Action,
    BlindSpotNote,
    ClickTarget,
    Coverage,
    Document,
    Frame,
    Gap,
    InferredItem,
    InputVolume,
    Interruption,
    PageVisit,
    Provenance,
    Step,
)

FORMAT = 1
SESSION_GAP_MS = 300_000
T = TypeVar("T")


class RollupError(StoreDamaged, ValueError):
    """A roll-up whose bytes cannot be read back: the store is damaged there
    (SQLite's own checks do not look inside a blob), so it is reported as
    damage, with the way to repair a store."""


class RollupFormatError(StoreError, ValueError):
    """A roll-up of a format this Phantom does not read (a newer one wrote it)."""


def _plain(value: object) -> object:
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


def _pack(value: object) -> bytes:
    return zlib.compress(orjson.dumps(_plain(value)), 6)


def _unpack(blob: bytes) -> Any:
    try:
        return orjson.loads(zlib.decompress(blob))
    except (zlib.error, orjson.JSONDecodeError, TypeError) as exc:
        raise _damaged(exc) from None


def _damaged(exc: Exception) -> RollupError:
    return RollupError(f"a roll-up in the store is damaged ({' '.join(str(exc).split())[:120]}); "
                       f"{REPAIR_HINT}")


def encode_document(document: Document) -> bytes:
    return _pack(document)


def encode_actions(actions: tuple[Action, ...]) -> bytes:
    """Steps once each, then per action (step index, ts, end, monitor,
    evidence, recording): a day repeats a few hundred steps thousands of times."""
    steps: dict[Step, int] = {}
    rows = []
    for action in actions:
        index = steps.setdefault(action.step, len(steps))
        rows.append((index, action.ts_ms, action.end_ms, action.monitor, action.evidence,
                     action.recording_id))
    return _pack((tuple(steps), tuple(rows)))


def decode_actions(blob: bytes, fmt: int = FORMAT) -> tuple[Action, ...]:
    _check(fmt)
    return _whole(_actions, _unpack(blob))


def decode_document(blob: bytes, fmt: int = FORMAT) -> Document:
    _check(fmt)
    return _whole(_document, _unpack(blob))


def _whole(build: Callable[[Any], T], value: Any) -> T:
    """`build(value)`; JSON that decoded but is not the records' shape is a
    damaged roll-up too (one line, never an unpacking error)."""
    try:
        return build(value)
    except (TypeError, ValueError, IndexError, KeyError) as exc:
        raise _damaged(exc) from None


def _actions(value: Any) -> tuple[Action, ...]:
    steps, rows = value
    made = [Step(*step) for step in steps]
    return tuple(Action(made[index], ts, end, monitor, tuple(evidence), None, recording)
                 for index, ts, end, monitor, evidence, recording in rows)


def _check(fmt: int) -> None:
    if fmt != FORMAT:
        raise RollupFormatError(f"a roll-up of format {fmt}, which this Phantom does not read "
                                f"(it reads {FORMAT})")


def _document(value: Any) -> Document:
    coverage, frames, spots, provenance, inferred = value
    first, last, active, span, gaps, monitors, *quiet = coverage   # a roll-up made before idle was said has no more
    idle, away, stretches = quiet if quiet else (0, 0, ())
    schema, version, source, store_schema, since, until, zone, digest, rows = provenance
    return Document(
        coverage=Coverage(first, last, active, span, tuple(Gap(*g) for g in gaps), tuple(monitors),
                          idle, away, tuple(Gap(*g) for g in stretches)),
        frames=tuple(_frame(f) for f in frames),
        blind_spots=tuple(BlindSpotNote(*s) for s in spots),
        provenance=Provenance(schema, version, source, store_schema, since, until, zone, digest,
                              tuple((table, count) for table, count in rows)),
        inferred=None if inferred is None else tuple(
            InferredItem(kind, label, confidence, basis, tuple(f), tuple(e),
                         tuple(tuple(d) for d in details))
            for kind, label, confidence, basis, f, e, details in inferred))


def _frame(raw: list[Any]) -> Frame:
    (identity, monitor, app, site, start, end, active, offset, zone, titles, pages, volume,
     targets, interruptions, snapshots, inputs, idle, *later) = raw   # older roll-ups: no later fields
    return Frame(identity, monitor, app, site, start, end, active, offset, zone, tuple(titles),
                 tuple(PageVisit(*p) for p in pages), InputVolume(*volume),
                 tuple(ClickTarget(*t) for t in targets),
                 tuple(Interruption(a, s, st, en, tuple(snaps),
                                    None if vol is None else InputVolume(*vol), tuple(ids))
                       for a, s, st, en, snaps, vol, ids in interruptions),
                 tuple(snapshots), tuple(inputs), idle, *later)


def merge(parts: list[Document], since_ms: int, until_ms: int, zone: str,
          inferred: tuple[InferredItem, ...] | None) -> Document:
    """One document from stretches compiled apart, in time order (see the
    module docstring); `inferred` is the window's own tier (mined over all
    the stretches' actions) or None."""
    parts = [p for p in parts if p.frames or p.blind_spots]
    frames: list[Frame] = []
    for part in parts:
        frames += part.frames
    frames.sort(key=lambda f: (f.start_ms, f.monitor, f.snapshot_ids[:1]))
    renamed = tuple(f._replace(id=f"f-{n:04d}") for n, f in enumerate(frames, start=1))
    covered = [(p.coverage.first_activity_ms, p.coverage.last_activity_ms, p.coverage)
               for p in parts if p.coverage.first_activity_ms is not None
               and p.coverage.last_activity_ms is not None]
    gaps: list[Gap] = []
    for (_, before_last, before), (after_first, _, _) in zip(covered, covered[1:]):
        gaps += before.gaps
        if after_first - before_last > SESSION_GAP_MS:
            gaps.append(Gap(before_last, after_first, "away"))
    if covered:
        gaps += covered[-1][2].gaps
        first, last = covered[0][0], covered[-1][1]
        active = sum(c.active_ms for _, _, c in covered)
        idle = sum(c.idle_ms for _, _, c in covered)
        coverage = Coverage(first, last, active, last - first,
                            tuple(gaps), tuple(sorted({m for _, _, c in covered for m in c.monitors})),
                            idle, last - first - active - idle,   # away: the rest of the span
                            tuple(g for _, _, c in covered for g in c.quiet))
    else:
        coverage = Coverage(None, None, 0, 0, (), ())
    digest = hashlib.sha256("".join(p.provenance.input_digest for p in parts).encode()).hexdigest()
    rows: dict[str, int] = {}
    for part in parts:
        for table, count in part.provenance.rows:
            rows[table] = rows.get(table, 0) + count
    head = parts[0].provenance if parts else None
    provenance = Provenance(head.document_schema if head else "phantom.activity-frames/1",
                            head.compiler_version if head else "", "phantom+rollup",
                            max((p.provenance.store_schema for p in parts), default=0),
                            since_ms, until_ms, zone, digest, tuple(sorted(rows.items())))
    spots = tuple(s for p in parts for s in p.blind_spots)
    return Document(coverage, renamed, spots, provenance, inferred)
