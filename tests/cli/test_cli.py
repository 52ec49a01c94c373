"""The CLI's contract: every command documented, and every bad input a user
can type answered with one line on stderr and a non-zero exit."""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
from pathlib import Path

from cli.main import COMMANDS, build_parser, main

PHANTOM = str(Path(sys.executable).with_name("phantom"))


def run(*args: str, env: dict | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    full_env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "DBUS_SESSION_BUS_ADDRESS")}
    full_env.update(env or {})
    return subprocess.run([PHANTOM, *args], capture_output=True, text=True, env=full_env,
                          timeout=timeout)


def assert_one_line_error(result: subprocess.CompletedProcess, *fragments: str) -> None:
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def _commands(parser: argparse.ArgumentParser, prefix: str = "phantom"):
    """(full name, parser, help line) of every sub-command, nested ones too."""
    for action in parser._actions:  # noqa: SLF001 - argparse has no public API for this
        if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
            lines = {choice.dest: choice.help for choice in action._choices_actions}  # noqa: SLF001
            for name, sub in action.choices.items():
                yield f"{prefix} {name}", sub, lines.get(name)
                yield from _commands(sub, f"{prefix} {name}")


def test_every_command_has_a_help_line_and_a_description():
    """`phantom --help` lists each with a line, and `phantom CMD --help`
    says what it does (resume, uninstall and record start/stop had none)."""
    found = list(_commands(build_parser()))
    assert {name for name, _, _ in found} >= {f"phantom {name}" for name in COMMANDS}
    missing = [name for name, sub, line in found if not (sub.description and line)]
    assert missing == []


def test_the_command_table_names_what_each_module_defines():
    """`phantom CMD` imports only COMMANDS[CMD]'s module: the table must say
    exactly which commands each module adds, or a command would vanish."""
    for module in dict.fromkeys(COMMANDS.values()):
        sub = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(f"cli.commands.{module}").add_parsers(
            sub, argparse.ArgumentParser(add_help=False))
        assert set(sub.choices) == {name for name, owner in COMMANDS.items() if owner == module}, module


def test_each_command_parses_with_only_its_own_module():
    full = build_parser()._subparsers._group_actions[0].choices  # noqa: SLF001
    for name in COMMANDS:
        alone = build_parser([name])._subparsers._group_actions[0].choices  # noqa: SLF001
        assert name in alone
        assert alone[name].format_help() == full[name].format_help(), name


def test_compile_imports_nothing_display_bus_or_model_bound(tmp_path):
    """`phantom compile` as a whole process, as an agent hook runs it."""
    script = ("import sys\n"
              "from cli.main import main\n"
              "status = main(sys.argv[1:])\n"
              "heavy = {'asyncio', 'dbus_fast', 'mcp', 'torch', 'PIL', 'Xlib', 'pynput', 'gi', "
              "'sentence_transformers'}\n"
              "print(sorted(heavy & {name.split('.')[0] for name in sys.modules}), status)\n")
    store = Path(__file__).resolve().parents[2] / "fixtures" / "synthetic" / "day.sqlite3"
    for extra in ((), ("--no-cache",), ("--format", "json")):
        result = subprocess.run([sys.executable, "-c", script, "compile", "--db", str(store), "--day",
                                 "2026-03-02", "--out", str(tmp_path / "out.txt"), *extra],
                                capture_output=True, text=True, timeout=120,
                                env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")})
        assert result.stdout.strip() == "[] 0", (extra, result.stdout, result.stderr)


def test_no_display_is_one_clear_line(tmp_path):
    assert_one_line_error(run("capture", "--db", str(tmp_path / "s.sqlite3")), "DISPLAY is not set")


def test_unreachable_display_is_one_clear_line(tmp_path):
    result = run("capture", "--db", str(tmp_path / "s.sqlite3"), env={"DISPLAY": ":97"})
    assert_one_line_error(result, "cannot connect to X display :97")


def test_malformed_config_names_the_line(desktop, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[capture]\nheartbeat_seconds = 30\nscreenshots = maybe\n")
    result = run("capture", "--db", str(tmp_path / "s.sqlite3"), "--config", str(config),
                 env=desktop.env)
    assert_one_line_error(result, "config.toml", "line 3")


def test_corrupt_and_wrong_database_paths(desktop, tmp_path):
    corrupt = tmp_path / "corrupt.sqlite3"
    corrupt.write_bytes(b"garbage" * 1000)
    assert_one_line_error(run("capture", "--db", str(corrupt), env=desktop.env),
                          "not a readable SQLite database")
    assert_one_line_error(run("capture", "--db", str(tmp_path), env=desktop.env), "directory")
    assert_one_line_error(run("status", "--db", str(tmp_path / "missing.sqlite3")),
                          "not running", "no database")
    assert_one_line_error(run("status", "--db", str(corrupt)), "not a readable SQLite database")


def test_usage_errors_are_one_line():
    assert_one_line_error(run("no-such-command"), "invalid choice")
    assert_one_line_error(run("status", "--format", "yaml"), "invalid choice")
    assert_one_line_error(run("pause"), "capture daemon not reachable")


def test_main_returns_exit_codes_without_exiting(capsys):
    assert main(["status", "--format", "nope"]) == 2
    assert "see `phantom status --help`" in capsys.readouterr().err
