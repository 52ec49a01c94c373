"""Programs for the fixture apps, built by hand: for benchmarks, and for tests
of the interfaces (D-Bus, MCP) that need a program without recording one."""
from __future__ import annotations

from compiler.programs.records import Condition, Guard, Parameter, Program, ProgramStep, Target

PANEL = "phantom-form/frame/panel"
EMAIL = "team@example.org"


def form_program() -> Program:
    name = Target("phantom-form", f"{PANEL}/text[@label='Name:']", "text", "", "Name:", None)
    email = Target("phantom-form", f"{PANEL}/text[@label='Email:']", "text", "", "Email:", None)
    submit = Target("phantom-form", f"{PANEL}/filler/push button[@name='Submit']", "push button",
                    "Submit", "", None)
    resolves = Condition("aria_path_resolves")
    steps = (
        ProgramStep(0, "click", name, precondition=resolves, postcondition=Condition("state_delta", "focus")),
        ProgramStep(1, "type", name, text="$P0", precondition=resolves,
                    postcondition=Condition("state_delta", "value"), distance=0.846,
                    samples=("Ada Lovelace", "Alan Turing")),
        ProgramStep(2, "type", email, text=EMAIL, precondition=resolves,
                    postcondition=Condition("state_delta", "value"), distance=0.0,
                    samples=(EMAIL, EMAIL)),
        ProgramStep(3, "click", submit, precondition=resolves),
    )
    return Program("fill form", "demonstration", "phantom-form", steps,
                   (Parameter("P0", 1, "Name:", ("Ada Lovelace", "Alan Turing"), 0.846),),
                   Guard("phantom-form", start_path=name.path), 2,
                   origin=("recording:1", "recording:2")).with_id()
