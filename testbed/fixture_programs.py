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


def calculator_program() -> Program:
    """A routine mined from the capture: 4 × 9 + 2 = on gnome-calculator (no
    parameters: every button it presses is a constant of it)."""
    app = "gnome-calculator"
    resolves = Condition("aria_path_resolves")

    def button(index: int, label: str) -> ProgramStep:
        path = f"{app}/frame[@name='Calculator']/panel/push button[@name='{label}']"
        return ProgramStep(index, "click", Target(app, path, "push button", label, "", None),
                           precondition=resolves)

    steps = tuple(button(n, label) for n, label in enumerate(("4", "×", "9", "+", "2", "=")))
    return Program("calc 4x9+2", "routine", app, steps, (), Guard(app, title_tokens=("Calculator",)), 3,
                   origin=("routine:r-0123456789ab",)).with_id()
