"""The form of a planted routine's one declaration, and the two things that
follow from it: the performance the day writes into the store
(`Routine.perform`) and the ground truth tests and benchmarks compare with
(`Routine.expected`, `planted`).

A routine is a tuple of `RoutineStep`s. Each declares the step the compiler
will derive (`compiler.routines.actions`: a switch, a click or typing on an element,
a key), how the synthetic user performs it, and what follows from it before
the next step (a page loads, a dialog opens, a Tab moves to the next field).
Between two steps lies a step gap; an `Arrive` is no action of its own but
the site switch the compiler sees when what came before loaded another
site, so it has no gap and nothing to perform."""

from __future__ import annotations

import random
from dataclasses import KW_ONLY, dataclass
from functools import cache
from typing import Callable, ClassVar

from compiler.records import Step

from .desk import Window
from .pacing import Move
from .staging import Context, step_gap, trail
from .trees import expand
from .views import View
from .workspace import Workspace
from .world import MONITORS, Page

Effect = Callable[[Workspace, random.Random, Context], None]
Effects = tuple[Move | Effect, ...]   # what comes before or after a step, in order


def _apply(effects: Effects, ws: Workspace, rng: random.Random, ctx: Context) -> None:
    for effect in effects:
        if isinstance(effect, Move):
            effect.on(ws.desk, rng)
        else:
            effect(ws, rng, ctx)


@dataclass(frozen=True, slots=True)
class RoutineStep:
    """One step of a planted routine; `before` and `then` are moves or
    effects around its action (a wait, a Tab, a page load)."""

    _: KW_ONLY
    before: Effects = ()
    then: Effects = ()
    implied: ClassVar[bool] = False

    def expected(self) -> Step:
        raise NotImplementedError

    def perform(self, ws: Workspace, rng: random.Random) -> None:
        raise NotImplementedError


def _element(kind: str, view: View, role: str, label: str) -> Step:
    """The step on an element, with its path in a representative view."""
    assert view.root is not None
    tree = expand(view.root, view.app.app, MONITORS[0].window_rect())
    return Step(kind, view.app.app, tree.nodes[tree.require(role, label)].path, role, label, True)


@dataclass(frozen=True, slots=True)
class Switch(RoutineStep):
    """Focus the application's main window (the pointer enters it: no input)."""

    app: str
    site: str = ""                    # the browser's site, when it matters

    def expected(self) -> Step:
        return Step("switch", self.app, f"{self.app}/{self.site}" if self.site else self.app,
                    specific=bool(self.site))

    def perform(self, ws: Workspace, rng: random.Random) -> None:
        ws.desk.focus_window(ws.window_of(self.app))


@dataclass(frozen=True, slots=True)
class Arrive(RoutineStep):
    """The browser now shows `site`, because of what came before."""

    site: str
    implied: ClassVar[bool] = True

    def expected(self) -> Step:
        return Step("switch", "firefox", f"firefox/{self.site}", specific=True)

    def perform(self, ws: Workspace, rng: random.Random) -> None:
        """Nothing: the page load before it was the action."""


@dataclass(frozen=True, slots=True)
class Click(RoutineStep):
    view: Callable[[], View]          # a view holding the element (gives its path)
    role: str
    label: str
    sloppy: bool = False              # 1 in 10 lands just beside the element
    by: Callable[[Workspace], None] | None = None   # a workspace method that clicks it

    def expected(self) -> Step:
        return _element("click", self.view(), self.role, self.label)

    def perform(self, ws: Workspace, rng: random.Random) -> None:
        if self.by is not None:
            self.by(ws)
            return
        resolution = "exact" if not self.sloppy or rng.random() < 0.9 else "tolerance"
        ws.desk.click(self.role, self.label, resolution=resolution)


@dataclass(frozen=True, slots=True)
class Type(RoutineStep):
    view: Callable[[], View]
    role: str
    label: str
    chars: tuple[int, int]            # characters typed, drawn from this range

    def expected(self) -> Step:
        return _element("type", self.view(), self.role, self.label)

    def perform(self, ws: Workspace, rng: random.Random) -> None:
        ws.desk.type(self.role, self.label, rng.randint(*self.chars))


@dataclass(frozen=True, slots=True)
class Key(RoutineStep):
    app: str
    key: str
    by: Callable[[Workspace], None] | None = None   # a workspace method that presses it

    def expected(self) -> Step:
        return Step("key", self.app, self.key)

    def perform(self, ws: Workspace, rng: random.Random) -> None:
        if self.by is not None:
            self.by(ws)
        else:
            ws.desk.key(self.key)


# -- effects ------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Go:
    """The active tab loads `page` of `site`."""

    page: Page
    site: str

    def __call__(self, ws: Workspace, rng: random.Random, ctx: Context) -> None:
        ws.go(self.page, self.site)


@dataclass(frozen=True, slots=True)
class Focus:
    """Focus a window of the workspace (a dialog it opens, or a main window)."""

    window: Callable[[Workspace], Window]

    def __call__(self, ws: Workspace, rng: random.Random, ctx: Context) -> None:
        ws.desk.focus_window(self.window(ws))


# -- the declaration ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Routine:
    """One planted routine: when and how often it happens, how the run gets
    into position, its steps, and how it ends."""

    name: str
    note: str
    per_day: Callable[[int, int, int], int]      # (seed, day index, days) -> occurrences that day
    setup: Effect                                 # into position; the occurrence starts after it
    steps: tuple[RoutineStep, ...]
    finish: Effect = trail
    variant: Callable[[Context], str] | None = None   # a label for the manifest
    hours: tuple[float, float] = (9.0, 17.5)     # local time window for scheduling
    fixed_lead_in: str | None = None
    fixed_lead_out: str | None = None
    variable_gaps: bool = False                  # step gaps of 1-60 s instead of 1-25 s
    control: bool = False                        # a negative control

    def expected(self) -> tuple[Step, ...]:
        """The steps the compiler derives from every occurrence."""
        return _expected(self)

    def perform(self, ws: Workspace, rng: random.Random, ctx: Context) -> None:
        """Run one occurrence and mark where it lies."""
        desk = ws.desk
        self.setup(ws, rng, ctx)
        start = desk.t
        for index, step in enumerate(self.steps):
            if step.implied:
                if index == 0:            # the lead-in performed it: start at what it showed
                    start = desk.snapshots[-1].ts_ms
                continue
            if index:
                step_gap(desk, rng, self.variable_gaps)
            _apply(step.before, ws, rng, ctx)
            step.perform(ws, rng)
            _apply(step.then, ws, rng, ctx)
        desk.mark(self.name, start, self.variant(ctx) if self.variant is not None else "")
        self.finish(ws, rng, ctx)

    def occurrences_before(self, seed: int, index: int, days: int) -> int:
        return sum(self.per_day(seed, i, days) for i in range(index))


@cache
def _expected(routine: Routine) -> tuple[Step, ...]:
    return tuple(step.expected() for step in routine.steps)


@dataclass(frozen=True, slots=True)
class PlantedRoutine:
    """One planted routine and how often the corpus contains it."""

    name: str
    steps: tuple[Step, ...]
    occurrences: int
    expect_found: bool
    note: str


def ground_truth(routine: Routine, seed: int, days: int) -> PlantedRoutine:
    """A miner must report the routine when it recurs 3+ times and names 2+
    distinct specific targets, unless it is a negative control."""
    steps = routine.expected()
    count = routine.occurrences_before(seed, days, days)
    distinct_specific = len({(s.kind, s.app, s.role, s.label, s.target if s.kind == "switch" else "")
                             for s in steps if s.specific})
    return PlantedRoutine(routine.name, steps, count,
                          count >= 3 and distinct_specific >= 2 and not routine.control, routine.note)
