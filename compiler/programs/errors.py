"""The error a user can cause while compiling demonstrations or a routine
into a program. Its one-line message is meant to be printed as is by the
CLI, the D-Bus service or the MCP bridge. `ProgramFormatError` (a stored
body that cannot be read) lives beside the records it guards, in
`records.py`; the errors of stored programs (unknown, not runnable, a
refused transition) are program memory's, in `programs/errors.py`."""

from __future__ import annotations

from core.errors import PhantomError


class ProgramCompileError(PhantomError, ValueError):
    """The demonstrations cannot be compiled into a program (too few, empty,
    or nothing in common)."""

    code = "compile_failed"
