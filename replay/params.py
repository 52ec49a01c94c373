"""Binding parameter values to a program, before any input is sent: only
declared parameters, all of them, and only strings (EchoPath's flexible
inputs: fixed fields stay fixed)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from compiler.programs.records import Program
from core.errors import PhantomError, quoted

MAX_VALUE_CHARS = 10_000


class ParameterError(PhantomError, ValueError):
    """A parameter set that cannot be bound; nothing was sent."""

    code = "invalid_parameter"

    def __init__(self, message: str, name: str | None = None) -> None:
        super().__init__(message)
        self.name = name


def bind(program: Program, supplied: Mapping[str, object]) -> dict[str, str]:
    declared = {parameter.name: parameter for parameter in program.parameters}
    unknown = sorted(set(supplied) - set(declared))
    if unknown:
        allowed = ", ".join(sorted(declared)) or "none"
        raise ParameterError(f"{program.name} has no parameter {', '.join(quoted(name) for name in unknown[:3])} "
                             f"(declared: {allowed})", unknown[0])
    bound: dict[str, str] = {}
    for name, parameter in sorted(declared.items()):
        if name not in supplied:
            raise ParameterError(f"missing {name} (the {parameter.field or 'text'} field: "
                                 f"{describe_shape(shape_of(parameter.samples))})", name)
        value = supplied[name]
        if not isinstance(value, str):
            raise ParameterError(f"{name} must be a string, not {type(value).__name__}", name)
        if len(value) > MAX_VALUE_CHARS:
            raise ParameterError(f"{name} is longer than {MAX_VALUE_CHARS} characters", name)
        if any(ord(c) < 32 and c not in "\t\n" for c in value):
            raise ParameterError(f"{name} contains control characters", name)
        bound[name] = value
    return bound


def parse_assignments(items: list[str]) -> dict[str, str]:
    """`P0=Ada Lovelace` pairs from the command line."""
    values: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise ParameterError(f"expected NAME=VALUE, got {quoted(item)}")
        if name in values:
            raise ParameterError(f"{quoted(name)} given twice", name)
        values[name] = value
    return values


def shape_of(samples: tuple[str, ...]) -> dict[str, Any]:
    """What the recorded values of a field looked like, never what they
    were: the kinds of characters in them and the range of their lengths
    (an agent learns that a field took "letters and a space, 11–12
    characters", not the names a person typed)."""
    classes = []
    for kind, test in (("letters", str.isalpha), ("digits", str.isdigit), ("spaces", str.isspace)):
        if any(test(c) for value in samples for c in value):
            classes.append(kind)
    symbols = sorted({c for value in samples for c in value if not (c.isalnum() or c.isspace())})
    lengths = [len(value) for value in samples]
    return {"classes": classes, "symbols": "".join(symbols),
            "length": [min(lengths), max(lengths)] if lengths else None}


def describe_shape(shape: dict[str, Any]) -> str:
    """A shape in words, for error messages."""
    kinds = list(shape["classes"]) + ([f"the symbols {shape['symbols']}"] if shape["symbols"] else [])
    if shape["length"] is None:
        return "no recorded values"
    low, high = shape["length"]
    span = f"{low} characters" if low == high else f"{low}–{high} characters"
    return f"{', '.join(kinds) or 'empty'}; {span} when recorded"
