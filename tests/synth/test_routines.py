"""Each planted routine is declared once: the ground truth is read off the
same steps the synthetic user performs, and what the note says about the
declaration agrees with it."""

from __future__ import annotations

import re

from compiler.records import Step
from synth import planted_routines
from synth.routines import ROUTINES
from synth.script import Arrive, Key, Switch


def test_ground_truth_is_the_declared_steps():
    for routine, truth in zip(ROUTINES, planted_routines(7, 10), strict=True):
        assert truth.name == routine.name and truth.note == routine.note
        assert truth.steps == routine.expected()


def test_notes_count_the_declared_steps():
    counted = 0
    for routine in ROUTINES:
        match = re.search(r"\((\d+) steps", routine.note)
        if match:
            assert int(match.group(1)) == len(routine.steps), routine.name
            counted += 1
    assert counted == 7


def test_switches_and_keys_expect_what_the_compiler_derives():
    assert Switch("slack").expected() == Step("switch", "slack", "slack")
    assert Switch("firefox", "github.com").expected() == Step("switch", "firefox", "firefox/github.com",
                                                               specific=True)
    assert Arrive("meet.google.com").expected() == Switch("firefox", "meet.google.com").expected()
    assert Key("gedit", "ctrl+a").expected() == Step("key", "gedit", "ctrl+a")


def test_an_arrival_is_never_first_unless_the_lead_in_makes_it():
    """A site switch that follows a page load has no action of its own; only
    reopen_closed_tab begins with one (its lead-in clicks the tab)."""
    starts = {r.name for r in ROUTINES if r.steps[0].implied}
    assert starts == {"reopen_closed_tab"}
    for routine in ROUTINES:
        for before, step in zip(routine.steps, routine.steps[1:]):
            if step.implied:
                assert before.then, (routine.name, step)
