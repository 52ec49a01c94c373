"""The CLI boundary's error type: library errors become a `CliError` here and
are printed as one line on stderr with a non-zero exit — never a traceback."""

from __future__ import annotations

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2


class CliError(Exception):
    def __init__(self, message: str, exit_code: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.exit_code = exit_code
