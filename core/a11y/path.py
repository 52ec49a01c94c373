"""Accessibility paths: `App/role[@name='…']/…/role[@label='…'][2]`.

A path names an element by the roles and names of its ancestors, so it
survives the window moving or resizing and can be resolved against a live
tree at replay time. The capturer writes paths, the compiler keeps them in
programs, replay parses and resolves them; this module is the one place the
notation is defined.

Each segment is a role, then `[@name='…']` when the element has an accessible
name, or `[@label='…']` when it has none but is labelled by another element
(a GTK entry and its label), then `[n]` (1-based) only when siblings share the
same role and name, to tell them apart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_NAME_CHARS = 80


@dataclass(frozen=True, slots=True)
class Segment:
    """One step of a path."""

    role: str
    name: str = ""
    label: str = ""
    index: int | None = None  # 1-based among same-role, same-name siblings

    def render(self) -> str:
        text = self.role
        if self.name:
            text += f"[@name='{_escape(self.name)}']"
        elif self.label:
            text += f"[@label='{_escape(self.label)}']"
        if self.index is not None:
            text += f"[{self.index}]"
        return text

    @property
    def identity(self) -> tuple[str, str, str]:
        """What siblings are compared on to decide whether an index is needed."""
        return self.role, self.name, self.label


def clip_name(name: str | None) -> str:
    """Names are single-line and bounded in paths (and in element rows)."""
    flat = " ".join((name or "").split())
    return flat if len(flat) <= MAX_NAME_CHARS else flat[: MAX_NAME_CHARS - 1] + "…"


def join(app: str, segments: list[Segment] | tuple[Segment, ...]) -> str:
    return "/".join([_escape_app(app), *(segment.render() for segment in segments)])


def number_siblings(segments: list[Segment]) -> list[Segment]:
    """Give an index to siblings that share role and name, in order."""
    counts: dict[tuple[str, str, str], int] = {}
    for segment in segments:
        counts[segment.identity] = counts.get(segment.identity, 0) + 1
    seen: dict[tuple[str, str, str], int] = {}
    numbered = []
    for segment in segments:
        if counts[segment.identity] > 1:
            seen[segment.identity] = seen.get(segment.identity, 0) + 1
            segment = Segment(segment.role, segment.name, segment.label, seen[segment.identity])
        numbered.append(segment)
    return numbered


_SEGMENT = re.compile(
    r"(?P<role>[a-z0-9 _-]+)"
    r"(?:\[@(?P<kind>name|label)='(?P<value>(?:[^'\\]|\\.)*)'\])?"
    r"(?:\[(?P<index>\d+)\])?$")


class PathError(ValueError):
    """A string that is not an accessibility path."""


def parse(path: str) -> tuple[str, tuple[Segment, ...]]:
    """Split a path into its application name and segments."""
    parts = _split(path)
    if len(parts) < 2:
        raise PathError(f"not an accessibility path (needs App/role…): {path!r}")
    app, rest = _unescape(parts[0]), parts[1:]
    segments = []
    for part in rest:
        match = _SEGMENT.match(part)
        if not match:
            raise PathError(f"bad path segment {part!r} in {path!r}")
        value = _unescape(match.group("value") or "")
        index = int(match.group("index")) if match.group("index") else None
        if match.group("kind") == "name":
            segments.append(Segment(match.group("role"), name=value, index=index))
        else:
            segments.append(Segment(match.group("role"), label=value, index=index))
    return app, tuple(segments)


def _split(path: str) -> list[str]:
    """Split on '/' outside quoted names. A quote opens only right after
    `=`; backslash escapes the next character everywhere."""
    parts, current, quoted, escaped = [], [], False, False
    for char in path:
        if escaped:
            current.append(char)
            escaped = False
        elif char == "\\":
            current.append(char)
            escaped = True
        elif char == "'" and (quoted or (current and current[-1] == "=")):
            current.append(char)
            quoted = not quoted
        elif char == "/" and not quoted:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return parts


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("'", "\\'")


def _escape_app(value: str) -> str:
    return value.replace("\\", "\\\\").replace("/", "\\/").replace("'", "\\'")


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)
