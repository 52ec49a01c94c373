"""Background activity: the synthetic user's ordinary work between planted
routines — switching to an application (by weight) and doing a few
ordinary things there, each drawn from that application's habit table
(browsing.py, apps.py) and separated by the pacing's gaps (pacing.py). Every
action keeps the guard (guard.py), so noise neither reproduces a planted
routine nor forms routines of its own."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from . import apps, browsing
from .desk import Window
from .guard import allowed, site_switch_key, unique_click
from .pacing import Action, Move, break_session, gap
from .rng import Weights, choose
from .workspace import Workspace

APP_WEIGHTS = {"firefox": 40, "thunderbird": 12, "gedit": 12, "gnome-terminal-server": 10,
               "libreoffice-calc": 8, "nautilus": 6, "slack": 12}
VIA = ("pointer", "alttab", "click")
VIA_WEIGHTS = (45, 35, 20)

Hook = Callable[[Workspace, Window, random.Random], None]


@dataclass(frozen=True, slots=True)
class Habits:
    """What the user does in one application: an action drawn from the
    table; the idle move when it did nothing; what comes before and after."""

    actions: Weights[Action]
    idle: Move | None = None
    before: Hook | None = None
    after: Hook | None = None


HABITS = {
    "firefox": Habits(browsing.ACTIONS, browsing.IDLE, after=browsing.prune_tabs),
    "thunderbird": Habits(apps.MAIL, apps.MAIL_IDLE),
    "gedit": Habits(apps.EDITOR),
    "gnome-terminal-server": Habits(apps.TERMINAL),
    "libreoffice-calc": Habits(apps.SHEET, before=apps.far_down),
    "nautilus": Habits(apps.FILES, apps.FILES_IDLE),
    "slack": Habits(apps.CHAT, apps.CHAT_IDLE),
}


def act(ws: Workspace, rng: random.Random) -> None:
    """One ordinary thing in whatever has focus."""
    window = ws.desk.focus
    if window is None or window not in ws.apps:
        return
    habits = HABITS[window.app.app]
    if habits.before is not None:
        habits.before(ws, window, rng)
    if not choose(rng, habits.actions, ws, window)(ws, window, rng) and habits.idle is not None:
        habits.idle.on(ws.desk, rng)
    if habits.after is not None:
        habits.after(ws, window, rng)


def pick_app(ws: Workspace, rng: random.Random, avoid: frozenset[str] = frozenset()) -> Window:
    names = [w for w in ws.apps if w.app.app not in avoid and w is not ws.desk.focus]
    weights = [APP_WEIGHTS[w.app.app] for w in names]
    return rng.choices(names, weights=weights, k=1)[0]


def enter(ws: Workspace, rng: random.Random, window: Window, via: str | None = None) -> bool:
    """Focus a window, keeping the guard: entering the browser on a site is
    a common step. False when that is not possible right now."""
    desk = ws.desk
    if window is ws.firefox and ws.site:
        key = site_switch_key(ws.site)
        if not allowed(ws, key) and not unique_click(ws, rng):
            return False
        if not allowed(ws, key):
            return False
    desk.focus_window(window, via=via or rng.choices(VIA, weights=VIA_WEIGHTS, k=1)[0])
    if window is ws.firefox and ws.site:
        ws.last_c = site_switch_key(ws.site)
    return True


def visit(ws: Workspace, rng: random.Random, *, avoid: frozenset[str] = frozenset(), actions: int | None = None,
          window: Window | None = None, via: str | None = None) -> Window:
    """Switch to an application and do a few ordinary things there."""
    desk = ws.desk
    target = window or pick_app(ws, rng, avoid)
    if not enter(ws, rng, target, via):
        if window is not None:
            break_session(desk, rng)
            enter(ws, rng, target, via)
        else:
            target = pick_app(ws, rng, avoid | {"firefox"})
            enter(ws, rng, target, via)
    desk.wait(rng.randint(700, 6000))
    for _ in range(actions if actions is not None else rng.randint(1, 9)):
        act(ws, rng)
        gap(desk, rng)
    if ws.last_c is not None and rng.random() < 0.7:
        unique_click(ws, rng)
    return target
