"""The demo's scripted work session: forms, notes and browsing, with the form
filled several times so a routine is there to be found."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from testbed.scripted_user import ScriptedUser

PEOPLE = (("Ada Lovelace", "ada@example.org"), ("Alan Turing", "alan@example.org"),
          ("Grace Hopper", "grace@example.org"), ("Edsger Dijkstra", "edsger@example.org"))
PAGES = ("https://github.com/phantom-desktop/phantom/pull/42",
         "https://www.google.com/search?q=at-spi+hit+test",
         "https://docs.python.org/3/library/asyncio.html")
NOTES = ("Standup notes", "Replay ideas")


class PhantomCommand(Protocol):
    """Runs `phantom` with these arguments on the demo's desktop."""

    def __call__(self, *args: str) -> object: ...


@dataclass(frozen=True, slots=True)
class SessionLog:
    """What the scripted user did, to compare with what was captured."""

    keys: int
    clicks: int
    form_fills: int


def work_session(user: ScriptedUser) -> SessionLog:
    """Interleave the scenes so each form fill is preceded by something else."""
    scenes: list[Callable[[], None]] = [
        lambda: user.fill_form(*PEOPLE[0]),
        lambda: user.browse(PAGES[0]),
        lambda: user.fill_form(*PEOPLE[1]),
        lambda: user.write_note(NOTES[0]),
        lambda: user.fill_form(*PEOPLE[2]),
        lambda: user.browse(PAGES[1]),
        lambda: user.fill_form(*PEOPLE[3]),
        lambda: user.write_note(NOTES[1]),
        lambda: user.browse(PAGES[2]),
    ]
    for scene in scenes:
        scene()
    return SessionLog(user.keys, user.clicks, form_fills=4)


SIGN_UPS = (("Barbara Liskov", "barbara@example.org"), ("Donald Knuth", "don@example.org"))


def record_demonstrations(user: ScriptedUser, phantom: PhantomCommand) -> list[str]:
    """Two explicit demonstrations of the sign-up form under one name, with
    different values, so the compiler finds two parameters."""
    names = []
    for name, email in SIGN_UPS:
        user.focus("phantom-form")
        phantom("record", "start", "sign up")
        user.fill_form(name, email)
        phantom("record", "stop")
        user.click("phantom-form", "push button", name="Clear")
        names.append(name)
    return names
