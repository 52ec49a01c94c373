"""Errors a user can cause while looking up, running or changing stored
programs. Each carries a one-line message meant to be printed as is by the
CLI, the D-Bus service or the MCP bridge, and a code from
`core.errors.ERROR_KINDS`."""

from __future__ import annotations

from core.errors import PhantomError


class UnknownProgram(PhantomError, LookupError):
    """No stored program has that id or name."""

    code = "unknown_program"


class ProgramNotRunnable(PhantomError, PermissionError):
    """The program's lifecycle state keeps this caller from running it
    (`not_active`, `quarantined` or `deprecated`); nothing was sent."""

    def __init__(self, message: str, *, state: str) -> None:
        code = {"candidate": "not_active", "quarantined": "quarantined", "deprecated": "deprecated"}[state]
        super().__init__(message, code=code)
        self.state = state


class TransitionRefused(PhantomError, ValueError):
    """A lifecycle change the program's state does not allow (promoting an
    active program, deprecating a deprecated one, promoting a quarantined one)."""

    code = "invalid_transition"
