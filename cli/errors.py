"""The CLI's own errors (bad flags, a missing display) belong to the one
family in `core.errors`; `cli.main.main` prints every `PhantomError` as
one line on stderr and exits with its kind's status — never a traceback."""

from __future__ import annotations

import math

from core.errors import PhantomError, quoted

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2


class CliError(PhantomError):
    """An error found by the CLI itself; `exit_code` 2 marks a usage error."""

    def __init__(self, message: str, exit_code: int = EXIT_ERROR) -> None:
        super().__init__(message, code="usage" if exit_code == EXIT_USAGE else "failed")


def restated(error: PhantomError, message: str) -> PhantomError:
    """`error` in the command's own words: the message says more, the kind
    (and so the exit status) stays the library's."""
    return PhantomError(message, code=error.code)


def bounded(value: float, low: float, high: float, flag: str, command: str) -> float:
    """`value` when it is a finite number within [low, high]; else a usage
    error naming the flag, the bounds and the value (cut short)."""
    if isinstance(value, float) and not math.isfinite(value) or not low <= value <= high:
        raise CliError(f"phantom {command}: {flag} must be between {low:g} and {high:g} (got {quoted(value)})",
                       EXIT_USAGE)
    return value
