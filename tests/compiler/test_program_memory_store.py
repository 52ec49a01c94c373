"""Program memory in the store (schema v3): a saved program is a candidate
with its lineage, runs move it through the lifecycle with the evidence kept,
a successor's activation retires its predecessor, a name resolves to the
newest program the caller may run, and a store from before v3 still reads."""

from __future__ import annotations

import apsw
import pytest
from test_programs_fixtures import form_capture

from compiler.programs.build import compile_program
from compiler.programs.records import to_json
from compiler.programs.traces import recording_traces
from core.store import MIGRATIONS, open_readonly, open_store
from core.store.schema import APPLICATION_ID
from programs import lifecycle_store as memory
from programs.errors import ProgramNotRunnable, TransitionRefused, UnknownProgram
from programs.lifecycle import RunFacts
from programs.store import delete_programs, list_programs, load_program, save_program


def compiled(*names: str, program: str = "sign up"):
    capture, recordings = form_capture([(name, "a@x") for name in names])
    return compile_program(program, recording_traces(capture, recordings), source="demonstration").program


FIRST = compiled("Ada Lovelace", "Alan Turing")
SECOND = compiled("Ada Lovelace", "Alan Turing", "Grace Hopper")
THIRD = compiled("Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra")


def facts(run_id: int, status: str, *, sent: bool = True, trigger: str = "cli") -> RunFacts:
    return RunFacts(run_id, status, sent, "end_state" if status == "success" else "", trigger,
                    10_000 + run_id)


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "phantom.sqlite3"
    open_store(path).close()
    return path


def state(db, identity: str) -> str:
    return memory.standings(db)[identity].state


def test_a_saved_program_is_a_candidate_and_a_recompile_its_successor(db):
    first = save_program(db, FIRST, created_ms=1000)
    second = save_program(db, SECOND, created_ms=2000)
    save_program(db, SECOND, created_ms=3000)          # the same body again: nothing new
    standings = memory.standings(db)
    assert standings[first].state == standings[second].state == "candidate"
    assert standings[first].derived_from is None and standings[second].derived_from == first
    assert [t["to"] for t in memory.transitions(db, second)] == ["candidate"]
    assert memory.transitions(db, second)[0]["reason"] == f"compiled, a recompile of {first}"
    third = save_program(db, THIRD, created_ms=4000)    # from the latest of the name
    assert memory.standings(db)[third].derived_from == second


def test_a_verified_run_activates_and_retires_the_predecessor(db):
    first = save_program(db, FIRST, created_ms=1000)
    memory.record_run(db, first, facts(1, "success"))
    second = save_program(db, SECOND, created_ms=2000)
    assert state(db, first) == "active"                 # a candidate successor changes nothing yet
    standing, changes = memory.record_run(db, second, facts(2, "success"))
    assert standing.state == "active" and standing.successes == 1
    assert [(who, t.to_state) for who, t in changes] == [(second, "active"), (first, "deprecated")]
    retired = memory.standings(db)[first]
    assert (retired.state, retired.replaced_by) == ("deprecated", second)
    assert retired.state_reason == f"replaced by {second}, its recompile"


def test_promotion_of_a_successor_also_retires_the_predecessor(db):
    first = save_program(db, FIRST, created_ms=1000)
    second = save_program(db, SECOND, created_ms=2000)
    identity, changes = memory.promote(db, "sign up", 3000)
    assert identity == second
    assert [(who, t.to_state) for who, t in changes] == [(second, "active"), (first, "deprecated")]
    assert memory.standings(db)[second].verified_by == "promotion"
    with pytest.raises(TransitionRefused, match="already active"):
        memory.promote(db, second, 3001)


def test_two_failures_that_sent_input_quarantine_with_the_runs_as_evidence(db):
    identity = save_program(db, FIRST, created_ms=1000)
    memory.record_run(db, identity, facts(1, "success"))
    memory.record_run(db, identity, facts(2, "escalated"))
    memory.record_run(db, identity, facts(3, "refused", sent=False))   # nothing sent: not counted
    standing, changes = memory.record_run(db, identity, facts(4, "failed"))
    assert standing.state == "quarantined" and standing.failure_streak == (2, 4)
    assert standing.last_outcome == "failed" and standing.last_run_id == 4
    last = memory.transitions(db, identity)[-1]
    assert (last["from"], last["to"], last["runs"]) == ("active", "quarantined", [2, 4])
    with pytest.raises(TransitionRefused, match="quarantined"):
        memory.promote(db, identity, 5000)
    memory.record_run(db, identity, facts(5, "success", trigger="mcp"))
    assert state(db, identity) == "quarantined"
    memory.record_run(db, identity, facts(6, "success", trigger="dbus"))
    assert state(db, identity) == "active"


def test_a_name_resolves_to_the_newest_program_the_caller_may_run(db):
    first = save_program(db, FIRST, created_ms=1000)
    memory.record_run(db, first, facts(1, "success"))
    second = save_program(db, SECOND, created_ms=2000)            # a candidate, newer
    assert memory.runnable(db, "sign up", "cli") == second       # the person: not deprecated
    assert memory.runnable(db, "sign up", "mcp") == first        # an agent: active only
    with pytest.raises(ProgramNotRunnable, match="candidate: agents run only active") as caught:
        memory.runnable(db, second, "mcp")
    assert caught.value.code == "not_active"
    memory.deprecate(db, first, 3000)
    with pytest.raises(ProgramNotRunnable) as caught:
        memory.runnable(db, "sign up", "mcp")
    assert caught.value.code == "not_active" and second in str(caught.value)
    with pytest.raises(ProgramNotRunnable, match="deprecated") as caught:
        memory.runnable(db, first, "cli")
    assert caught.value.code == "deprecated" and caught.value.kind.exit_status == 4
    with pytest.raises(UnknownProgram):
        memory.runnable(db, "nothing", "cli")


def test_a_quarantined_program_is_refused_to_agents_with_the_reason(db):
    identity = save_program(db, FIRST, created_ms=1000)
    memory.promote(db, identity, 1500)
    for run_id in (1, 2):
        memory.record_run(db, identity, facts(run_id, "failed"))
    assert memory.runnable(db, "sign up", "cli") == identity
    with pytest.raises(ProgramNotRunnable) as caught:
        memory.runnable(db, "sign up", "mcp")
    assert caught.value.code == "quarantined"
    assert "failed 2 times in a row (runs 1, 2)" in str(caught.value)
    assert caught.value.kind.dbus_error == "org.phantom.Error.Quarantined"


def test_describing_drops_the_cached_intent_vectors(db):
    identity = save_program(db, FIRST, created_ms=1000)
    other = save_program(db, compiled("Ada", "Bob", program="save note"), created_ms=1001)
    memory.promote(db, identity, 1002)
    assert [(r.program_id, r.name, r.description) for r in memory.active_intents(db)] == [
        (identity, "sign up", "")]                                   # the candidate is not listed
    memory.cache_intents(db, {identity: ("", b"\x00" * 8), "p-gone": ("", b"\x01" * 8)}, "model-a")
    assert memory.intent_vectors(db, [identity, other, "p-gone"]) == {identity: ("", "model-a", b"\x00" * 8)}
    memory.describe(db, "sign up", "  register a   new member ", 1003)
    (row,) = memory.active_intents(db)
    assert row.description == "register a new member"
    assert memory.intent_vectors(db, [identity]) == {}
    with pytest.raises(TransitionRefused, match="at most 500"):
        memory.describe(db, identity, "x" * 501, 1004)


def test_delete_removes_the_body_and_its_standing(db):
    first = save_program(db, FIRST, created_ms=1000)
    second = save_program(db, SECOND, created_ms=2000)
    delete_programs(db, (second,))
    assert [s.id for s in list_programs(db)] == [first]
    assert second not in memory.standings(db) and memory.transitions(db, second) == []
    assert memory.intent_vectors(db, [second]) == {}
    assert load_program(db, "sign up").id == first
    assert memory.record_run(db, second, facts(9, "success")) == (memory.Standing(), ())
    assert second not in memory.standings(db)     # a run that ended after the delete leaves nothing


def v2_store(path, program) -> None:
    """A store as Phantom wrote it before program memory (schema v2)."""
    connection = apsw.Connection(str(path))
    for migration in MIGRATIONS[:2]:
        with connection:
            connection.execute(migration.sql)
    connection.pragma("application_id", APPLICATION_ID)
    connection.pragma("user_version", 2)
    with connection:
        connection.execute("INSERT INTO programs VALUES (?, ?, ?, ?, ?, ?)",
                           (program.id, program.name, program.source, 1000, program.traces,
                            to_json(program).decode()))
    connection.close()


def test_a_store_from_before_program_memory_reads_and_then_migrates(tmp_path):
    db = tmp_path / "v2.sqlite3"
    v2_store(db, FIRST)
    (summary,) = list_programs(db)                                 # read-only: nothing written
    assert summary.standing.state == "candidate" and summary.steps == len(FIRST.steps)
    assert memory.runnable(db, "sign up", "cli") == FIRST.id
    assert memory.active_intents(db) == [] and memory.transitions(db, FIRST.id) == []
    assert open_readonly(db).pragma("user_version") == 2
    memory.record_run(db, FIRST.id, facts(1, "success"))          # writing migrates to v3
    assert open_readonly(db).pragma("user_version") == MIGRATIONS[-1].version
    assert state(db, FIRST.id) == "active" and load_program(db, FIRST.id) == FIRST
