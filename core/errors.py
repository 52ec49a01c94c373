"""One error family for every package, and the one table that says what each
kind of error becomes at each interface.

Library code raises a `PhantomError` (or a subclass) with a `code`; it never
knows whether a person at a terminal, a desktop shortcut or an agent is on
the other side. Each interface translates exactly once, through `ERROR_KINDS`:
the CLI prints the message as one line and exits with `exit_status`, the
D-Bus services answer `org.phantom.Error.<dbus_name>`, the MCP bridge returns
a tool error that starts with the code. Adding a kind of error is one row
here; no boundary grows another catch-tuple.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

DBUS_ERROR_PREFIX = "org.phantom.Error."
# Error messages quote the value that was wrong, but never more than this of
# it: a 1 MB argument must not come back as a 1 MB error.
MAX_QUOTED_CHARS = 80


class PhantomError(Exception):
    """A problem a person or an agent can act on. The message is written for
    them (it names the file, the value or the program, and what to do);
    `code` names the kind, which each interface maps through `ERROR_KINDS`."""

    code: ClassVar[str] = "failed"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            if code not in ERROR_KINDS:
                raise ValueError(f"unknown error code {code!r}")
            self.code = code  # type: ignore[misc]  # an instance may narrow its class's kind

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""

    def __str__(self) -> str:
        return self.message

    @property
    def kind(self) -> "ErrorKind":
        return ERROR_KINDS[self.code]


@dataclass(frozen=True, slots=True)
class ErrorKind:
    """What one kind of error is called and how each interface reports it."""

    code: str
    exit_status: int     # the CLI's exit code
    dbus_name: str       # org.phantom.Error.<dbus_name>
    meaning: str

    @property
    def dbus_error(self) -> str:
        return DBUS_ERROR_PREFIX + self.dbus_name


# Exit codes: 1 a failure the message explains, 2 a request the command cannot
# take as given, 3 a replay that escalated (a result, see replay/results.py),
# 4 a refusal (nothing was sent), 5 busy or in the way of something running.
ERROR_KINDS: dict[str, ErrorKind] = {kind.code: kind for kind in (
    ErrorKind("failed", 1, "Failed", "the operation failed; the message says why"),
    ErrorKind("usage", 2, "InvalidArguments", "arguments the command or method does not take"),
    ErrorKind("invalid_parameter", 2, "InvalidParameter", "a program parameter is missing, unknown or malformed"),
    ErrorKind("invalid_window", 2, "InvalidWindow", "a time window that cannot be read"),
    ErrorKind("invalid_name", 2, "InvalidName", "a recording or program name that cannot be used"),
    ErrorKind("invalid_config", 2, "InvalidConfig", "a settings file that cannot be read"),
    ErrorKind("unknown_program", 1, "UnknownProgram", "no stored program has that name or id"),
    ErrorKind("corrupt_program", 1, "CorruptProgram", "a stored program cannot be read"),
    ErrorKind("compile_failed", 1, "CompileFailed", "demonstrations or a routine could not become a program"),
    ErrorKind("store_unavailable", 1, "StoreUnavailable", "the store is missing, read-only, full or of another kind"),
    ErrorKind("store_damaged", 1, "StoreDamaged",
              "SQLite found the store damaged; `phantom doctor --repair` salvages it"),
    ErrorKind("unavailable", 1, "Unavailable", "the desktop, a bus or a service is not reachable"),
    ErrorKind("not_recording", 1, "NotRecording", "no demonstration is being recorded"),
    ErrorKind("already_recording", 5, "AlreadyRecording", "a demonstration is already being recorded"),
    ErrorKind("paused", 5, "Paused", "capture is paused"),
    ErrorKind("guard_mismatch", 4, "GuardMismatch", "the program's application or window is not on the screen"),
    ErrorKind("ambiguous_window", 4, "AmbiguousWindow", "several windows match the program; name one"),
    ErrorKind("busy", 5, "Busy", "another replay, or a recording, holds the desktop"),
    ErrorKind("window_busy", 4, "WindowBusy", "the program's window is busy with something else (a "
              "terminal's shell runs a job in the foreground)"),
    ErrorKind("escalated", 3, "Escalated", "the replay stopped at a step it could not do safely "
              "(ReplayChecked); the run says where and why"),
    ErrorKind("refused", 4, "Refused", "the replay was refused before it could act "
              "(ReplayChecked); the run says why"),
    ErrorKind("not_active", 4, "NotActive", "agents run only active programs; this one is not yet"),
    ErrorKind("quarantined", 4, "Quarantined", "the program failed twice in a row; a verified run the "
              "person starts brings it back"),
    ErrorKind("deprecated", 4, "Deprecated", "the program was retired or replaced"),
    ErrorKind("invalid_transition", 1, "InvalidTransition", "a lifecycle change the program's state "
              "does not allow"),
    ErrorKind("invalid_intent", 2, "InvalidIntent", "an intent that is empty, too long or not text"),
    ErrorKind("no_compatible_program", 4, "NoCompatibleProgram", "no active program fits the intent "
              "and the screen clearly enough"),
    ErrorKind("confirmation_required", 4, "ConfirmationRequired", "a request this wide (forgetting more "
              "than a day) is done only after the person confirms it"),
)}


def kind_of(code: str) -> ErrorKind:
    """The row for `code`; an unknown code reports as a plain failure."""
    return ERROR_KINDS.get(code, ERROR_KINDS["failed"])


def quoted(value: object, limit: int = MAX_QUOTED_CHARS) -> str:
    """`repr` of a bad value for an error message, cut to `limit` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def one_line(message: str, limit: int = 300) -> str:
    """An error as one line of at most `limit` characters, whatever values
    it quotes: control characters (line and record separators among them)
    are shown escaped, runs of blanks become one, and a long message is cut.
    The CLI, the D-Bus services and the MCP bridge all end with this."""
    text = "".join(char if char.isprintable() or char == " " else repr(char)[1:-1] for char in message)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"
