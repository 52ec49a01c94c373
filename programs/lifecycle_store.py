"""The `program_memory` table (schema v3): each program's lifecycle state,
description, lineage, counts and last outcome, beside its body — and
`program_intents`, its cached intent embeddings. The rules are
`lifecycle.py`'s; this module only reads and writes them.

A store written before v3 has no such table; read-only readers then see
every program as a `candidate` with no history (nothing is written to a
store opened read-only). Every change is one `BEGIN IMMEDIATE` transaction,
so two processes recording outcomes cannot lose one another's update, and
each state change leaves a `program_transitions` row with its evidence.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

import apsw

from core.errors import quoted
from core.store import StoreError, open_readonly, open_store
from core.store.connection import has_table

from . import lifecycle
from .errors import ProgramNotRunnable, TransitionRefused, UnknownProgram
from .lifecycle import DEPRECATED, RunFacts, Standing, Transition

MAX_DESCRIPTION_CHARS = 500

_COLUMNS = ("state, state_reason, description, derived_from, replaced_by, successes, failures, "
            "failure_streak, verified_by, last_run_id, last_outcome, last_run_ms")


@dataclass(frozen=True, slots=True)
class IntentRow:
    """An active program as retrieval reads it: no body, only what ranks it."""

    program_id: str
    name: str
    description: str


# -- reading ------------------------------------------------------------------------------------
def has_memory(connection: apsw.Connection) -> bool:
    """A store before schema v3 has no `program_memory` table."""
    return connection.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = "
                              "'program_memory'").fetchone() is not None


def standing_of(connection: apsw.Connection, program_id: str) -> Standing:
    """The program's standing; a candidate with no history when it has no row."""
    if not has_memory(connection):
        return Standing()
    row = connection.execute(f"SELECT {_COLUMNS} FROM program_memory WHERE program_id = ?",
                             (program_id,)).fetchone()
    return Standing() if row is None else _standing(row)


def standing(path: str | os.PathLike[str], program_id: str) -> Standing:
    """One program's standing, read-only (see `standing_of`)."""
    connection = open_readonly(path)
    try:
        return standing_of(connection, program_id)
    finally:
        connection.close()


def standings(path: str | os.PathLike[str]) -> dict[str, Standing]:
    """Every program's standing that has a row, by id (read-only)."""
    connection = open_readonly(path)
    try:
        if not has_memory(connection):
            return {}
        return {row[0]: _standing(row[1:]) for row in connection.execute(
            f"SELECT program_id, {_COLUMNS} FROM program_memory")}
    finally:
        connection.close()


def named(path: str | os.PathLike[str], name_or_id: str) -> list[tuple[str, Standing]]:
    """The programs a name or id stands for, newest first, each with its
    standing: one for an id, every program of that name for a name."""
    connection = open_readonly(path)
    try:
        if not has_table(connection, "programs"):
            return []
        rows = []
        if name_or_id.startswith("p-"):
            rows = connection.execute("SELECT id FROM programs WHERE id = ?", (name_or_id,)).fetchall()
        if not rows:
            rows = connection.execute("SELECT id FROM programs WHERE name = ? "
                                      "ORDER BY created_ms DESC, id DESC", (name_or_id,)).fetchall()
        return [(str(identity), standing_of(connection, str(identity))) for (identity,) in rows]
    finally:
        connection.close()


def runnable(path: str | os.PathLike[str], name_or_id: str, trigger: str) -> str:
    """The id of the program a caller means and may run: for a name, the
    newest program of that name whose state allows this caller (an agent:
    active; a person: not deprecated). When none does, a named error saying
    why the newest one may not run; an unknown name is `unknown_program`."""
    found = named(path, name_or_id)
    if not found:
        raise UnknownProgram(f"no program named or with id {quoted(name_or_id)}; "
                             "see `phantom programs` for the stored ones")
    for identity, standing in found:
        if lifecycle.refusal(standing, trigger) is None:
            return identity
    identity, standing = found[0]
    raise refused(identity, standing, trigger)


def refused(identity: str, standing: Standing, trigger: str) -> ProgramNotRunnable:
    """The error for a program this caller may not run, with the reason."""
    state = lifecycle.refusal(standing, trigger) or standing.state
    why = f" ({standing.state_reason})" if standing.state_reason else ""
    if state == DEPRECATED:
        successor = f"; it was replaced by {standing.replaced_by}" if standing.replaced_by else ""
        return ProgramNotRunnable(f"program {identity} is deprecated{why}{successor}; `phantom "
                                  "programs promote` brings it back; nothing was sent", state=state)
    if state == lifecycle.QUARANTINED:
        return ProgramNotRunnable(f"program {identity} is quarantined{why}: agents may not run it "
                                  "until the person replays it successfully; nothing was sent",
                                  state=state)
    return ProgramNotRunnable(f"program {identity} is a candidate: agents run only active programs, "
                              "made active by a verified run the person starts or by `phantom "
                              "programs promote`; nothing was sent", state=state)


def active_intents(path: str | os.PathLike[str]) -> list[IntentRow]:
    """Every active program with its name and description, oldest first
    (read-only, from two covering indexes: no body and no vector is read)."""
    connection = open_readonly(path)
    try:
        if not has_memory(connection):
            return []
        names = {identity: (created, name) for identity, name, created in connection.execute(
            "SELECT id, name, created_ms FROM programs INDEXED BY programs_by_name")}
        rows = [(names[identity][0], identity, names[identity][1], description)
                for identity, description in connection.execute(
                    "SELECT program_id, description FROM program_memory INDEXED BY "
                    "program_memory_by_state WHERE state = 'active'") if identity in names]
    finally:
        connection.close()
    return [IntentRow(identity, name, description) for _, identity, name, description in sorted(rows)]


def intent_vectors(path: str | os.PathLike[str], ids: Iterable[str]) -> dict[str, tuple[str, str, bytes]]:
    """The kept intent vectors of these programs: id → (description they
    were made with, model, float32 bytes)."""
    wanted = set(ids)
    connection = open_readonly(path)
    try:
        if not wanted or not has_table(connection, "program_intents"):
            return {}
        found: dict[str, tuple[str, str, bytes]] = {}
        for identity, description, model, blob in connection.execute(
                "SELECT program_id, description, model, vectors FROM program_intents"):
            if identity in wanted:
                found[identity] = (description, model, blob)
        return found
    finally:
        connection.close()


def transitions(path: str | os.PathLike[str], program_id: str) -> list[dict[str, Any]]:
    """A program's state changes, oldest first, with their evidence."""
    connection = open_readonly(path)
    try:
        if not has_memory(connection):
            return []
        return [{"ts_ms": ts, "from": old, "to": new, "reason": reason,
                 "runs": [int(r) for r in runs.split(",") if r]}
                for ts, old, new, reason, runs in connection.execute(
                    "SELECT ts_ms, from_state, to_state, reason, runs FROM program_transitions "
                    "WHERE program_id = ? ORDER BY ts_ms, id", (program_id,))]
    finally:
        connection.close()


# -- writing ------------------------------------------------------------------------------------
def register(connection: apsw.Connection, program_id: str, name: str, created_ms: int) -> None:
    """Inside `save_program`'s transaction: a newly saved program is a
    candidate, derived from the latest program of the same name (a
    recompile is that program's successor). Saving the same body again
    changes nothing here."""
    if connection.execute("SELECT 1 FROM program_memory WHERE program_id = ?",
                          (program_id,)).fetchone() is not None:
        return
    previous = connection.execute("SELECT id FROM programs WHERE name = ? AND id != ? "
                                  "ORDER BY created_ms DESC, id DESC LIMIT 1",
                                  (name, program_id)).fetchone()
    derived = previous[0] if previous else None
    reason = f"compiled, a recompile of {derived}" if derived else "compiled"
    connection.execute("INSERT INTO program_memory(program_id, state, state_ms, state_reason, "
                       "derived_from) VALUES (?, 'candidate', ?, ?, ?)",
                       (program_id, created_ms, reason, derived))
    _log(connection, program_id, created_ms, Transition("", lifecycle.CANDIDATE, reason))


Change = tuple[str, Transition]   # which program, and how its state changed


def record_run(path: str | os.PathLike[str], program_id: str, facts: RunFacts
               ) -> tuple[Standing, tuple[Change, ...]]:
    """Apply a finished run to its program's standing (and, when the program
    became active, deprecate the program it was recompiled from)."""
    with _writing(path) as connection:
        if connection.execute("SELECT 1 FROM programs WHERE id = ?", (program_id,)).fetchone() is None:
            return Standing(), ()   # deleted while it ran: nothing left to keep a standing for
        standing, transition = lifecycle.after_run(_current(connection, program_id), facts)
        _write(connection, program_id, standing, facts.finished_ms)
        changes = _settle(connection, program_id, standing, transition, facts.finished_ms)
    return standing, changes


def promote(path: str | os.PathLike[str], name_or_id: str, at_ms: int
            ) -> tuple[str, tuple[Change, ...]]:
    """The person makes a program active (the latest of a name, or an id)."""
    with _writing(path) as connection:
        identity = _resolve(connection, name_or_id)
        try:
            standing, transition = lifecycle.promote(_current(connection, identity))
        except lifecycle.LifecycleError as exc:
            raise TransitionRefused(f"program {identity} {exc}") from None
        _write(connection, identity, standing, at_ms)
        return identity, _settle(connection, identity, standing, transition, at_ms)


def deprecate(path: str | os.PathLike[str], name_or_id: str, at_ms: int) -> tuple[str, Transition]:
    """The person retires a program (the latest of a name, or an id)."""
    with _writing(path) as connection:
        identity = _resolve(connection, name_or_id)
        try:
            standing, transition = lifecycle.deprecate(_current(connection, identity),
                                                       "deprecated on request")
        except lifecycle.LifecycleError as exc:
            raise TransitionRefused(f"program {identity} {exc}") from None
        _write(connection, identity, standing, at_ms)
        _log(connection, identity, at_ms, transition)
        return identity, transition


def describe(path: str | os.PathLike[str], name_or_id: str, text: str, at_ms: int) -> str:
    """Set a program's description (an intent key); its cached intent
    embeddings are dropped, to be made again from the new keys."""
    text = " ".join(text.split())
    if len(text) > MAX_DESCRIPTION_CHARS:
        raise TransitionRefused(f"a description is at most {MAX_DESCRIPTION_CHARS} characters")
    with _writing(path) as connection:
        identity = _resolve(connection, name_or_id)
        standing = replace(_current(connection, identity), description=text)
        _write(connection, identity, standing, at_ms)
        connection.execute("DELETE FROM program_intents WHERE program_id = ?", (identity,))
        return identity


def cache_intents(path: str | os.PathLike[str], vectors: dict[str, tuple[str, bytes]],
                  model: str) -> None:
    """Keep programs' intent embeddings beside them: id → (the description
    they were made with, float32 bytes). A program deleted meanwhile gets none."""
    if not vectors:
        return
    with _writing(path) as connection:
        for identity, (description, blob) in vectors.items():
            if connection.execute("SELECT 1 FROM programs WHERE id = ?", (identity,)).fetchone():
                connection.execute("INSERT OR REPLACE INTO program_intents(program_id, description, "
                                   "model, vectors) VALUES (?, ?, ?, ?)",
                                   (identity, description, model, blob))


# -- helpers ------------------------------------------------------------------------------------
@contextmanager
def _writing(path: str | os.PathLike[str]) -> Iterator[apsw.Connection]:
    connection = open_store(path)
    try:
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield connection
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")
    except apsw.Error as exc:   # read-only file, disk full, locked past the timeout
        raise StoreError(f"cannot update program memory in {path} ({exc.__class__.__name__})",
                         path=str(path)) from None
    finally:
        connection.close()


def _resolve(connection: apsw.Connection, name_or_id: str) -> str:
    row = None
    if name_or_id.startswith("p-"):
        row = connection.execute("SELECT id FROM programs WHERE id = ?", (name_or_id,)).fetchone()
    if row is None:
        row = connection.execute("SELECT id FROM programs WHERE name = ? ORDER BY created_ms DESC, "
                                 "id DESC LIMIT 1", (name_or_id,)).fetchone()
    if row is None:
        raise UnknownProgram(f"no program named or with id {quoted(name_or_id)}; "
                             "see `phantom programs` for the stored ones")
    return str(row[0])


def _current(connection: apsw.Connection, program_id: str) -> Standing:
    return standing_of(connection, program_id)


def _write(connection: apsw.Connection, program_id: str, standing: Standing, at_ms: int) -> None:
    streak = ",".join(map(str, standing.failure_streak))
    values = (standing.state, standing.state_reason, standing.description, standing.derived_from,
              standing.replaced_by, standing.successes, standing.failures, streak,
              standing.verified_by, standing.last_run_id, standing.last_outcome, standing.last_run_ms)
    updated = connection.execute(
        "UPDATE program_memory SET state = ?, state_reason = ?, description = ?, derived_from = ?, "
        "replaced_by = ?, successes = ?, failures = ?, failure_streak = ?, verified_by = ?, "
        "last_run_id = ?, last_outcome = ?, last_run_ms = ?, "
        "state_ms = CASE WHEN state = ? THEN state_ms ELSE ? END WHERE program_id = ? RETURNING 1",
        (*values, standing.state, at_ms, program_id)).fetchall()
    if not updated:  # saved before schema v3: its row starts now
        connection.execute(
            f"INSERT INTO program_memory(program_id, state_ms, {_COLUMNS}) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (program_id, at_ms, *values))


def _settle(connection: apsw.Connection, program_id: str, standing: Standing,
            transition: Transition | None, at_ms: int) -> tuple[Change, ...]:
    """Log a state change; when it made the program active, its predecessor
    (what it was recompiled from) is deprecated, replaced by it."""
    if transition is None:
        return ()
    _log(connection, program_id, at_ms, transition)
    changes = [(program_id, transition)]
    predecessor = standing.derived_from
    if transition.to_state == lifecycle.ACTIVE and predecessor:
        before = _current(connection, predecessor)
        exists = connection.execute("SELECT 1 FROM programs WHERE id = ?", (predecessor,)).fetchone()
        if exists and before.state != DEPRECATED:
            retired, change = lifecycle.deprecate(before, f"replaced by {program_id}, its recompile",
                                                  replaced_by=program_id)
            _write(connection, predecessor, retired, at_ms)
            _log(connection, predecessor, at_ms, change)
            changes.append((predecessor, change))
    return tuple(changes)


def _log(connection: apsw.Connection, program_id: str, at_ms: int, transition: Transition) -> None:
    connection.execute("INSERT INTO program_transitions(program_id, ts_ms, from_state, to_state, "
                       "reason, runs) VALUES (?, ?, ?, ?, ?, ?)",
                       (program_id, at_ms, transition.from_state or None, transition.to_state,
                        transition.reason, ",".join(map(str, transition.runs))))


def _standing(row: Sequence[Any]) -> Standing:
    (state, reason, description, derived, replaced, successes, failures, streak, verified_by,
     last_run_id, last_outcome, last_run_ms) = row
    return Standing(state, reason, description, derived, replaced, successes, failures,
                    tuple(int(r) for r in streak.split(",") if r), verified_by, last_run_id,
                    last_outcome, last_run_ms)

