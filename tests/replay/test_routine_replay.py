"""A routine the capture mined from everyday use — no recording, windows
switched by clicking into them — compiles into a program that replays.

Four rounds of the same chore: write a line in another application, then
click into the (unfocused) sign-up form, fill it and submit. The other
application alternates between mousepad and gtk3-widget-factory, so only the
form part recurs often enough to be a routine. Each first click into the
form lands before focus moves; the capture must still credit it to the form
(the receiving window), or the mined routine would start in the wrong app
and its program would fail at that click.
"""

from __future__ import annotations

import json

import pytest
from test_replay_trust import click_into, form_fields, launch_factory, launch_form

from support.apps import app_by_pid, find, text_of
from support.cli import phantom
from support.daemon import CaptureProcess, settle
from testbed.executables import executable

pytestmark = pytest.mark.desktop

ROUNDS = (("Ada Lovelace", "ada@example.org"), ("Alan Turing", "alan@example.org"),
          ("Grace Hopper", "grace@example.org"), ("Edsger Dijkstra", "edsger@example.org"))


@pytest.fixture(scope="module")
def user(managed_desktop):
    from replay.xinput import XTestInput

    scripted = XTestInput(managed_desktop.display)
    yield scripted
    scripted.close()


def fill(user, form, name: str, email: str) -> None:
    for label, value in (("Name:", name), ("Email:", email)):
        click_into(user, form, "text", label=label)
        user.key("ctrl+a")
        user.type(value)
    click_into(user, form, "push button", name="Submit")
    settle(0.6)


def test_a_routine_mined_from_clicks_into_unfocused_windows_replays(managed_desktop, user, tmp_path):
    desktop = managed_desktop
    document = tmp_path / "notes.txt"
    document.write_text("notes\n")
    editor = desktop.launch([executable("mousepad"), str(document)], name="mousepad")
    window = desktop.wait_for_window("mousepad", timeout=30, pid=editor.pid)
    desktop.place_window(window, 40, 330, 360, 300)    # below the form, beside the factory
    factory = launch_factory(desktop)
    process, form = launch_form(desktop, "--title", "Form")
    db = tmp_path / "store.sqlite3"
    try:
        settle(1.5)
        notes, gallery = app_by_pid(editor.pid), app_by_pid(factory.pid)
        with CaptureProcess(desktop, db) as capture:
            settle(1.0)
            for number, (name, email) in enumerate(ROUNDS):
                if number % 2 == 0:
                    click_into(user, notes, "text")
                    user.type(f"round {number}\n")
                else:
                    click_into(user, gallery, "text")
                    user.key("ctrl+a")
                    user.type(f"round {number}")
                fill(user, form, name, email)      # ctrl+a: each round replaces the last one's values
                settle(1.0)
            assert capture.stop() == 0

        listed = phantom(desktop, "routines", "--db", str(db), "--format", "json", "--limit", "0")
        assert listed.returncode == 0, listed.stderr
        routines = json.loads(listed.stdout)["routines"]
        on_form = [r for r in routines
                   if {s["app"] for s in r["steps"] if s["kind"] != "switch"} == {"phantom-form"}
                   and [s["kind"] for s in r["steps"]].count("type") == 2]
        assert on_form, [(r["measures"]["support"], [(s["kind"], s["app"][:5]) for s in r["steps"]])
                         for r in routines if "phantom-form" in {s["app"] for s in r["steps"]}]
        routine = max(on_form, key=lambda r: len(r["steps"]))
        assert routine["measures"]["support"] == len(ROUNDS), routine["label"]
        assert [s["kind"] for s in routine["steps"] if s["kind"] != "switch"][0] == "click"

        compiled = phantom(desktop, "compile-program", "sign up daily", "--routine", routine["id"],
                           "--db", str(db), "--format", "json")
        assert compiled.returncode == 0, compiled.stderr
        program = json.loads(compiled.stdout)["program"]
        assert program["guard"]["app"] == "phantom-form"
        typed = [p["name"] for p in program["parameters"]]
        assert [s["text"] for s in program["steps"] if s["action"] == "type"] == [f"${p}" for p in typed]
        assert program["steps"][-1]["target"]["name"] == "Submit"

        click_into(user, gallery, "text")            # another app in front when the replay starts
        user.key("ctrl+a")
        user.type("mine")
        replayed = phantom(desktop, "replay", "sign up daily", "--db", str(db), "--format", "json",
                           "--param", f"{typed[0]}=Barbara Liskov",
                           "--param", f"{typed[1]}=barbara@example.org")
        result = json.loads(replayed.stdout)
        assert replayed.returncode == 0 and result["status"] == "success", (result, replayed.stderr)
        assert form_fields(form) == ("Barbara Liskov", "barbara@example.org",
                                     "Submitted: Barbara Liskov <barbara@example.org>")
        assert text_of(find(gallery, "text")) == "mine"      # not one key went to the other app
    finally:
        for app in (process, factory, editor):
            desktop.close_app(app)
