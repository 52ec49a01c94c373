"""`phantom`: one command, many sub-commands. This module only parses and
dispatches; each sub-command lives in `phantom/commands/`. Every error a user
can cause ends here as one line on stderr and a non-zero exit."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from core.errors import PhantomError, one_line

from .errors import EXIT_USAGE, CliError

EXIT_INTERNAL = 70  # sysexits' EX_SOFTWARE


class _Parser(argparse.ArgumentParser):
    """argparse prints usage plus an error; we print one line and point at --help."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise CliError(f"{self.prog}: {message} (see `{self.prog} --help`)", EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    from .commands import (capture, compile, demo, doctor, importing, install, mcp, programs,
                           record, replay, routines, service, synth)

    parser = _Parser(prog="phantom", description="Phantom: local-first desktop memory and "
                     "routine replay for X11. Capture what you do, compile it into deterministic "
                     "activity frames for agents, and replay the routines you repeat.")
    common = _Parser(add_help=False)
    common.add_argument("--db", type=Path, help="store path (default: $PHANTOM_DB or "
                        "$XDG_DATA_HOME/phantom/phantom.sqlite3)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    capture.add_parsers(sub, common)
    compile.add_parsers(sub, common)
    routines.add_parsers(sub, common)
    record.add_parsers(sub, common)
    programs.add_parsers(sub, common)
    replay.add_parsers(sub, common)
    service.add_parsers(sub, common)
    mcp.add_parsers(sub, common)
    install.add_parsers(sub, common)
    demo.add_parsers(sub, common)
    doctor.add_parsers(sub, common)
    importing.add_parsers(sub, common)
    synth.add_parsers(sub, common)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = None
    try:
        args = parser.parse_args(argv)
        if getattr(args, "handler", None) is None:
            parser.print_help()
            return EXIT_USAGE
        return int(args.handler(args) or 0)
    except PhantomError as exc:
        message = one_line(str(exc))
        print(message if message.startswith("phantom") else f"phantom: {message}", file=sys.stderr)
        return exc.kind.exit_status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1
    except Exception as exc:  # noqa: BLE001 - the promise: one line, never a traceback
        store_error = _store_error(exc, args)
        if store_error is not None:   # damage, a full or read-only disk met mid-command
            print(f"phantom: {one_line(str(store_error))}", file=sys.stderr)
            return store_error.kind.exit_status
        if os.environ.get("PHANTOM_DEBUG"):
            raise
        detail = one_line(str(exc), 200)
        print(f"phantom: internal error ({exc.__class__.__name__}: {detail}); this is a bug — "
              "run again with PHANTOM_DEBUG=1 for the traceback", file=sys.stderr)
        return EXIT_INTERNAL


def _store_error(exc: Exception, args) -> PhantomError | None:
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
