"""The guard that keeps background activity from forming routines, and the
clicks and typing that go through it.

Targets come only from a view's noise lists (`common`, `content`, `fields`,
`zones`) and keys from the habit tables, none of which holds a step a
planted routine relies on, so noise cannot reproduce a routine.

Noise must not create routines of its own either. A miner reports n-grams
of 3+ actions that recur 3+ times and name 2+ distinct specific targets.
Specific steps come in two classes here:

- *unique* (U): clicks on content drawn from large pools — a mail subject, a
  link, a file name, a far-down spreadsheet cell, a tab whose title carries
  an id. A given one recurs rarely, so an n-gram holding one recurs rarely.
- *common* (C): toolbar buttons, folders, channels, search fields, the
  editor's text view, a browser site switch. These recur all the time.

The rule (`allowed`): between two *different* common steps there is always
a unique one or a session break (> 90 s without actions). Then every n-gram
with two distinct specific steps contains a unique step, and accidental
routines are as rare as repeated content. The routine runs keep the same
rule at their edges (a unique click or a session break before and after
every occurrence).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from compiler.routines.actions import SESSION_GAP_MS

from .desk import Window
from .views import Target
from .workspace import StepKey, Workspace

# Quiet for longer than the miner's session gap, by a second's margin: the
# actions on either side fall in different sessions.
SESSION_BREAK_MS = SESSION_GAP_MS + 1_000


def allowed(ws: Workspace, key: StepKey | None) -> bool:
    """May a common step with this key happen now? (None, the key of a site
    switch with no site, only while no common step is pending.)"""
    if ws.desk.quiet_for() > SESSION_BREAK_MS:
        ws.last_c = None
    return ws.last_c is None or ws.last_c == key


def site_switch_key(site: str) -> StepKey | None:
    return ("switch", "firefox", f"firefox/{site}") if site else None


def note_site(ws: Workspace, before: str) -> None:
    """After a browser view change: a new site is a common switch step."""
    if ws.site != before and ws.site and ws.desk.focus is ws.firefox:
        ws.last_c = site_switch_key(ws.site)


def present(ws: Workspace, targets: Sequence[Target]) -> list[Target]:
    """The targets the focused window's current tree really contains (a long
    page is cut at 400 nodes, like the capturer's walk)."""
    window = ws.desk.focus
    if window is None or window.tree is None:
        return []
    return [t for t in targets if ws.desk.has_node(window, *t)]


def unique_click(ws: Workspace, rng: random.Random, button: int = 1) -> bool:
    """Click one content item of the focused window; False when it has none."""
    window = ws.desk.focus
    if window is None or not window.view.content or not window.app.accessible:
        return False
    # never the same item twice a day: a list that stays on screen must not
    # turn its items into common targets
    targets = present(ws, [t for t in window.view.content if t[0] != "page tab" and (window.app.app, *t)
                           not in ws.clicked])
    if not targets:
        return False
    role, label = rng.choice(targets)
    ws.desk.click(role, label, resolution="exact" if rng.random() < 0.9 else "tolerance", button=button)
    ws.clicked.add((window.app.app, role, label))
    ws.last_c = None
    return True


def common_click(ws: Workspace, rng: random.Random, targets: Sequence[Target]) -> Target | None:
    window = ws.desk.focus
    if window is None:
        return None
    options = [t for t in present(ws, targets) if allowed(ws, ("click", window.app.app, *t))]
    if not options:
        return None
    role, label = rng.choice(options)
    ws.desk.click(role, label, resolution="exact" if rng.random() < 0.92 else "tolerance")
    ws.last_c = ("click", window.app.app, role, label)
    return role, label


def common_type(ws: Workspace, role: str, label: str, chars: int) -> bool:
    window = ws.desk.focus
    if window is None or not allowed(ws, ("type", window.app.app, role, label)):
        return False
    ws.desk.type(role, label, chars)
    ws.last_c = ("type", window.app.app, role, label)
    return True


def type_and_press(ws: Workspace, rng: random.Random, field: tuple[str, str], chars: tuple[int, int],
                   pause_ms: tuple[int, int], key: str) -> bool:
    """Type into a common field, pause, press a key (a search, a message)."""
    if not common_type(ws, *field, rng.randint(*chars)):
        return False
    ws.desk.wait(rng.randint(*pause_ms))
    ws.desk.key(key)
    return True


def odd_click(ws: Workspace, window: Window, rng: random.Random) -> bool:
    """A click that resolves only to a container, or to nothing."""
    if window.view.zones and rng.random() < 0.6 and present(ws, window.view.zones):
        role, label = rng.choice(present(ws, window.view.zones))
        ws.desk.click(role, label, resolution="zone")
    else:
        ws.desk.click(resolution="none")
    return True
