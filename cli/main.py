"""`phantom`: one command, many sub-commands. This module only parses and
dispatches; each sub-command lives in `cli/commands/`. Every error a user
can cause ends here as one line on stderr and a non-zero exit.

Only the module of the command being run is imported: `phantom compile`
must not pay for the capture daemon's asyncio, the replay engine or the MCP
SDK (an agent hook runs it as a whole process, so every import counts). The
full parser, every module, is built only when no known command was named:
for `phantom --help`, a bare `phantom` or a mistyped command."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from core.errors import PhantomError, one_line

from .errors import EXIT_USAGE, CliError

EXIT_INTERNAL = 70  # sysexits' EX_SOFTWARE


class _Parser(argparse.ArgumentParser):
    """argparse prints usage plus an error; we print one line and point at --help."""

    def error(self, message: str) -> NoReturn:
        raise CliError(f"{self.prog}: {message} (see `{self.prog} --help`)", EXIT_USAGE)


# Which module of cli/commands/ defines each sub-command, in the order
# `phantom --help` lists them (a module's commands stay together).
COMMANDS: dict[str, str] = {
    "capture": "capture", "status": "capture", "pause": "capture", "resume": "capture",
    "compile": "compile",
    "routines": "routines",
    "record": "record",
    "compile-program": "programs", "programs": "programs",
    "replay": "replay", "runs": "replay",
    "replay-service": "service", "shortcut": "service",
    "mcp": "mcp",
    "web": "web",
    "install": "install", "uninstall": "install",
    "demo": "demo",
    "doctor": "doctor",
    "import": "importing",
    "forget": "forgetting", "export": "forgetting",
    "search": "search",
    "timeline": "timeline",
    "retention": "retention",
    "synth": "synth",
}


def command_modules(argv: list[str] | None = None) -> tuple[str, ...]:
    """The modules whose parsers `argv` needs: the named command's alone, or
    all of them when `argv` is None or names no known command."""
    if argv and argv[0] in COMMANDS:
        return (COMMANDS[argv[0]],)
    return tuple(dict.fromkeys(COMMANDS.values()))


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser `argv` needs (see `command_modules`); the full one when
    `argv` is None."""
    parser = _Parser(prog="phantom", description="Phantom: local-first desktop memory and "
                     "routine replay for X11. Capture what you do, compile it into deterministic "
                     "activity frames for agents, and replay the routines you repeat.")
    common = _Parser(add_help=False)
    common.add_argument("--db", type=Path, help="store path (default: $PHANTOM_DB or "
                        "$XDG_DATA_HOME/phantom/phantom.sqlite3)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in command_modules(argv):
        importlib.import_module(f"{__package__}.commands.{module}").add_parsers(sub, common)
    return parser


# Options whose value may start with a dash: `--since -2h` must not read
# "-2h" as an option (argparse does so for anything but a plain number).
DASHED_VALUES = ("--since", "--until")


def _attach_dashed_values(argv: list[str]) -> list[str]:
    """`--since -2h` → `--since=-2h`; everything else unchanged."""
    out: list[str] = []
    index = 0
    while index < len(argv):
        word = argv[index]
        following = argv[index + 1] if index + 1 < len(argv) else ""
        if word in DASHED_VALUES and following[:1] == "-" and following[1:2].isdigit():
            out.append(f"{word}={following}")
            index += 2
            continue
        out.append(word)
        index += 1
    return out


@dataclass(frozen=True, slots=True)
class Outcome:
    """How one command ended: its exit status, and the error it reported
    (None for a result: success, or a replay that escalated or was refused)."""

    status: int
    error: PhantomError | None = None


def main(argv: list[str] | None = None) -> int:
    return run(argv).status


def run(argv: list[str] | None = None) -> Outcome:
    """Run one command; every error ends here as one line on stderr."""
    argv = _attach_dashed_values(sys.argv[1:] if argv is None else list(argv))
    parser = build_parser(argv)
    args = None
    try:
        args = parser.parse_args(argv)
        if getattr(args, "handler", None) is None:
            parser.print_help()
            return Outcome(EXIT_USAGE)
        return Outcome(int(args.handler(args) or 0))
    except PhantomError as exc:
        return _report(exc)
    except KeyboardInterrupt:
        return Outcome(130)
    except BrokenPipeError:
        return Outcome(1)
    except Exception as exc:  # noqa: BLE001 - the promise: one line, never a traceback
        store_error = _store_error(exc, args)
        if store_error is not None:   # damage, a full or read-only disk met mid-command
            return _report(store_error)
        if os.environ.get("PHANTOM_DEBUG"):
            raise
        detail = one_line(str(exc), 200)
        print(f"phantom: internal error ({exc.__class__.__name__}: {detail}); this is a bug — "
              "run again with PHANTOM_DEBUG=1 for the traceback", file=sys.stderr)
        return Outcome(EXIT_INTERNAL)


def _report(error: PhantomError) -> Outcome:
    message = one_line(str(error))
    print(message if message.startswith("phantom") else f"phantom: {message}", file=sys.stderr)
    return Outcome(error.kind.exit_status, error)


def _store_error(exc: Exception, args: argparse.Namespace | None) -> PhantomError | None:
    """The store error an SQLite exception stands for, naming the store the
    command was given (None when it is not one a person can act on)."""
    from core.store.errors import from_sqlite
    from core.store.paths import resolve_db_path

    try:
        db = resolve_db_path(getattr(args, "db", None))
    except Exception:  # noqa: BLE001 - no usable path: name the store generically
        db = None
    return from_sqlite(exc, db)


if __name__ == "__main__":
    sys.exit(main())
