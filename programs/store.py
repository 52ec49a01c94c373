"""Programs in the store: save, load, list, delete (behind `programs.api`).

The `programs` table (schema v2, owned by `core.store`) keeps each
program's canonical JSON under its digest id. Saving the same compilation
twice replaces one row instead of adding a second. Saving also gives a new
program its lifecycle row (`lifecycle_store.register`: a candidate, derived
from the latest program of the same name), and listing reports each
program's standing. Writes go through
`open_store` (read-write, migrated), reads through `open_readonly`, so
listing or loading can never change the store. The creation time is the
caller's: nothing here reads a clock.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

import apsw

from compiler.programs.build import CompileReport
from compiler.programs.records import Program, ProgramFormatError, from_json, program_id, to_json
from core.errors import quoted
from core.store import StoreError, open_readonly, open_store
from core.store.connection import has_table

from . import lifecycle_store
from .errors import UnknownProgram
from .lifecycle import Standing

_BY_ID = "SELECT id, body FROM programs WHERE id = ?"
_BY_NAME = "SELECT id, body FROM programs WHERE name = ? ORDER BY created_ms DESC, id DESC LIMIT 1"
_ALL = "SELECT id, name, source, traces, created_ms, body FROM programs ORDER BY created_ms, id"


@dataclass(frozen=True, slots=True)
class ProgramSummary:
    id: str
    name: str
    source: str
    traces: int
    steps: int | None          # None when the body cannot be read
    parameters: int | None
    created_ms: int
    problem: str | None = None  # why the body cannot be read
    standing: Standing = Standing()  # lifecycle state, description, lineage, counts
    program: Program | None = field(default=None, repr=False, compare=False)  # the body, when it reads


def save_program(path: str | os.PathLike[str], report_or_program: CompileReport | Program, *,
                 created_ms: int) -> str:
    """Store a program (INSERT OR REPLACE by id) and return its id."""
    program = report_or_program.program if isinstance(report_or_program, CompileReport) \
        else report_or_program
    identity = program_id(program)
    connection = open_store(path)
    try:
        with connection:
            connection.execute(
                "INSERT OR REPLACE INTO programs(id, name, source, created_ms, traces, body) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (identity, program.name, program.source, int(created_ms), program.traces,
                 to_json(program).decode("utf-8")))
            lifecycle_store.register(connection, identity, program.name, int(created_ms))
    except apsw.Error as exc:   # read-only file, disk full, locked past the timeout
        raise StoreError(f"cannot save program {identity} to {path} ({exc.__class__.__name__})",
                         path=str(path)) from None
    finally:
        connection.close()
    return identity


def load_program(path: str | os.PathLike[str], name_or_id: str) -> Program:
    """A program by id (`p-…`), else the latest one with that name (by
    creation time, then id). A body that does not parse, or that does not
    hash to its id, raises ProgramFormatError naming the id."""
    connection = open_readonly(path)
    try:
        row = None
        if _has_programs(connection):
            if name_or_id.startswith("p-"):
                row = connection.execute(_BY_ID, (name_or_id,)).fetchone()
            if row is None:
                row = connection.execute(_BY_NAME, (name_or_id,)).fetchone()
    finally:
        connection.close()
    if row is None:
        raise UnknownProgram(f"no program named or with id {quoted(name_or_id)}; "
                             "see `phantom programs` for the stored ones")
    identity, body = row
    try:
        return from_json(body, expected_id=identity)
    except ProgramFormatError as exc:
        raise ProgramFormatError(f"program {identity}: {exc}") from None


def list_programs(path: str | os.PathLike[str], states: Collection[str] | None = None
                  ) -> tuple[ProgramSummary, ...]:
    """Every stored program (or those in one of `states`), oldest first,
    each with its parsed body. A corrupt body does not hide the others: its
    summary says what is wrong instead of counting steps."""
    connection = open_readonly(path)
    try:
        rows: list[tuple[Any, ...]] = connection.execute(_ALL).fetchall() if _has_programs(connection) else []
        standing = {identity: lifecycle_store.standing_of(connection, identity) for identity, *_ in rows}
    finally:
        connection.close()
    summaries = []
    for identity, name, source, traces, created_ms, body in rows:
        if states is not None and standing[identity].state not in states:
            continue
        try:
            program = from_json(body, expected_id=identity)
        except ProgramFormatError as exc:
            summaries.append(ProgramSummary(identity, name, source, traces, None, None, created_ms,
                                            str(exc), standing[identity]))
            continue
        summaries.append(ProgramSummary(identity, name, source, traces, len(program.steps),
                                        len(program.parameters), created_ms,
                                        standing=standing[identity], program=program))
    return tuple(summaries)


def delete_programs(path: str | os.PathLike[str], ids: tuple[str, ...]) -> bool:
    """Delete these programs with their replay runs and step telemetry, then
    rewrite the store so no freed page keeps a copy of them (a program holds
    the text typed in its demonstrations). True when the WAL could be emptied."""
    from core.store.forget import scrub

    connection = open_store(path)
    try:
        marks = ", ".join("?" for _ in ids)
        with connection:
            if _has_programs(connection):
                connection.execute(f"DELETE FROM replay_steps WHERE run_id IN (SELECT id FROM "
                                   f"replay_runs WHERE program_id IN ({marks}))", ids)
                connection.execute(f"DELETE FROM replay_runs WHERE program_id IN ({marks})", ids)
                connection.execute(f"DELETE FROM programs WHERE id IN ({marks})", ids)
                for table in _STANDING_TABLES:
                    if has_table(connection, table):
                        connection.execute(f"DELETE FROM {table} WHERE program_id IN ({marks})", ids)
        return scrub(connection, path)
    except apsw.Error as exc:   # locked past the timeout, disk full
        raise StoreError(f"cannot delete programs from {path} ({exc.__class__.__name__})",
                         path=str(path)) from None
    finally:
        connection.close()


# What program memory keeps beside a body (schema v3): deleted with it.
_STANDING_TABLES = ("program_memory", "program_transitions", "program_intents")


def _has_programs(connection: apsw.Connection) -> bool:
    """A store still at schema v1 has no programs table (and no programs)."""
    return has_table(connection, "programs")

