"""Program memory's front door on a real store: compiling reports the state
the lifecycle gives (a recompile of an active body stays active, for the
CLI and the MCP bridge alike), one listing serves a person (every state)
and an agent (active only), the person's changes and a run's outcome go
through it, and every error it raises is a named kind of the family that
the CLI prints as it is — never re-wrapped into another kind."""

from __future__ import annotations

import pytest

from cli import main as cli
from core.errors import ERROR_KINDS, PhantomError
from programs import api
from support.programs import program_fixtures
from testbed.program_catalog import load_tasks, task_program

TASKS = load_tasks()


@pytest.fixture
def store(tmp_path):
    fixtures = program_fixtures()
    path = tmp_path / "phantom.sqlite3"
    capture, recordings = fixtures.form_capture([("Ada Lovelace", "ada@example.org"),
                                                 ("Alan Turing", "ada@example.org")])
    fixtures.write_store(path, capture, recordings)
    return path


def test_a_compiled_program_is_a_candidate_and_its_recompile_keeps_the_state(store):
    compiled = api.compile_program(store, "  sign up ")
    assert compiled.program.name == "sign up" and compiled.program.source == "demonstration"
    assert compiled.standing.state == api.CANDIDATE and compiled.standing.derived_from is None
    assert [s.id for s in api.list_programs(store)] == [compiled.program.id]
    api.promote(store, "sign up")
    again = api.compile_program(store, "sign up")       # the same body: the same program
    assert again.program.id == compiled.program.id and again.standing.state == api.ACTIVE


def test_the_mcp_bridge_reports_the_lifecycle_state_not_a_fixed_one(store):
    from mcp_bridge.programs import compile_recordings

    first = compile_recordings(store, "sign up")
    assert first["state"] == "candidate" and first["next"].startswith("agents may run it once")
    api.promote(store, first["id"])
    again = compile_recordings(store, "sign up")
    assert again["id"] == first["id"] and (again["state"], again["next"]) == ("active", "agents may run it")


def test_one_listing_a_person_sees_every_state_an_agent_only_active_ones(tmp_path):
    from programs.store import save_program

    db = tmp_path / "phantom.sqlite3"
    ids = [save_program(db, task_program(task), created_ms=1000 + n) for n, task in enumerate(TASKS[:3])]
    api.promote(db, ids[1])
    api.deprecate(db, ids[2])
    person = api.list_programs(db)
    assert [s.id for s in person] == ids
    assert [s.standing.state for s in person] == [api.CANDIDATE, api.ACTIVE, api.DEPRECATED]
    assert all(s.program is not None and s.program.id == s.id for s in person)   # the body, parsed once
    (agent,) = api.list_programs(db, api.AGENT)
    assert agent.id == ids[1] and agent.program == api.load(db, ids[1])
    with pytest.raises(PhantomError) as caught:
        api.list_programs(db, "robot")
    assert caught.value.code == "usage"


def test_a_run_outcome_moves_the_program_through_its_lifecycle(tmp_path):
    from programs.store import save_program

    db = tmp_path / "phantom.sqlite3"
    identity = save_program(db, task_program(TASKS[0]), created_ms=1)
    standing, changes = api.record_run(db, identity, api.RunFacts(7, "success", True, "end_state", "cli", 2))
    assert standing.state == api.ACTIVE and api.standing(db, identity) == standing
    assert [(who, change.to_state) for who, change in changes] == [(identity, api.ACTIVE)]
    assert api.runnable(db, TASKS[0].name, "mcp") == identity


def test_deletable_shows_every_version_then_delete_removes_them(store):
    from compiler.programs.build import FieldChoices

    first = api.compile_program(store, "sign up").program.id
    second = api.compile_program(store, "sign up", choices=FieldChoices(relax_title=True)).program.id
    assert first != second and api.standing(store, second).derived_from == first
    assert [s.id for s in api.deletable(store, second)] == [second]
    api.delete(store, api.deletable(store, "sign up"))
    assert api.list_programs(store) == ()


@pytest.mark.parametrize("call, code", [
    (lambda db: api.compile_program(db, "   "), "usage"),
    (lambda db: api.compile_program(db, "nothing"), "compile_failed"),
    (lambda db: api.compile_program(db, "x", routine=api.MinedRoutine("r-000000000000")), "compile_failed"),
    (lambda db: api.compile_program(db, "x", routine=api.MinedRoutine("r-1", day="notaday")),
     "invalid_window"),
    (lambda db: api.load(db, "nothing"), "unknown_program"),
    (lambda db: api.promote(db, "nothing"), "unknown_program"),
    (lambda db: api.describe(db, "sign up", "x" * 501), "invalid_transition"),
    (lambda db: api.deletable(db, "nothing"), "unknown_program"),
    (lambda db: api.runnable(db, "sign up", "mcp"), "not_active"),
])
def test_errors_are_named_kinds_of_the_family(store, call, code):
    api.compile_program(store, "sign up")
    with pytest.raises(PhantomError) as caught:
        call(store)
    assert caught.value.code == code and code in ERROR_KINDS


def test_a_change_to_a_missing_store_creates_none(tmp_path):
    missing = tmp_path / "missing.sqlite3"
    for change in (api.promote, api.deprecate, lambda db, name: api.describe(db, name, "words")):
        with pytest.raises(PhantomError) as caught:
            change(missing, "sign up")
        assert caught.value.code == "store_unavailable" and str(missing) in str(caught.value)
    assert not missing.exists()


def test_a_corrupt_body_is_a_corrupt_program_and_still_listed(store):
    from core.store import open_store

    identity = api.compile_program(store, "sign up").program.id
    connection = open_store(store)
    with connection:
        connection.execute("UPDATE programs SET body = '{'")
    connection.close()
    with pytest.raises(PhantomError) as caught:
        api.load(store, identity)
    assert caught.value.code == "corrupt_program" and identity in str(caught.value)
    (listed,) = api.list_programs(store)
    assert listed.program is None and listed.problem


@pytest.mark.parametrize("argv, code", [
    (["compile-program", "nothing"], "compile_failed"),
    (["compile-program", "x", "--routine", "r-000000000000"], "compile_failed"),
    (["compile-program", "x", "--routine", "r-1", "--day", "notaday"], "invalid_window"),
    (["programs", "promote", "nothing"], "unknown_program"),
    (["programs", "describe", "sign up", "x" * 501], "invalid_transition"),
    (["programs", "delete", "nothing", "--yes"], "unknown_program"),
])
def test_the_cli_prints_the_front_doors_error_as_it_is(store, capsys, argv, code):
    api.compile_program(store, "sign up")
    capsys.readouterr()
    outcome = cli.run([*argv, "--db", str(store)])
    assert outcome.error is not None and outcome.error.code == code
    assert type(outcome.error).__module__ != "cli.errors"          # not re-wrapped by the CLI
    assert outcome.status == ERROR_KINDS[code].exit_status
    (line,) = capsys.readouterr().err.splitlines()
    assert line == f"phantom: {outcome.error}"
