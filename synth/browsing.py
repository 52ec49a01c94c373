"""What the synthetic user ordinarily does in Firefox: follow links (mostly
within a site), open links in background tabs, use a site's toolbar and
search, switch and close tabs — as a weight table of actions, each of which
keeps the guard (guard.py) so browsing never forms a routine."""

from __future__ import annotations

import random

from .desk import Window
from .guard import allowed, common_click, note_site, odd_click, site_switch_key, type_and_press, unique_click
from .pacing import NAV_KEYS, Action, Pick, Press, Scroll, nothing
from .rng import Weights, choose
from .sites import SITE_BY_KEY, random_site
from .workspace import Workspace

BROWSER_KEYS = ("ctrl+f", "Escape", "F5", "ctrl+d", "ctrl+l", "ctrl+plus", "ctrl+minus")


def tab_click(ws: Workspace, rng: random.Random, site: str | None = None) -> bool:
    """Click a tab whose title carries an id (unique content)."""
    options = [i for i, tab in enumerate(ws.tabs) if i != ws.active and tab.site and tab.page.distinct
               and (site is None or tab.site == site)]
    options = [i for i in options if ws.desk.has_node(ws.firefox, "page tab", ws.tabs[i].page.title)
               and ("firefox", "page tab", ws.tabs[i].page.title) not in ws.clicked]
    if not options:
        return False
    before = ws.site
    index = rng.choice(options)
    ws.clicked.add(("firefox", "page tab", ws.tabs[index].page.title))
    ws.select_tab(index)
    ws.last_c = None
    note_site(ws, before)
    return True


def close_tab(ws: Workspace) -> bool:
    """ctrl+w, unless few tabs are open or the next tab's site may not come now."""
    if len(ws.tabs) <= 4:
        return False
    index = ws.active
    nxt = ws.tabs[index + 1] if index + 1 < len(ws.tabs) else ws.tabs[index - 1]
    if not nxt.site or (nxt.site != ws.site and not allowed(ws, site_switch_key(nxt.site))):
        return False
    before = ws.site
    ws.close_tab()
    note_site(ws, before)
    return True


# -- where a followed link leads ------------------------------------------------------------------
def _same_site(ws: Workspace, rng: random.Random) -> None:
    ws.go(ws.new_page(ws.site), ws.site)


def _other_site(ws: Workspace, rng: random.Random) -> None:
    before = ws.site
    site = random_site(rng)
    ws.go(ws.new_page(site), site)
    note_site(ws, before)


def _nowhere(ws: Workspace, rng: random.Random) -> None:
    """An in-page link: the view stays."""


def _on_a_site(ws: Workspace) -> bool:
    return ws.site in SITE_BY_KEY


LINK_LEADS_TO = Weights.of((62, _same_site, _on_a_site), (18, _other_site), (20, _nowhere))


# -- the browser's actions: (ws, window, rng) -> done ----------------------------------------------
def follow_link(ws: Workspace, window: Window, rng: random.Random) -> bool:
    """Click a link: usually another page of this site, sometimes another site."""
    if not unique_click(ws, rng):
        return False
    choose(rng, LINK_LEADS_TO, ws)(ws, rng)
    return True


def _background_link(ws: Workspace, window: Window, rng: random.Random) -> bool:
    """Middle-click a link: a new background tab on some site."""
    if not unique_click(ws, rng, button=2):
        return False
    site = random_site(rng)
    ws.background_tab(ws.new_page(site), site)
    return True


def _toolbar(ws: Workspace, window: Window, rng: random.Random) -> bool:
    picked = common_click(ws, rng, window.view.common)
    if picked and rng.random() < 0.4 and ws.site in SITE_BY_KEY:
        ws.go(ws.new_page(ws.site), ws.site)
    return picked is not None


def _site_search(ws: Workspace, window: Window, rng: random.Random) -> bool:
    search = SITE_BY_KEY[ws.site].search
    assert search is not None, "drawn only on a site with a search field (_has_site_search)"
    if not type_and_press(ws, rng, ("entry", search), (4, 30), (200, 1500), "Return"):
        return False
    ws.go(ws.new_page(ws.site), ws.site)
    return True


def _has_site_search(ws: Workspace, window: Window) -> bool:
    site = SITE_BY_KEY.get(ws.site)
    return site is not None and bool(site.search)


def _other_tab(ws: Workspace, window: Window, rng: random.Random) -> bool:
    return tab_click(ws, rng)


def _next_tab(ws: Workspace, window: Window, rng: random.Random) -> bool:
    """ctrl+Page_Down or ctrl+Page_Up, when the guard lets that tab's site come now."""
    step = rng.choice((1, -1))
    target = ws.tabs[(ws.active + step) % len(ws.tabs)]
    if not target.site or (target.site != ws.site and not allowed(ws, site_switch_key(target.site))):
        return False
    before = ws.site
    ws.next_tab(step)
    note_site(ws, before)
    return True


def _close_tab(ws: Workspace, window: Window, rng: random.Random) -> bool:
    return close_tab(ws)


ACTIONS: Weights[Action] = Weights.of(
    (32, follow_link),
    (4, _background_link),
    (8, _toolbar),
    (6, _site_search, _has_site_search),
    (6, Press(BROWSER_KEYS)),
    (3, Press("ctrl+c")),
    (7, _other_tab),
    (5, _next_tab),
    (2, _close_tab),
    (3, odd_click),
    (24, nothing),
)
IDLE = Pick(Weights.of((75, Scroll(15)), (25, Press(NAV_KEYS, 6))))


def prune_tabs(ws: Workspace, window: Window, rng: random.Random) -> None:
    """Past twelve tabs, close one."""
    if len(ws.tabs) > 12:
        ws.desk.wait(rng.randint(1000, 4000))
        close_tab(ws)
