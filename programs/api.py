"""Program memory's one front door. The CLI, the D-Bus service, the MCP
bridge and replay reach stored programs only through here, so every rule
holds for all of them at once:

1. compiling: the finished demonstrations with a name — or, instead, a mined
   routine's occurrences in a window — become a program through the
   compiler's pure passes, saved under its digest id. A new program is a
   `candidate`, a recompile of the latest one of its name; saving a body
   that is already stored changes nothing of its standing. `Compiled` says
   where the program stands after saving, from its lifecycle row;
2. listing: for a person every program, whatever its state; for an agent
   only the active ones, the only ones it may run (`AUDIENCES`);
3. looking up: `load` a program by id or name (the latest), `runnable` the
   one this caller may run, with the reason when none may;
4. the person's changes: `promote`, `deprecate`, `describe`, and `delete`
   (with `deletable` to show what would go before asking);
5. a run's outcome: `record_run`, which replay's front door calls after
   every run that is not a dry run, moves the program through its lifecycle
   (`lifecycle.py`'s rules, `lifecycle_store.py`'s rows).

The clock is read here, at the edge, for a row's creation time and the
instant of a change — neither is part of a program or its id; the compile
itself is pure and deterministic. Errors are `core.errors.PhantomError`s of
named kinds, raised as they are for each interface to translate once:
`unknown_program`, `compile_failed`, `corrupt_program`, `invalid_transition`,
`not_active` / `quarantined` / `deprecated`, `store_unavailable`,
`invalid_window` (a routine's window), `usage`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from compiler.programs.build import CompileReport, FieldChoices
from compiler.programs.records import Program
from compiler.programs.traces import Trace
from core import clock
from core.errors import PhantomError
from core.store import StoreError

from . import lifecycle_store, store
from .errors import ProgramNotRunnable, TransitionRefused, UnknownProgram
from .lifecycle import ACTIVE, CANDIDATE, DEPRECATED, QUARANTINED, STATES, RunFacts, Standing, Transition
from .lifecycle_store import MAX_DESCRIPTION_CHARS, Change, IntentRow
from .store import ProgramSummary

__all__ = [
    "ACTIVE", "AGENT", "AUDIENCES", "CANDIDATE", "DEPRECATED", "MAX_DESCRIPTION_CHARS", "PERSON",
    "QUARANTINED", "STATES", "Change", "Compiled", "IntentRow", "MinedRoutine", "ProgramNotRunnable",
    "ProgramSummary", "RunFacts", "Standing", "Transition", "TransitionRefused", "UnknownProgram",
    "active_intents", "cache_intents", "compile_program", "deletable", "delete", "deprecate",
    "describe", "intent_vectors", "list_programs", "load", "promote", "record_run", "runnable",
    "standing",
]

Db = str | os.PathLike[str]

# Who a listing is for, and the states each sees: a person every program
# (to promote, deprecate or delete it), an agent only what it may run.
PERSON, AGENT = "person", "agent"
AUDIENCES: dict[str, tuple[str, ...]] = {PERSON: STATES, AGENT: (ACTIVE,)}


@dataclass(frozen=True, slots=True)
class MinedRoutine:
    """A mined routine to compile instead of demonstrations: its id (`r-…`)
    and the window it recurs in (by default the whole history; `now_ms` is
    the instant relative times are read against)."""

    id: str
    day: str | None = None
    since: str | None = None
    until: str | None = None
    tz: str | None = None
    now_ms: int | None = None


@dataclass(frozen=True, slots=True)
class Compiled:
    """A compiled and stored program: the compiler's report (steps,
    parameters, every typed field's distance, warnings) and the program's
    standing after saving, read from its lifecycle row."""

    report: CompileReport
    standing: Standing

    @property
    def program(self) -> Program:
        return self.report.program


# -- compiling -----------------------------------------------------------------------------------
def compile_program(db: Db, name: str, *, routine: MinedRoutine | None = None,
                    choices: FieldChoices = FieldChoices()) -> Compiled:
    """Compile the finished demonstrations named `name` (or the occurrences
    of `routine`, named `name`) into a program and store it."""
    from compiler.programs.build import compile_program as build

    name = name.strip()
    if not name:
        raise PhantomError("the program name must not be empty", code="usage")
    if routine is None:
        from compiler.programs.recordings import traces_for_recordings

        traces, source = traces_for_recordings(db, name), "demonstration"
    else:
        traces, source = _routine_traces(db, routine), "routine"
    report = build(name, traces, source=source, choices=choices)
    identity = store.save_program(db, report, created_ms=clock.now_ms())
    return Compiled(report, standing(db, identity))


def _routine_traces(db: Db, routine: MinedRoutine) -> tuple[Trace, ...]:
    """The occurrences of one mined routine in its window: its id is the
    same in every window containing it."""
    from compiler.api import find_routine
    from compiler.programs.evidence import read_store_evidence, with_store_evidence
    from compiler.programs.traces import routine_traces

    found, capture = find_routine(Path(db), routine.id, day=routine.day, since=routine.since,
                                  until=routine.until, tz=routine.tz, now_ms=routine.now_ms)
    traces = routine_traces(found, capture)
    return with_store_evidence(traces, read_store_evidence(db, traces))


# -- listing and looking up ----------------------------------------------------------------------
def list_programs(db: Db, audience: str = PERSON) -> tuple[ProgramSummary, ...]:
    """The stored programs this audience sees, oldest first, each with its
    standing and parsed body (a corrupt body is listed with its problem)."""
    if audience not in AUDIENCES:
        raise PhantomError(f"unknown audience {audience!r}; one of {', '.join(AUDIENCES)}", code="usage")
    states = None if audience == PERSON else AUDIENCES[audience]
    return store.list_programs(db, states)


def load(db: Db, name_or_id: str) -> Program:
    """A stored program by id (`p-…`), else the latest one with that name."""
    return store.load_program(db, name_or_id)


def runnable(db: Db, name_or_id: str, trigger: str) -> str:
    """The id of the program this caller (`cli`, `dbus`: a person; `mcp`:
    an agent) means and may run, or a named error saying why not."""
    return lifecycle_store.runnable(db, name_or_id, trigger)


def standing(db: Db, program_id: str) -> Standing:
    """A program's standing (a candidate with no history when it has no
    lifecycle row); read-only."""
    return lifecycle_store.standing(db, program_id)


def active_intents(db: Db) -> list[IntentRow]:
    """Every active program's id, name and description, oldest first: what
    retrieval by intent ranks."""
    return lifecycle_store.active_intents(db)


def intent_vectors(db: Db, ids: Iterable[str]) -> dict[str, tuple[str, str, bytes]]:
    """The kept intent embeddings of these programs (see `cache_intents`)."""
    return lifecycle_store.intent_vectors(db, ids)


def cache_intents(db: Db, vectors: dict[str, tuple[str, bytes]], model: str) -> None:
    """Keep intent embeddings beside their programs, for the next process."""
    lifecycle_store.cache_intents(db, vectors, model)


# -- the person's changes ------------------------------------------------------------------------
def promote(db: Db, name_or_id: str) -> tuple[str, tuple[Change, ...]]:
    """Make a program active (the latest of a name, or an id); its
    predecessor, if any, is deprecated. Returns the id and every change."""
    return lifecycle_store.promote(_existing(db), name_or_id, clock.now_ms())


def deprecate(db: Db, name_or_id: str) -> tuple[str, Transition]:
    """Retire a program: nobody runs it until it is promoted again."""
    return lifecycle_store.deprecate(_existing(db), name_or_id, clock.now_ms())


def describe(db: Db, name_or_id: str, text: str) -> str:
    """Say in words what a program does ('' clears it); returns its id."""
    return lifecycle_store.describe(_existing(db), name_or_id, text, clock.now_ms())


def deletable(db: Db, name_or_id: str) -> tuple[ProgramSummary, ...]:
    """What `delete` would remove for this id, or every version of this
    name, once the store has been checked writable (so a person is not asked
    to confirm what cannot be done)."""
    from core.store.connection import prepare_for_writing

    wanted = name_or_id.strip()
    matches = tuple(s for s in store.list_programs(db) if wanted in (s.id, s.name))
    if not matches:
        raise UnknownProgram(f"no program named or with id {wanted!r}; see `phantom programs`")
    prepare_for_writing(db)
    return matches


def delete(db: Db, programs: Iterable[ProgramSummary]) -> bool:
    """Delete these programs with their runs, standing and embeddings, and
    rewrite the store so no freed page keeps a copy (a program holds what
    was typed in its demonstrations). True when the WAL could be emptied."""
    return store.delete_programs(db, tuple(p.id for p in programs))


# -- a run's outcome -----------------------------------------------------------------------------
def record_run(db: Db, program_id: str, facts: RunFacts) -> tuple[Standing, tuple[Change, ...]]:
    """Apply a finished run to its program's standing: a verified success
    counts for it, a failure that sent input against it."""
    return lifecycle_store.record_run(db, program_id, facts)


def _existing(db: Db) -> Path:
    """A change needs a store to change: opening one for writing would
    otherwise create an empty store at a mistyped path."""
    path = Path(db)
    if not path.exists():
        raise StoreError(f"no store at {path}", path=str(path))
    return path
