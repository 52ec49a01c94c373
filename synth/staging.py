"""What surrounds a planted routine's steps: the pause between two steps,
getting into position before the first (be in another application, or
leave a page open for later), and the edges that keep each occurrence
exactly countable — the action right before and right after it is either
nothing for > 90 s (a session break) or a click on content drawn from a
large pool, so no longer n-gram has the routine's support."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from . import noise
from .browsing import tab_click
from .desk import Desk
from .guard import note_site, unique_click
from .pacing import break_session, gap, read
from .sites import SITE_BY_KEY, SITE_KEYS
from .workspace import Workspace
from .world import Page


@dataclass(frozen=True, slots=True)
class Context:
    """What the day planner tells a routine run."""

    index: int               # occurrence number over the whole corpus (0-based)
    lead_in: str             # "gap" | "content" (or a routine's own fixed value)
    lead_out: str            # "gap" | "content" (or a routine's own fixed value)


def step_gap(desk: Desk, rng: random.Random, variable: bool = False) -> None:
    """The pause between two steps: 1–25 s, or 1–60 s for variable timing."""
    if variable:
        desk.wait(int(1000 * rng.choice((rng.uniform(1, 6), rng.uniform(5, 25), rng.uniform(20, 60)))))
    elif rng.random() < 0.85:
        desk.wait(rng.randint(1200, 8000))
    else:
        desk.wait(rng.randint(8000, 25000))


def lead(ws: Workspace, rng: random.Random, kind: str) -> None:
    """Make the action before the next one either absent for > 90 s or a
    click on content."""
    desk = ws.desk
    if kind == "gap" or not unique_click(ws, rng):
        read(desk, rng, rng.randint(96000, 118000))
    else:
        step_gap(desk, rng)


def trail(ws: Workspace, rng: random.Random, ctx: Context) -> None:
    """The same after the last step: a session break or a content click."""
    desk = ws.desk
    step_gap(desk, rng)
    if ctx.lead_out == "gap" or not unique_click(ws, rng):
        read(desk, rng, rng.randint(96000, 118000))
    ws.last_c = None


def elsewhere(ws: Workspace, rng: random.Random, avoid: frozenset[str]) -> None:
    """Be in an application outside `avoid` that shows clickable content."""
    focus = ws.desk.focus
    bad = {"gnome-terminal-server", *avoid}
    if focus is None or focus.app.app in bad or focus not in ws.apps or not focus.view.content:
        noise.visit(ws, rng, avoid=frozenset(bad), actions=rng.randint(1, 3))
    for _ in range(3):
        focus = ws.desk.focus
        if focus is not None and focus.view.content and not (focus.app.app == "firefox" and not ws.site):
            return
        noise.visit(ws, rng, avoid=frozenset(bad | {"firefox"}), actions=rng.randint(1, 2))


def focus_firefox(ws: Workspace, rng: random.Random) -> None:
    """Be in Firefox on an ordinary site."""
    if ws.desk.focus is not ws.firefox:
        noise.visit(ws, rng, window=ws.firefox, actions=rng.randint(0, 2))
    if ws.site not in SITE_BY_KEY:
        go_elsewhere(ws, rng, avoid=())


def go_elsewhere(ws: Workspace, rng: random.Random, avoid: tuple[str, ...]) -> None:
    """Follow a link from this page to a page of another ordinary site."""
    before = ws.site
    if not unique_click(ws, rng):
        break_session(ws.desk, rng)
    site = rng.choice([k for k in SITE_KEYS if k not in avoid and k != before])
    ws.go(ws.new_page(site), site)
    note_site(ws, before)
    gap(ws.desk, rng)


def _leave_page_open(ws: Workspace, rng: random.Random, site: str, page: Page, via_link: str | None) -> None:
    """Leave Firefox showing `page` (a stable-titled page) before the routine."""
    desk = ws.desk
    focus_firefox(ws, rng)
    if ws.site != site and not tab_click(ws, rng, site=site):
        before = ws.site
        if not unique_click(ws, rng):
            break_session(desk, rng)
        ws.go(ws.new_page(site), site)
        note_site(ws, before)
    gap(desk, rng)
    if not unique_click(ws, rng):
        break_session(desk, rng)
    step_gap(desk, rng)
    if via_link:
        desk.click("link", via_link)
        ws.go(page, site)
        step_gap(desk, rng)
        if not unique_click(ws, rng):
            break_session(desk, rng)
    else:
        ws.go(page, site)
    ws.last_c = None
    for _ in range(rng.randint(0, 2)):
        desk.wait(rng.randint(2000, 15000))
        desk.scroll(rng.randint(1, 6))


# -- setups: how a run gets into position (then `start` is taken) -------------------------------------
@dataclass(frozen=True, slots=True)
class FromElsewhere:
    """Come from another application (one outside `avoid`), after a lead-in."""

    avoid: frozenset[str]

    def __call__(self, ws: Workspace, rng: random.Random, ctx: Context) -> None:
        elsewhere(ws, rng, self.avoid)
        lead(ws, rng, ctx.lead_in)


def in_firefox(ws: Workspace, rng: random.Random, ctx: Context) -> None:
    """Be in Firefox on an ordinary site, after a lead-in."""
    focus_firefox(ws, rng)
    lead(ws, rng, ctx.lead_in)


@dataclass(frozen=True, slots=True)
class PageLeftOpen:
    """Leave a page of `site` open in Firefox (reached through `via_link`
    when given), work elsewhere for a while, and come back from there."""

    site: str
    page: Callable[[random.Random], Page]
    via_link: str | None
    most_actions: int                 # actions in the application visited meanwhile

    def __call__(self, ws: Workspace, rng: random.Random, ctx: Context) -> None:
        _leave_page_open(ws, rng, self.site, self.page(rng), self.via_link)
        gap(ws.desk, rng)
        noise.visit(ws, rng, avoid=frozenset({"firefox", "gnome-terminal-server"}),
                    actions=rng.randint(1, self.most_actions))
        FromElsewhere(frozenset({"firefox"}))(ws, rng, ctx)
