"""A program's steps in words, one line each — what an agent's program list
(MCP) and an exported skill show of a step. Parameters appear by name
(`$P0`), constants as the person typed them unless redacted, and a label
AT-SPI repeated ("4 4") once — the stored body keeps it as captured."""

from __future__ import annotations

from core.labels import once

from .records import ProgramStep

__all__ = ["step_outline"]

REDACTED = "a fixed value"


def step_outline(step: ProgramStep, *, redact_constants: bool = False) -> str:
    target = step.target
    what = ""
    if target is not None:
        what = f"{target.role} {once(target.display)!r}" if target.display else (target.role or target.path)
    if step.action == "switch":
        return f"switch to {step.app}"
    if step.action == "key":
        return f"key {step.key}"
    if step.action == "type":
        if step.parameter:
            value = f"${step.parameter}"
        else:
            value = f"<{REDACTED}>" if redact_constants else repr(step.text or "")
        return f"type {value} into {what or 'the focused field'}"
    return f"click {what or '(no target)'}"
