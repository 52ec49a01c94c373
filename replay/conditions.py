"""Postconditions (phantom.md §4.5): after a step and the settle time, the
state the recording showed must hold — the target has focus, the field holds
the text, or an element with the expected role and label is present."""

from __future__ import annotations

from compiler.programs.records import Condition

from . import live


def check(condition: Condition, element: live.LiveElement | None, view: live.TreeView,
          typed: str | None = None) -> tuple[bool, str]:
    if condition.kind == "none":
        return True, "no postcondition"
    expect = condition.expect
    if expect == "focus":
        if element is None:
            return False, "no element to check focus on"
        return ("focused" in element.states(),
                f"'{element.display}' {'has' if 'focused' in element.states() else 'lacks'} focus")
    if expect == "value":
        if element is None or typed is None:
            return False, "no field or value to check"
        try:
            text = live.full_text(element.accessible.queryText())
        except NotImplementedError:
            return False, f"'{element.display}' exposes no text"
        if element.role == "password text":  # masked: compare lengths only
            return len(text) == len(typed), "masked field holds a value of the typed length"
        return typed in text, f"'{element.display}' {'holds' if typed in text else 'does not hold'} the text"
    if expect == "role_present":
        present = any(e.display.casefold() == condition.label.casefold()
                      for e in live.candidates(view, condition.role))
        return present, f"{condition.role} '{condition.label}' {'present' if present else 'absent'}"
    return False, f"unknown expectation {expect!r}"

