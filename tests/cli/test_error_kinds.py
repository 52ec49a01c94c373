"""One bad input, one kind of error, in every command that takes it.

The fuzz corpus of tests/cli/test_cli_fuzz.py — bad times and dates, numbers
out of range and NaN, unknown zones, paths that are no store, bad names, no
bus and no display — is run here case by case against every command that
takes the argument, and each answer is checked twice against the error
family's table (core/errors.py): the kind of the error `cli.main.run`
reported, and the exit status that kind has. A command that re-wrapped a
library error in its own would report another kind (and often another
status) and fail here. Then a damaged roll-up: one line of kind
`store_damaged` naming `phantom doctor --repair`, from the CLI and MCP.

In-process (`cli.main.run`), no display and no session bus, on copies of
the recorded fixture store."""

from __future__ import annotations

import json
import shutil
import zlib
from datetime import datetime, timezone
from pathlib import Path

import apsw
import pytest

import core.clock
from cli.main import run
from core.errors import ERROR_KINDS

FIXTURE_STORE = Path(__file__).resolve().parents[2] / "fixtures" / "recorded" / "desktop.sqlite3"
DAY = "2026-11-29"   # the fixture store's day


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("kinds")
    shutil.copy(FIXTURE_STORE, tmp / "store.sqlite3")
    (tmp / "empty").write_bytes(b"")
    (tmp / "text.txt").write_text("not a database\n")
    (tmp / "not-aw.json").write_text('{"x": 1}')
    (tmp / "broken.toml").write_text("[capture\n")
    (tmp / "keep-a-day.toml").write_text("[retention]\nraw_days = 1\n")
    (tmp / "a-directory").mkdir()
    shutil.copy(FIXTURE_STORE, tmp / "future.sqlite3")
    future = apsw.Connection(str(tmp / "future.sqlite3"))
    future.pragma("user_version", 999)   # a store a newer Phantom wrote
    future.close()
    return tmp


@pytest.fixture(autouse=True)
def bare_environment(monkeypatch, workspace):
    """No display, no session bus (not even a socket under the runtime
    dir), a private home: a bare shell."""
    for key in ("DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS", "WAYLAND_DISPLAY", "PHANTOM_DEBUG"):
        monkeypatch.delenv(key, raising=False)
    for key in ("XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "HOME"):
        monkeypatch.setenv(key, str(workspace / "home" / key.lower()))
    monkeypatch.setenv("PHANTOM_DB", str(workspace / "store.sqlite3"))


def answer(argv: list[str], capsys) -> tuple[str, str]:
    """(the reported error's kind, its one line on stderr), after checking
    that the exit status is the one the table gives that kind."""
    capsys.readouterr()
    outcome = run(argv)
    err = capsys.readouterr().err
    assert outcome.error is not None, (argv, outcome, err)
    kind = outcome.error.code
    assert kind in ERROR_KINDS, (argv, kind)
    assert outcome.status == ERROR_KINDS[kind].exit_status, (argv, kind, outcome.status, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, (argv, err)
    return kind, lines[0]


def expand(table: dict[str, list[list[str]]], values: list[list[str]], kind: str, tmp: Path):
    """Every (argv, kind) of `values` given to each command of `table` (a
    command and the arguments it needs besides; W stands for the workspace)."""
    for command, needs in table.items():
        for value in values:
            argv = [command, *needs, *value]
            yield [word.replace("W/", f"{tmp}/") for word in argv], kind


# -- windows: every command that reads a stretch of time ----------------------------------------
WINDOW_COMMANDS = {
    "compile": [],
    "routines": [],
    "search": ["invoice"],
    "timeline": ["--out", "W/day.png"],
    "forget": ["--dry-run"],
    "export": [],
    "compile-program": ["sign up", "--routine", "r-1"],
}
BAD_WINDOWS = [
    ["--day", "notaday"], ["--day", "2026-02-30"], ["--day", "0001-01-01"], ["--day", "9999-12-31"],
    ["--since", "2026-11-29T25:00"], ["--since", "2026-11-29T10:00+99:00"], ["--since", "teatime"],
    ["--since", "today", "--until", "nope"], ["--since", "2026-11-29", "--until", "2026-11-28"],
    ["--since", "-99999999999h"], ["--day", DAY, "--tz", "Nope/Zone"], ["--day", DAY, "--tz", "Z" * 300],
    # digits other than 0-9, which Python's int() reads as digits
    ["--since", "２h"], ["--since", "٢ hours ago"], ["--since", "-2ｈ"], ["--since", "1٠:00"],
    ["--day", "２０２６-11-29"], ["--since", "2026-11-29T1٠:00"],
]
# -- stores: every command that reads or writes the store given by --db ------------------------
STORE_COMMANDS = {
    "compile": ["--day", DAY],
    "routines": [],
    "search": ["invoice"],
    "timeline": ["--out", "W/day.png"],
    "status": [],
    "forget": ["--day", DAY, "--dry-run"],
    "export": ["--day", DAY],
    "runs": [],
    "programs": [],
    "compile-program": ["sign up"],
    "replay": ["sign up", "--dry-run"],
    "shortcut": ["sign up"],
    "record": ["discard", "--yes"],
    "retention": ["run", "--config", "W/keep-a-day.toml"],
}
NO_STORES = [["--db", "W/nothere.sqlite3"], ["--db", "W/a-directory"], ["--db", "/dev/null"],
             ["--db", "W/empty"], ["--db", "W/text.txt"], ["--db", "W/future.sqlite3"]]
# -- numbers: each bounded flag, out of range, NaN, infinite or not a number -------------------
BAD_NUMBERS = [
    ["compile", "--day", DAY, "--budget", "99"], ["compile", "--day", DAY, "--budget", str(10 ** 30)],
    ["compile", "--day", DAY, "--budget", "nan"],
    ["routines", "--limit", "-1"], ["routines", "--limit", str(10 ** 30)], ["routines", "--limit", "٣x"],
    ["routines", "--expected-runs", "0"], ["routines", "--agent-tokens-per-step", "nan"],
    ["routines", "--agent-tokens-per-step", "-1"], ["routines", "--agent-tokens-per-step", "1e309"],
    ["routines", "--replay-tokens-per-step", "inf"], ["routines", "--compile-tokens", "nan"],
    ["routines", "--compile-tokens", "-5"], ["routines", "--compile-tokens", "1e308"],
    ["routines", "--agent-tokens-per-step", "1e300"], ["routines", "--replay-tokens-per-step", "1e300"],
    ["routines", "--limit", "٣"], ["routines", "--expected-runs", "１００"],
    ["compile", "--day", DAY, "--budget", "２０００"],
    ["search", "invoice", "--limit", str(10 ** 30)],
    ["search", "invoice", "--limit", "0"], ["runs", "--limit", "0"], ["runs", "--limit", str(10 ** 30)],
    ["replay-service", "--idle-timeout", "nan"], ["replay-service", "--idle-timeout", "0"],
    ["synth", "--days", "0", "--db", "W/new.sqlite3"], ["synth", "--days", "401", "--db", "W/new.sqlite3"],
    ["synth", "--days", "1", "--seed", "-1", "--db", "W/new.sqlite3"],
    ["synth", "--days", "1", "--seed", str(2 ** 63), "--db", "W/new.sqlite3"],
]
# -- the rest: zones, config files, sources, names, and no bus or display ------------------------
OTHER_CASES = [
    (["import", "W/not-aw.json", "--tz", "Nope/Zone"], "usage"),
    (["synth", "--days", "1", "--tz", "Nope/Zone", "--db", "W/new.sqlite3"], "usage"),
    (["synth", "--days", "1", "--start", "2026-02-30", "--db", "W/new.sqlite3"], "usage"),
    (["synth", "--days", "1"], "usage"),
    (["capture", "--config", "W/broken.toml"], "invalid_config"),
    (["capture", "--config", "W/nothere.toml"], "invalid_config"),
    (["retention", "run", "--config", "W/broken.toml"], "invalid_config"),
    (["retention", "run", "--config", "W/nothere.toml"], "invalid_config"),
    (["import", "W/not-aw.json", "--config", "W/broken.toml"], "invalid_config"),
    (["import", "W/not-aw.json", "--config", "W/nothere.toml"], "invalid_config"),
    (["import", "W/nothere"], "failed"), (["import", "W/a-directory"], "failed"),
    (["import", "/dev/null"], "failed"), (["import", "W/text.txt"], "failed"),
    (["import", "W/not-aw.json"], "failed"), (["import", "W/store.sqlite3"], "failed"),
    (["doctor", "--repair", "--db", "W/nothere.sqlite3"], "store_unavailable"),
    (["compile", "--day", DAY, "--out", "W/no-dir/day.txt"], "failed"),
    (["timeline", "--day", DAY, "--out", "W/no-dir/day.png"], "failed"),
    (["export", "--day", DAY, "--out", "W/no-dir/day.jsonl"], "failed"),
    (["timeline", "--day", DAY, "--out", "W/day.txt"], "usage"),
    (["search", "?!"], "usage"), (["search", ""], "usage"),
    (["record", "start", "a\tb"], "invalid_name"), (["record", "start", " "], "invalid_name"),
    (["compile-program", ""], "usage"), (["programs", "promote", ""], "usage"),
    (["programs", "promote", "no such"], "unknown_program"),
    (["programs", "deprecate", "no such"], "unknown_program"),
    (["programs", "describe", "no such", "what"], "unknown_program"),
    (["programs", "delete", "no such", "--yes"], "unknown_program"),
    (["replay", "no such", "--dry-run"], "unknown_program"), (["shortcut", "no such"], "unknown_program"),
    (["replay", "no such", "--param", "=", "--dry-run"], "invalid_parameter"),
    (["shortcut", "no such", "--param", "P0"], "invalid_parameter"),
    (["replay", "--intent", "", "--dry-run"], "invalid_intent"),
    (["replay", "--dry-run"], "usage"),
    (["forget", "--recording", "no such", "--yes"], "failed"),
    (["forget", "--day", DAY], "usage"),            # no terminal to ask on, and no --yes
    (["record", "start", "sign up"], "unavailable"), (["record", "stop"], "unavailable"),
    (["pause"], "unavailable"), (["resume"], "unavailable"), (["replay-service"], "unavailable"),
    (["capture"], "unavailable"), (["capture", "--display", ":987"], "unavailable"),
]


def cases(tmp: Path):
    yield from expand(WINDOW_COMMANDS, BAD_WINDOWS, "invalid_window", tmp)
    yield from expand(STORE_COMMANDS, NO_STORES, "store_unavailable", tmp)
    for argv in BAD_NUMBERS:
        yield [word.replace("W/", f"{tmp}/") for word in argv], "usage"
    for argv, kind in OTHER_CASES:
        yield [word.replace("W/", f"{tmp}/") for word in argv], kind


def test_every_command_reports_each_bad_input_as_its_one_kind(workspace, capsys):
    wrong = []
    seen = 0
    for argv, expected in cases(workspace):
        kind, line = answer(argv, capsys)
        seen += 1
        if kind != expected:
            wrong.append((argv[:6], expected, kind, line[:120]))
    assert not wrong, "\n".join(map(str, wrong))
    assert seen == len(WINDOW_COMMANDS) * len(BAD_WINDOWS) + len(STORE_COMMANDS) * len(NO_STORES) \
        + len(BAD_NUMBERS) + len(OTHER_CASES)


def test_one_bad_day_has_one_exit_status_in_every_command(workspace, capsys):
    statuses = {}
    for command, needs in WINDOW_COMMANDS.items():
        capsys.readouterr()
        argv = [command, *[w.replace("W/", f"{workspace}/") for w in needs], "--day", "notaday"]
        statuses[command] = run(argv).status
    assert set(statuses.values()) == {ERROR_KINDS["invalid_window"].exit_status}, statuses


# -- a damaged roll-up -------------------------------------------------------------------------
@pytest.fixture
def rolled_store(workspace, tmp_path, monkeypatch, capsys) -> Path:
    """The fixture store with its day rolled up by `phantom retention run`
    a week later (raw rows gone: the day compiles from its roll-up)."""
    store = tmp_path / "rolled.sqlite3"
    shutil.copy(FIXTURE_STORE, store)
    week_later = int(datetime(2026, 12, 6, 12, 0, tzinfo=timezone.utc).timestamp() * 1000)
    monkeypatch.setattr(core.clock, "now_ms", lambda: week_later)
    config = ["--config", str(workspace / "keep-a-day.toml")]
    assert run(["retention", "run", "--db", str(store), *config]).status == 0
    assert "rolled up 1 day(s), 2026-11-29" in capsys.readouterr().out
    assert run(["compile", "--db", str(store), "--day", DAY]).status == 0
    return store


def damage(store: Path, column: str, blob: bytes) -> None:
    connection = apsw.Connection(str(store))
    with connection:
        connection.execute(f"UPDATE rollup_days SET {column} = ?", (blob,))
    connection.close()


@pytest.mark.parametrize("column, blob", [
    ("document", b"\x0b\xad\xc0\xde"),                  # bytes that do not decompress
    ("document", zlib.compress(b"[1, 2]")),             # JSON, but not a document
    ("actions", zlib.compress(b"not json")),
])
def test_a_damaged_roll_up_is_store_damaged_in_one_line_naming_the_repair(rolled_store, column, blob,
                                                                           capsys):
    damage(rolled_store, column, blob)
    command = ["compile", "--day", DAY] if column == "document" else ["routines"]
    kind, line = answer([*command, "--db", str(rolled_store)], capsys)
    assert kind == "store_damaged", line
    assert "roll-up" in line and "phantom doctor --repair" in line and len(line) < 400, line


def test_a_damaged_roll_up_is_store_damaged_for_an_agent_too(rolled_store):
    import asyncio

    from mcp.server.mcpserver.exceptions import ToolError

    from mcp_bridge.server import build_server

    damage(rolled_store, "document", b"\x0b\xad\xc0\xde")
    server = build_server(rolled_store)
    with pytest.raises(ToolError) as raised:
        asyncio.run(server.call_tool("phantom_context", {"since": DAY, "until": "2026-11-30"}))
    message = str(raised.value)
    assert message.startswith("store_damaged: ") and "phantom doctor --repair" in message, message
    assert "\n" not in message


def test_doctor_repair_sets_a_damaged_roll_up_aside_and_the_day_compiles_again(rolled_store, capsys):
    """The hint leads somewhere: `doctor --repair` keeps a copy of the store,
    removes the roll-up that cannot be read and leaves a blind spot over its
    day, so compiling the day answers (saying why it is empty) instead of
    failing; a second repair finds nothing to do."""
    damage(rolled_store, "document", b"\x0b\xad\xc0\xde")
    capsys.readouterr()
    assert run(["doctor", "--repair", "--db", str(rolled_store)]).status == 0
    said = capsys.readouterr().out
    assert f"removed 1 unreadable roll-up(s) — {DAY}" in said, said
    copies = list(rolled_store.parent.glob(f"{rolled_store.name}.damaged-*"))
    assert len(copies) == 1
    kept = apsw.Connection(str(copies[0]))
    assert kept.execute("SELECT count(*) FROM rollup_days").fetchone()[0] == 1
    kept.close()
    assert run(["compile", "--db", str(rolled_store), "--day", DAY, "--format", "json"]).status == 0
    document = json.loads(capsys.readouterr().out)
    assert document["frames"] == []
    assert any(spot["kind"] == "capture_error" and "could not be read" in json.dumps(spot)
               for spot in document["blind_spots"]), document["blind_spots"]
    assert run(["doctor", "--repair", "--db", str(rolled_store)]).status == 0
    assert "nothing to repair" in capsys.readouterr().out


def test_a_store_of_a_newer_schema_is_refused_for_an_agent_too(workspace):
    import asyncio

    from mcp.server.mcpserver.exceptions import ToolError

    from mcp_bridge.server import build_server

    server = build_server(workspace / "future.sqlite3")
    with pytest.raises(ToolError) as raised:
        asyncio.run(server.call_tool("phantom_context", {"since": DAY, "until": "2026-11-30"}))
    message = str(raised.value)
    assert message.startswith("store_unavailable: ") and "schema version 999" in message, message
