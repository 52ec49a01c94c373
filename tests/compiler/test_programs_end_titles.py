"""The title words a program expects at its end: the window's, not the
folder the demonstrations happened to save into."""

from __future__ import annotations

from test_programs_fixtures import act

from compiler.programs.build import compile_program
from compiler.programs.titles import end_words, place_words
from compiler.programs.traces import Trace, WindowSeen
from core.x11 import TopLevel
from replay.verify import _problem

GEDIT = "gedit"


def saved(origin: str, name: str, folder: str) -> Trace:
    """Ctrl+s in gedit, a name typed into the save dialog, Return."""
    actions = (act("key", "ctrl+s", ts=1, app=GEDIT),
               act("type", "Name", text=name, ts=2, app=GEDIT, role="text"),
               act("key", "Return", ts=3, app=GEDIT))
    return Trace(origin, actions, WindowSeen(GEDIT, "Untitled Document 1 - gedit"),
                 WindowSeen(GEDIT, f"{name} ({folder}) - gedit"))


def window(title: str) -> TopLevel:
    return TopLevel(1, 1, GEDIT, "gedit.Gedit", 10, title, 0, 0, 600, 400, False)


def test_the_words_of_a_folder_or_path_in_a_title_are_its_place():
    assert place_words("report.txt (~/demos/march) - gedit") == {"demos", "march"}
    assert place_words("/home/ada/notes.txt - Mousepad") == {"home", "ada", "notes.txt"}
    assert place_words("Untitled Document 1 - gedit") == frozenset()
    assert end_words(["a.txt (~/demos) - gedit", "b.txt (~/demos) - gedit"]) == ("gedit",)
    assert end_words(["Thank you - Sign up", "Thank you - Sign up"]) == ("Thank", "you", "Sign", "up")


def test_a_save_into_another_folder_than_the_demonstrations_is_the_end_they_reached():
    traces = (saved("recording:1", "march.txt", "~/demos"), saved("recording:2", "april.txt", "~/demos"))
    program = compile_program("save as", traces, source="demonstration").program
    end = program.end_state
    assert end is not None and end.title_tokens == ("gedit",) and end.title_parameters == ("P0",)
    assert _problem(end, {"P0": "may.txt"}, window("may.txt (~/elsewhere) - gedit"), []) is None
    assert "may.txt" in _problem(end, {"P0": "may.txt"}, window("june.txt (~/demos) - gedit"), [])
    assert "gedit" in _problem(end, {"P0": "may.txt"}, window("may.txt (~/elsewhere) - Notes"), [])
