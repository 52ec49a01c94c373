"""`phantom compile-program` and `phantom programs`: output, storage, and
one-line errors for bad input."""

from __future__ import annotations

import json

import pytest
from test_programs_fixtures import APP, NAME, SUBMIT, CaptureBuilder, form_capture, write_store

from cli import main as cli
from compiler.routines.actions import derive_actions, sessions
from compiler.routines.mining import mine
from programs.store import list_programs, load_program


@pytest.fixture
def store(tmp_path):
    path = tmp_path / "phantom.sqlite3"
    capture, recordings = form_capture([("Ada Lovelace", "ada@example.org"),
                                        ("Alan Turing", "ada@example.org")])
    write_store(path, capture, recordings)
    return path


def one_line_error(capsys, code: int) -> str:
    captured = capsys.readouterr()
    assert code != 0
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("phantom"), captured.err
    assert "Traceback" not in captured.err
    return lines[0]


def test_compile_program_text(store, capsys):
    assert cli.main(["compile-program", "sign up", "--db", str(store)]) == 0
    out = capsys.readouterr().out
    (stored,) = list_programs(store)
    assert stored.id in out and "5 steps, 1 parameter" in out
    assert "$P0" in out and '"Ada Lovelace", "Alan Turing"' in out
    assert "step   1" in out and "step   3" in out and "0.8333" in out and "literal" in out
    assert load_program(store, "sign up").steps[3].text == "ada@example.org"
    assert out.endswith("state: candidate — agents may run it after a verified run you start or "
                        "`phantom programs promote`\n")


def test_compile_program_json_is_canonical_and_deterministic(store, capsys):
    assert cli.main(["compile-program", "sign up", "--db", str(store), "--format", "json"]) == 0
    first = capsys.readouterr().out
    assert cli.main(["compile-program", "sign up", "--db", str(store), "--format", "json"]) == 0
    assert capsys.readouterr().out == first
    report = json.loads(first)
    assert report["id"] == list_programs(store)[0].id
    assert [d["step"] for d in report["distances"]] == [1, 3]
    assert report["program"]["steps"][1]["text"] == "$P0"
    assert len(list_programs(store)) == 1            # same program, one row


def test_programs_table_and_json(store, capsys):
    assert cli.main(["programs", "--db", str(store)]) == 0
    assert "no programs stored" in capsys.readouterr().out
    cli.main(["compile-program", "sign up", "--db", str(store)])
    capsys.readouterr()
    assert cli.main(["programs", "--db", str(store)]) == 0
    table = capsys.readouterr().out
    assert "sign up" in table and "demonstration" in table
    assert cli.main(["programs", "--db", str(store), "--format", "json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["name"], row["steps"], row["parameters"], row["traces"]) == ("sign up", 5, 1, 2)


def test_compile_program_from_a_routine(tmp_path, capsys):
    builder = CaptureBuilder()
    for n in range(3):
        start = 1_000_000 + n * 300_000
        builder.snapshot(start, "Terminal", title="~").snapshot(start + 1000, APP)
        builder.click(start + 2000, NAME, x=100, y=200)
        builder.type(start + 2500, NAME, None, count=5)
        builder.click(start + 5000, SUBMIT, x=300, y=400)
        builder.snapshot(start + 30_000, APP, trigger="heartbeat")
    capture = builder.build()
    path = tmp_path / "phantom.sqlite3"
    write_store(path, capture, ())
    routine = next(r for r in mine(sessions(derive_actions(capture)))
                   if any(s.kind == "type" for s in r.steps))
    assert cli.main(["compile-program", "daily", "--routine", f"r-{routine.id}", "--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert "(routine)" in out and "(not recorded)" in out
    program = load_program(path, "daily")
    assert program.source == "routine" and program.traces == 3
    assert all(step.parameter for step in program.steps if step.action == "type")


def test_a_routine_seen_in_a_window_compiles_from_that_window(tmp_path, capsys):
    """Three rounds in the first hour, and two more later: the id `phantom
    routines` shows for the hour compiles with that hour's window."""
    builder = CaptureBuilder()
    for n in range(5):
        start = 1_000_000 + n * 300_000 + (3_600_000 if n >= 3 else 0)
        builder.snapshot(start, "Terminal", title="~").snapshot(start + 1000, APP)
        builder.click(start + 2000, NAME, x=100, y=200)
        builder.type(start + 2500, NAME, None, count=5)
        builder.click(start + 5000, SUBMIT, x=300, y=400)
        builder.snapshot(start + 30_000, APP, trigger="heartbeat")
    path = tmp_path / "phantom.sqlite3"
    write_store(path, builder.build(), ())
    hour = ["--since", "1970-01-01T00:00Z", "--until", "1970-01-01T01:00Z"]
    assert cli.main(["routines", "--db", str(path), "--format", "json", *hour]) == 0
    seen = json.loads(capsys.readouterr().out)["routines"]
    routine = next(r["id"] for r in seen if any(s["kind"] == "type" for s in r["steps"]))
    assert cli.main(["compile-program", "hourly", "--routine", routine, "--db", str(path), *hour]) == 0
    assert load_program(path, "hourly").traces == 3
    assert cli.main(["compile-program", "all", "--routine", routine, "--db", str(path)]) == 0
    assert load_program(path, "all").traces == 5  # the same id in the whole history
    assert cli.main(["compile-program", "later", "--routine", routine, "--db", str(path),
                     "--since", "1970-01-01T01:00Z", "--until", "1970-01-01T03:00Z"]) == 1
    assert f"no routine {routine} recurs in the window" in capsys.readouterr().err


@pytest.mark.parametrize("argv, expected", [
    (["compile-program", "nothing"], "no finished recording named 'nothing'"),
    (["compile-program", "  "], "NAME must not be empty"),
    (["compile-program", "x", "--routine", "r-000000000000"], "no routine r-000000000000"),
    (["compile-program", "sign up", "--format", "yaml"], "invalid choice"),
    (["programs", "--format", "xml"], "invalid choice"),
])
def test_bad_input_is_one_line(store, capsys, argv, expected):
    code = cli.main([*argv, "--db", str(store)])
    assert expected in one_line_error(capsys, code)


def test_one_demonstration_is_not_enough(tmp_path, capsys):
    path = tmp_path / "phantom.sqlite3"
    capture, recordings = form_capture([("Ada", "a@x")])
    write_store(path, capture, recordings)
    line = one_line_error(capsys, cli.main(["compile-program", "sign up", "--db", str(path)]))
    assert "record at least two demonstrations (have 1)" in line


def test_missing_and_foreign_databases(tmp_path, capsys):
    missing = tmp_path / "missing.sqlite3"
    assert "no database" in one_line_error(capsys, cli.main(["compile-program", "x", "--db", str(missing)]))
    assert "missing.sqlite3" in one_line_error(capsys, cli.main(["programs", "--db", str(missing)]))
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    one_line_error(capsys, cli.main(["compile-program", "x", "--db", str(text)]))
    one_line_error(capsys, cli.main(["programs", "--db", str(text)]))


def test_corrupt_program_is_listed_not_fatal(store, capsys):
    from core.store import open_store

    cli.main(["compile-program", "sign up", "--db", str(store)])
    connection = open_store(store)
    with connection:
        connection.execute("UPDATE programs SET body = '{'")
    connection.close()
    capsys.readouterr()
    assert cli.main(["programs", "--db", str(store)]) == 0
    assert "unreadable" in capsys.readouterr().out
