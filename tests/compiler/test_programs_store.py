"""Programs in the store: save, load by id or name, list, corrupt rows, and
reading recordings."""

from __future__ import annotations

import pytest
from test_programs_fixtures import form_capture, trace, write_store

from compiler.programs.build import compile_program
from compiler.programs.errors import ProgramCompileError
from compiler.programs.recordings import traces_for_recordings
from compiler.programs.records import ProgramFormatError
from compiler.programs.traces import recording_traces
from core.errors import PhantomError
from core.store import StoreError, open_readonly, open_store
from programs.errors import UnknownProgram
from programs.store import list_programs, load_program, save_program


def report(name="sign up", pairs=(("Ada Lovelace", "a@x"), ("Alan Turing", "a@x"))):
    capture, recordings = form_capture(list(pairs))
    return compile_program(name, recording_traces(capture, recordings), source="demonstration")


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "phantom.sqlite3"
    open_store(path).close()
    return path


def test_round_trip_by_id_and_by_name(db):
    compiled = report()
    identity = save_program(db, compiled, created_ms=1000)
    assert identity == compiled.program.id
    assert load_program(db, identity) == compiled.program
    assert load_program(db, "sign up") == compiled.program
    assert load_program(db, identity).id == identity


def test_saving_twice_keeps_one_row(db):
    compiled = report()
    save_program(db, compiled, created_ms=1000)
    save_program(db, compiled.program, created_ms=2000)
    (summary,) = list_programs(db)
    assert summary.created_ms == 2000


def test_latest_by_name_wins(db):
    older = report(pairs=(("Ada Lovelace", "a@x"), ("Alan Turing", "a@x")))
    newer = report(pairs=(("Ada Lovelace", "a@x"), ("Alan Turing", "a@x"), ("Grace Hopper", "a@x")))
    save_program(db, newer, created_ms=2000)
    save_program(db, older, created_ms=1000)
    assert load_program(db, "sign up").id == newer.program.id
    assert load_program(db, older.program.id).id == older.program.id


def test_same_time_ties_break_by_id(db):
    a, b = report(), report(pairs=(("Ada", "x@y"), ("Bob", "x@y"), ("Cy", "x@y")))
    save_program(db, a, created_ms=5)
    save_program(db, b, created_ms=5)
    assert load_program(db, "sign up").id == max(a.program.id, b.program.id)


def test_unknown_program(db):
    save_program(db, report(), created_ms=1)
    with pytest.raises(UnknownProgram, match="nothing"):
        load_program(db, "nothing")
    with pytest.raises(UnknownProgram):
        load_program(db, "p-000000000000")


def test_corrupt_body_names_the_id(db):
    identity = save_program(db, report(), created_ms=1)
    connection = open_store(db)
    with connection:
        connection.execute("UPDATE programs SET body = '{' WHERE id = ?", (identity,))
    connection.close()
    with pytest.raises(ProgramFormatError, match=identity) as caught:
        load_program(db, identity)
    assert "\n" not in str(caught.value)
    (summary,) = list_programs(db)
    assert summary.id == identity and summary.steps is None and summary.problem


def test_tampered_body_does_not_match_its_id(db):
    identity = save_program(db, report(), created_ms=1)
    connection = open_store(db)
    with connection:
        connection.execute("UPDATE programs SET body = replace(body, 'Submit', 'Cancel') WHERE id = ?",
                           (identity,))
    connection.close()
    with pytest.raises(ProgramFormatError, match=f"program {identity}"):
        load_program(db, "sign up")


def test_list_programs(db):
    assert list_programs(db) == ()
    first = save_program(db, report(), created_ms=10)
    second = save_program(db, report("other"), created_ms=20)
    summaries = list_programs(db)
    assert [(s.id, s.name, s.source, s.traces, s.steps, s.parameters, s.created_ms) for s in summaries] == [
        (first, "sign up", "demonstration", 2, 5, 1, 10), (second, "other", "demonstration", 2, 5, 1, 20)]


def test_reads_do_not_write(db):
    save_program(db, report(), created_ms=1)
    before = db.read_bytes()
    list_programs(db)
    load_program(db, "sign up")
    assert db.read_bytes() == before


def test_missing_store_is_a_store_error(tmp_path):
    with pytest.raises(StoreError):
        list_programs(tmp_path / "nope.sqlite3")


# -- recordings in the store ---------------------------------------------------------------
def test_traces_for_recordings(tmp_path):
    path = tmp_path / "p.sqlite3"
    capture, recordings = form_capture([("Ada Lovelace", "a@x"), ("Alan Turing", "a@x")])
    write_store(path, capture, recordings)
    traces = traces_for_recordings(path, "sign up")
    assert traces == recording_traces(capture, recordings)
    assert [t.origin for t in traces] == ["recording:1", "recording:2"]


def test_no_finished_recording(tmp_path):
    path = tmp_path / "p.sqlite3"
    capture, recordings = form_capture([("Ada", "a@x")])
    write_store(path, capture, recordings, running=((9, "draft", 50_000),))
    with pytest.raises(ProgramCompileError, match="no finished recording named 'other'.*record start"):
        traces_for_recordings(path, "other")
    with pytest.raises(ProgramCompileError, match="still running"):
        traces_for_recordings(path, "draft")


def test_recordings_need_a_database(tmp_path):
    with pytest.raises(PhantomError, match="no database") as raised:
        traces_for_recordings(tmp_path / "missing.sqlite3", "x")
    assert raised.value.code == "store_unavailable"


def _open_handles(db) -> list[str]:
    """This process's file descriptors on the store, its WAL or its shared memory."""
    import os

    fds = os.listdir("/proc/self/fd")
    targets = []
    for fd in fds:
        try:
            targets.append(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            continue
    return [t for t in targets if t.startswith(str(db))]


def test_store_helpers_close_their_connections(db):
    assert _open_handles(db) == []
    identity = save_program(db, compile_program("x", [trace("a", "A", "B"), trace("b", "A", "B")],
                                                source="demonstration"), created_ms=1)
    assert _open_handles(db) == []
    assert load_program(db, identity).name == "x"
    assert [p.name for p in list_programs(db)] == ["x"]
    assert _open_handles(db) == []
    connection = open_readonly(db)
    assert _open_handles(db)            # the check sees an open connection …
    connection.close()
    assert _open_handles(db) == []      # … and its close
