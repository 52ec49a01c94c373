"""`phantom`: one command, many sub-commands. This module only parses and
dispatches; each sub-command lives in `phantom/commands/`. Every error a user
can cause ends here as one line on stderr and a non-zero exit."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from core.errors import PhantomError

from .errors import EXIT_USAGE, CliError

EXIT_INTERNAL = 70  # sysexits' EX_SOFTWARE


class _Parser(argparse.ArgumentParser):
    """argparse prints usage plus an error; we print one line and point at --help."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise CliError(f"{self.prog}: {message} (see `{self.prog} --help`)", EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    from .commands import (capture, compile, demo, doctor, forgetting, importing, install, mcp,
                           programs, record, replay, routines, service, synth)

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
    forgetting.add_parsers(sub, common)
    synth.add_parsers(sub, common)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if getattr(args, "handler", None) is None:
            parser.print_help()
            return EXIT_USAGE
        return int(args.handler(args) or 0)
    except PhantomError as exc:
        message = str(exc)
        print(message if message.startswith("phantom") else f"phantom: {message}", file=sys.stderr)
        return exc.kind.exit_status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1
    except Exception as exc:  # noqa: BLE001 - the promise: one line, never a traceback
        if os.environ.get("PHANTOM_DEBUG"):
            raise
        detail = " ".join(str(exc).split())[:200]
        print(f"phantom: internal error ({exc.__class__.__name__}: {detail}); this is a bug — "
              "run again with PHANTOM_DEBUG=1 for the traceback", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
