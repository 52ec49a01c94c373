"""The bridge's one translation of Phantom's error family: any
`PhantomError` a tool raises reaches the agent as a tool error (`isError`)
that starts with the error's code, on one line, with nothing sent — never
as a traceback or a protocol failure. Whatever else the SDK reports (its
argument validation, an unexpected exception) is made one line too, at
most `MAX_MESSAGE_CHARS` long and without the rejected values
(`plain`): an agent that sent a megabyte does not get it back."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import apsw
from mcp.server.mcpserver.exceptions import ToolError

from core.errors import PhantomError, one_line, quoted
from core.store.errors import from_sqlite

F = TypeVar("F", bound=Callable[..., Any])
MAX_MESSAGE_CHARS = 500


def tool_error(exc: PhantomError) -> ToolError:
    return ToolError(clip(f"{exc.code}: {exc}"))


def clip(text: str) -> str:
    """One line, at most MAX_MESSAGE_CHARS characters."""
    return one_line(text, MAX_MESSAGE_CHARS)


def plain(exc: ToolError) -> ToolError:
    """The SDK's error for a call, as the agent should read it: argument
    validation as the fields and what each needs (never the values), the
    rest clipped to one line."""
    from pydantic import ValidationError

    cause = exc.__cause__
    if isinstance(cause, ValidationError):
        problems = "; ".join(f"{'.'.join(str(part) for part in error['loc']) or 'arguments'}: {error['msg']}"
                             for error in cause.errors(include_input=False, include_url=False))
        message = clip(f"usage: invalid arguments ({problems})")
    else:
        message = clip(str(exc))
    return type(exc)(message) if type(exc).__init__ is ToolError.__init__ else ToolError(message)


def check_text(value: str, what: str, *, max_chars: int = 200, allow: str = "") -> str:
    """Refuse text no desktop, name or bus can carry: control characters
    (a NUL cannot even travel in a D-Bus string) other than those in
    `allow`, or more than `max_chars` characters."""
    if len(value) > max_chars:
        raise PhantomError(f"{what} is {len(value)} characters long; at most {max_chars}", code="usage")
    for index, char in enumerate(value):
        if (ord(char) < 32 or ord(char) == 127) and char not in allow:
            raise PhantomError(f"{what} {quoted(value)} holds a control character (U+{ord(char):04X} at "
                               f"position {index}); names and values are printable text", code="usage")
    return value


def reports_errors(function: F) -> F:
    """Wrap a tool's implementation so that its PhantomErrors become tool
    errors — and so do SQLite's own (damage, a full or read-only disk met
    mid-read), as the store error they stand for; the store is the tool's
    first argument."""
    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except PhantomError as exc:
            raise tool_error(exc) from None
        except apsw.Error as exc:
            store_error = from_sqlite(exc, args[0] if args else None)
            if store_error is None:
                raise
            raise tool_error(store_error) from None
    return wrapper  # type: ignore[return-value]
