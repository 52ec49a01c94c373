"""Errors a user can cause while compiling, storing or looking up programs.

Each carries a one-line message meant to be printed as is by the CLI, the
D-Bus service or the MCP bridge. `ProgramFormatError` (a stored body that
cannot be read) lives beside the records it guards, in `records.py`."""

from __future__ import annotations

from core.errors import PhantomError


class ProgramCompileError(PhantomError, ValueError):
    """The demonstrations cannot be compiled into a program (too few, empty,
    or nothing in common)."""

    code = "compile_failed"


class UnknownProgram(PhantomError, LookupError):
    """No stored program has that id or name."""

    code = "unknown_program"
