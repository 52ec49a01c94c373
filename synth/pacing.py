"""The synthetic user's pauses and idle hands: the gap between two actions,
reading (a scroll or a paging key every 10–40 s), a read long enough to
start a new session, and the small moves — scroll, press, wait — that fill
them. Moves need only the desk, so the routine runs and every application's
habits share them."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from .desk import Desk, Window
from .guard import SESSION_BREAK_MS
from .rng import Weights, choose
from .workspace import Workspace

# One thing done in an application's window: True when it did something
# (an application's habit table draws these; a Move is one).
Action = Callable[[Workspace, Window, random.Random], bool]

NAV_KEYS = ("Down", "Up", "Page_Down", "Page_Up", "space", "Tab", "Left", "Right", "Home", "End")


class Move:
    """Something done with the desk alone. In an application's habit table
    a move is an action that always counts as done."""

    __slots__ = ()

    def on(self, desk: Desk, rng: random.Random) -> None:
        raise NotImplementedError

    def __call__(self, ws: Workspace, window: Window, rng: random.Random) -> bool:
        self.on(ws.desk, rng)
        return True


def nothing(ws: Workspace, window: Window, rng: random.Random) -> bool:
    """An action that does nothing this time (the application's idle move follows)."""
    return False


@dataclass(frozen=True, slots=True)
class Scroll(Move):
    most: int                       # wheel steps, drawn from 1..most

    def on(self, desk: Desk, rng: random.Random) -> None:
        desk.scroll(rng.randint(1, self.most))


@dataclass(frozen=True, slots=True)
class Press(Move):
    keys: str | tuple[str, ...]     # one key, or the keys to draw one from
    most: int = 1                   # repeats, drawn from 1..most (no draw for 1)

    def on(self, desk: Desk, rng: random.Random) -> None:
        key = self.keys if isinstance(self.keys, str) else rng.choice(self.keys)
        if self.most > 1:
            desk.key(key, rng.randint(1, self.most))
        else:
            desk.key(key)


@dataclass(frozen=True, slots=True)
class Wait(Move):
    least_ms: int
    most_ms: int

    def on(self, desk: Desk, rng: random.Random) -> None:
        desk.wait(rng.randint(self.least_ms, self.most_ms))


@dataclass(frozen=True, slots=True)
class Read(Move):
    least_ms: int
    most_ms: int

    def on(self, desk: Desk, rng: random.Random) -> None:
        read(desk, rng, rng.randint(self.least_ms, self.most_ms))


@dataclass(frozen=True, slots=True)
class Pick(Move):
    """One move drawn from a weight table."""

    table: Weights[Move]

    def on(self, desk: Desk, rng: random.Random) -> None:
        choose(rng, self.table).on(desk, rng)


# A pause now and then holds a scroll or a paging key (how often is paced
# by the day planner through `desk.filler`); then the pause itself, now and
# then a read longer than the 90 s session gap (never long enough to go idle).
FILL = Pick(Weights.of((70, Scroll(8)), (30, Press(NAV_KEYS, 4))))
PAUSES = Pick(Weights.of((740, Wait(800, 6000)), (170, Wait(6000, 20000)), (75, Read(20000, 70000)),
                         (15, Read(95000, 180000))))
GLANCE = Pick(Weights.of((80, Scroll(12)), (20, Press(NAV_KEYS, 4))))


def gap(desk: Desk, rng: random.Random) -> None:
    """The pause between two actions."""
    if rng.random() < desk.filler and desk.focus is not None and desk.excluded_since is None:
        desk.wait(rng.randint(400, 3000))
        FILL.on(desk, rng)
    PAUSES.on(desk, rng)


def read(desk: Desk, rng: random.Random, ms: int) -> None:
    """Reading: scroll or page every 10–40 s, nothing else."""
    end = desk.t + ms
    while True:
        step = rng.randint(10000, 40000)
        if desk.t + step >= end:
            desk.advance(end)
            return
        desk.wait(step)
        if desk.focus is not None and desk.excluded_since is None:
            GLANCE.on(desk, rng)


def break_session(desk: Desk, rng: random.Random) -> None:
    """Read long enough that the next action starts a new session."""
    read(desk, rng, max(0, SESSION_BREAK_MS + 4000 - desk.quiet_for()) + rng.randint(0, 20000))
