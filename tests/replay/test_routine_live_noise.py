"""`phantom routines` on a live session: one planted routine among noise is
listed once, and its verdict rests on plan and replay evidence (issue 25).

The chore — fill the sign-up form and submit — is done six times. Three
times a line written in mousepad comes before it (a chain: another task,
then the routine), and three times a click into gtk3-widget-factory follows
it (another task after). Each of those chains recurs three times, enough to
be mined as a routine of its own; the list must still hold the chore once,
with the chains as its variants. Its posterior counts dry passes of its plan
against the trees the capture recorded, not the passive occurrences.
"""

from __future__ import annotations

import json

import pytest
from test_replay_trust import click_into, launch_factory, launch_form

from support.apps import app_by_pid
from support.cli import phantom
from support.daemon import CaptureProcess, settle
from testbed.executables import executable

pytestmark = pytest.mark.desktop

PEOPLE = (("Ada Lovelace", "ada@example.org"), ("Alan Turing", "alan@example.org"),
          ("Grace Hopper", "grace@example.org"), ("Edsger Dijkstra", "edsger@example.org"),
          ("Barbara Liskov", "barbara@example.org"), ("Donald Knuth", "don@example.org"))
FORM_STEPS = ["click", "key", "type", "click", "key", "type", "click"]


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


def is_chore(routine: dict) -> bool:
    """The form's seven steps, in order, somewhere in the routine."""
    kinds = [(s["kind"], s["app"]) for s in routine["steps"]]
    wanted = [(kind, "phantom-form") for kind in FORM_STEPS]
    return any(kinds[i:i + len(wanted)] == wanted for i in range(len(kinds) - len(wanted) + 1))


def test_one_planted_routine_among_noise_is_listed_once_on_plan_evidence(managed_desktop, user, tmp_path):
    desktop = managed_desktop
    document = tmp_path / "notes.txt"
    document.write_text("notes\n")
    editor = desktop.launch([executable("mousepad"), str(document)], name="mousepad")
    window = desktop.wait_for_window("mousepad", timeout=30, pid=editor.pid)
    desktop.place_window(window, 40, 330, 360, 300)
    factory = launch_factory(desktop)
    process, form = launch_form(desktop, "--title", "Form")
    db = tmp_path / "store.sqlite3"
    try:
        settle(1.5)
        notes, gallery = app_by_pid(editor.pid), app_by_pid(factory.pid)
        with CaptureProcess(desktop, db) as capture:
            settle(1.0)
            for number, (name, email) in enumerate(PEOPLE):
                if number < 3:                       # another task chained before the chore
                    click_into(user, notes, "text")
                    user.type(f"round {number}\n")
                fill(user, form, name, email)
                if number >= 3:                      # another task after it
                    click_into(user, gallery, "text")
                    user.key("ctrl+a")
                    user.type(f"round {number}")
                settle(1.0)
            assert capture.stop() == 0

        listed = phantom(desktop, "routines", "--db", str(db), "--format", "json", "--limit", "0")
        assert listed.returncode == 0, listed.stderr
        (tmp_path / "routines.json").write_text(listed.stdout)   # kept with pytest's temp dirs
        routines = json.loads(listed.stdout)["routines"]
        summary = [(r["id"], r["measures"]["support"], r["label"]) for r in routines]
        for line in summary:
            print(*line, sep="  ")                           # shown when an assertion fails
        on_form = [r for r in routines
                   if any(s["app"] == "phantom-form" and s["kind"] != "switch" for s in r["steps"])]
        assert len(on_form) == 1, summary                  # listed once: no chain, no fragment beside it
        (chore,) = on_form
        assert is_chore(chore), summary
        # Capture still records a click's element unnamed now and then (issue 25,
        # finding 1; seen in 2 of 6 rounds): the chore is then short of those
        # rounds and the rest of it is a variant — listed once all the same.
        assert chore["measures"]["support"] >= 3, summary
        variants = chore["variants"]
        assert variants and all(v["support"] >= 3 for v in variants), (variants, summary)

        evidence, decision = chore["evidence"], chore["decision"]
        assert evidence["plan_trials"] >= 1, evidence          # the capture's trees were read
        assert (decision["successes"], decision["trials"]) == (
            evidence["plan_passes"] + evidence["replay_successes"],
            evidence["plan_trials"] + evidence["replay_trials"])
        assert evidence["replay_trials"] == 0
    finally:
        for app in (process, factory, editor):
            desktop.close_app(app)
