"""Windows that reach into days retention rolled up (see rollup.py).

Retention records in the store's meta table the instant before which raw
rows were removed (`retention_raw_before_ms`); a roll-up answers for a day
wholly before it. A window that is exactly such a day is its roll-up
(marked as such); a longer one is its raw rows compiled as usual, merged
with the roll-ups of the whole days it covers; routines count the rolled
days' kept actions. Windows clear of rolled days never come here, so their
bytes are the same as before retention ran.

Only a store retention has run on needs the roll-up codec and retention's
meta key: they load when a day is found rolled up, so a compile of a store
that never rolled one up (every nocta/screenpipe file) does not pay for them.
"""

from __future__ import annotations

from typing import NamedTuple

import apsw

from .records import Action, Capture, Document

NOTE_DAY = "from the roll-up: this day's raw rows were removed by retention"


class RolledDay(NamedTuple):
    day: str
    zone: str
    since_ms: int
    until_ms: int
    format: int
    document: bytes
    actions: bytes


def raw_before(connection: apsw.Connection) -> int | None:
    """The instant before which retention removed raw rows, if it ran."""
    if connection.execute("SELECT 1 FROM sqlite_master WHERE name = 'rollup_days'").fetchone() is None:
        return None
    from core.store.retention import RAW_BEFORE_KEY

    row = connection.execute("SELECT value FROM meta WHERE key = ?", (RAW_BEFORE_KEY,)).fetchone()
    return int(row[0]) if row else None


def rolled_days(connection: apsw.Connection, since_ms: int, until_ms: int) -> list[RolledDay]:
    """Roll-ups of whole days inside [since, until) whose raw rows are gone,
    in time order."""
    before = raw_before(connection)
    if before is None:
        return []
    return [RolledDay(*row) for row in connection.execute(
        "SELECT day, zone, since_ms, until_ms, format, document, actions FROM rollup_days "
        "WHERE since_ms >= ? AND until_ms <= ? AND until_ms <= ? ORDER BY since_ms, zone",
        (since_ms, until_ms, before))]


def exact_day(days: list[RolledDay], since_ms: int, until_ms: int, zone: str) -> RolledDay | None:
    return next((d for d in days if (d.since_ms, d.until_ms, d.zone) == (since_ms, until_ms, zone)),
                None)


def day_document(day: RolledDay, inferred: bool) -> Document:
    from .rollup import decode_document

    document = decode_document(day.document, day.format)
    return document if inferred else document._replace(inferred=None)


def actions_of(days: list[RolledDay]) -> tuple[Action, ...]:
    from .rollup import decode_actions

    found: list[Action] = []
    for day in days:
        found += decode_actions(day.actions, day.format)
    return tuple(found)


def merged(raw: Document, capture: Capture, days: list[RolledDay], since_ms: int, until_ms: int,
           zone: str, inferred: bool) -> Document:
    """The raw stretch and the rolled days as one document; the inferred
    tier mined over the rolled days' actions and the raw ones together."""
    from .rollup import merge

    parts = sorted([raw, *(day_document(d, False) for d in days)],
                   key=lambda d: d.coverage.first_activity_ms or d.provenance.since_ms)
    document = merge(parts, since_ms, until_ms, zone, None)
    if not inferred:
        return document
    from .frames.inferred import infer_actions
    from .routines.actions import derive_actions

    actions = sorted(actions_of(days) + derive_actions(capture), key=lambda a: (a.ts_ms, a.evidence))
    return document._replace(inferred=infer_actions(actions, document.frames))


class UnreadableRollup(NamedTuple):
    day: str
    zone: str
    since_ms: int
    until_ms: int
    problem: str


def unreadable_rollups(connection: apsw.Connection) -> tuple[UnreadableRollup, ...]:
    """Every roll-up whose document or action stream does not decode
    (SQLite's own checks never look inside a blob, so `doctor --repair`
    asks here). A roll-up of a newer format is not damaged, only unread
    by this Phantom, and is left out."""
    from .rollup import FORMAT, RollupError, decode_actions, decode_document

    if connection.execute("SELECT 1 FROM sqlite_master WHERE name = 'rollup_days'").fetchone() is None:
        return ()
    found = []
    for day, zone, since_ms, until_ms, fmt, document, actions in connection.execute(
            "SELECT day, zone, since_ms, until_ms, format, document, actions FROM rollup_days "
            "ORDER BY since_ms, zone"):
        if fmt != FORMAT:
            continue
        try:
            decode_document(document, fmt)
            decode_actions(actions, fmt)
        except RollupError as exc:
            found.append(UnreadableRollup(day, zone, since_ms, until_ms, str(exc).split(";")[0]))
    return tuple(found)
