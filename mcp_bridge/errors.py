"""The bridge's one translation of Phantom's error family: any
`PhantomError` a tool raises reaches the agent as a tool error (`isError`)
that starts with the error's code, on one line, with nothing sent — never
as a traceback or a protocol failure."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from mcp.server.mcpserver.exceptions import ToolError

from core.errors import PhantomError

F = TypeVar("F", bound=Callable[..., Any])
MAX_MESSAGE_CHARS = 500


def tool_error(exc: PhantomError) -> ToolError:
    message = " ".join(str(exc).split())
    if len(message) > MAX_MESSAGE_CHARS:
        message = message[:MAX_MESSAGE_CHARS - 1] + "…"
    return ToolError(f"{exc.code}: {message}")


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


def reports_errors(function: F) -> F:
    """Wrap a tool's implementation so that its PhantomErrors become tool errors."""
    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except PhantomError as exc:
            raise tool_error(exc) from None
    return wrapper  # type: ignore[return-value]
