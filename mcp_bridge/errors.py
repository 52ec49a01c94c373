"""The bridge's one translation of Phantom's error family, made at its edge
(`server.PhantomServer.call_tool`, through `translated`): any `PhantomError`
a tool raises — and any SQLite error, as the store error it stands for —
reaches the agent as a tool error (`isError`) that starts with the error's
code, on one line, with nothing sent — never as a traceback or a protocol
failure. Whatever else the SDK reports (its argument validation, an
unexpected exception) is made one line too, at most `MAX_MESSAGE_CHARS` long
and without the rejected values (`plain`): an agent that sent a megabyte
does not get it back."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import apsw
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError

from core.errors import PhantomError, one_line, quoted
from core.store.errors import from_sqlite

F = TypeVar("F", bound=Callable[..., Any])
MAX_MESSAGE_CHARS = 500


def tool_error(exc: PhantomError) -> ToolError:
    return ToolError(clip(f"{exc.code}: {exc}"))


def translated(raised: ToolError, db: Any) -> ToolError:
    """What the agent reads for a failed call. The SDK raises every failure
    of a tool as a `ToolError` (`Error executing tool NAME…`) caused by what
    the tool raised: a PhantomError or an SQLite error becomes the tool error
    its kind says; a tool error the tool raised itself is its own message;
    a crash stays the SDK's generic line (its details go to the log)."""
    cause = raised.__cause__
    if isinstance(cause, PhantomError):
        return tool_error(cause)
    if isinstance(cause, apsw.Error):
        store_error = from_sqlite(cause, db)
        if store_error is not None:
            return tool_error(store_error)
    if isinstance(cause, ToolError) and not isinstance(raised, UnexpectedToolError):
        return plain(cause)
    return plain(raised)


def clip(text: str) -> str:
    """One line, at most MAX_MESSAGE_CHARS characters."""
    return one_line(text, MAX_MESSAGE_CHARS)


def plain(exc: ToolError) -> ToolError:
    """Any other error the SDK raises for a call, as the agent should read
    it: clipped to one line (arguments that fail a schema are
    `argument_error`'s)."""
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


def argument_error(tool: str, error: Any) -> ToolError:
    """A tool error for arguments that fail the tool's schema (a pydantic
    `ValidationError`): which argument, and what it must be — never the
    SDK's multi-line dump, which also echoes the caller's values."""
    problems = []
    for item in error.errors():
        name = ".".join(str(part) for part in item.get("loc", ())) or "arguments"
        if item.get("type") == "missing":
            problems.append(f"missing argument {name!r}")
        else:
            problems.append(f"argument {name!r}: {item.get('msg', 'not valid')}")
    message = " ".join(f"{tool}: {'; '.join(problems)}".split())
    return ToolError(f"usage: {message[:MAX_MESSAGE_CHARS]}")


def unknown_arguments(tool: str, arguments: dict[str, Any] | None, schema: dict[str, Any]) -> ToolError | None:
    """A call naming an argument the tool does not take is refused by name:
    `phantom_replay {"name": …}` would otherwise run with `program` unset
    and answer something else entirely ("give either program or intent")."""
    known = set(schema.get("properties") or {})
    unknown = sorted(set(arguments or {}) - known)
    if not unknown:
        return None
    names = ", ".join(repr(name[:40]) for name in unknown[:5]) + (" …" if len(unknown) > 5 else "")
    takes = ", ".join(sorted(known)) or "no arguments"
    return ToolError(clip(f"usage: {tool} takes no argument {names}; it takes {takes}"))


def reports_errors(function: F) -> F:
    """Wrap a tool's implementation so that its PhantomErrors become tool
    errors — and so do SQLite's own (damage, a full or read-only disk met
    mid-read), as the store error they stand for; the store is the tool's
    first argument. The server's edge does the same for every tool
    (`translated`), so this only makes the translation earlier; it gives the
    same message."""
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
    return wrapper  # type: ignore[return-value]  # functools.wraps keeps F's signature; mypy cannot see it
