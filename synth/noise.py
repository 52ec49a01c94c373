"""Background activity: the synthetic user's ordinary work between planted
routines.

Targets come only from a view's noise lists (`common`, `content`, `fields`,
`zones`) and keys from the lists below, none of which holds a step a
planted routine relies on, so noise cannot reproduce a routine.

Noise must not create routines of its own either. A miner reports n-grams
of 3+ actions that recur 3+ times and name 2+ distinct specific targets.
Specific steps come in two classes here:

- *unique* (U): clicks on content drawn from large pools — a mail subject, a
  link, a file name, a far-down spreadsheet cell, a tab whose title carries
  an id. A given one recurs rarely, so an n-gram holding one recurs rarely.
- *common* (C): toolbar buttons, folders, channels, search fields, the
  editor's text view, a browser site switch. These recur all the time.

The rule (the guard, `allowed`): between two *different* common steps there
is always a unique one or a session break (> 90 s without actions). Then
every n-gram with two distinct specific steps contains a unique step, and
accidental routines are as rare as repeated content. The routine runs keep
the same rule at their edges (a unique click or a session break before and
after every occurrence).
"""

from __future__ import annotations

import random

from .desk import Desk, Window
from .workspace import TERMINAL_COMMANDS, Workspace
from .sites import SITE_BY_KEY, SITE_KEYS, SITE_WEIGHTS

APP_WEIGHTS = {"firefox": 40, "thunderbird": 12, "gedit": 12, "gnome-terminal-server": 10,
               "libreoffice-calc": 8, "nautilus": 6, "slack": 12}
VIA = ("pointer", "alttab", "click")
VIA_WEIGHTS = (45, 35, 20)
SESSION_BREAK_MS = 91_000
BROWSER_KEYS = ("ctrl+f", "Escape", "F5", "ctrl+d", "ctrl+l", "ctrl+plus", "ctrl+minus")
NAV_KEYS = ("Down", "Up", "Page_Down", "Page_Up", "space", "Tab", "Left", "Right", "Home", "End")
MAIL_KEYS = ("Delete", "ctrl+r", "ctrl+shift+k", "F5")
EDITOR_KEYS = ("ctrl+s", "ctrl+z", "ctrl+f", "ctrl+v", "Return", "ctrl+shift+z", "F9", "BackSpace")
TERMINAL_KEYS = ("ctrl+l", "ctrl+shift+c", "ctrl+shift+v", "ctrl+r", "ctrl+d")
CALC_KEYS = ("Return", "ctrl+s", "ctrl+z", "ctrl+v", "Delete", "F2", "ctrl+shift+v", "Escape")
FILES_KEYS = ("Return", "Delete", "F2", "ctrl+l", "ctrl+v", "ctrl+h")
CHAT_KEYS = ("ctrl+k", "Escape", "alt+Up", "ctrl+shift+a")


# -- the guard ---------------------------------------------------------------------------------------
def allowed(ws: Workspace, key: tuple) -> bool:
    """May a common step with this key happen now?"""
    if ws.desk.quiet_for() > SESSION_BREAK_MS:
        ws.last_c = None
    return ws.last_c is None or ws.last_c == key


def site_switch_key(site: str) -> tuple | None:
    return ("switch", "firefox", f"firefox/{site}") if site else None


def note_site(ws: Workspace, before: str) -> None:
    """After a browser view change: a new site is a common switch step."""
    if ws.site != before and ws.site and ws.desk.focus is ws.firefox:
        ws.last_c = site_switch_key(ws.site)


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


content_click = unique_click


def common_click(ws: Workspace, rng: random.Random, targets) -> tuple[str, str] | None:
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


def present(ws: Workspace, targets) -> list:
    """The targets the focused window's current tree really contains (a long
    page is cut at 400 nodes, like the capturer's walk)."""
    window = ws.desk.focus
    if window is None or window.tree is None:
        return []
    return [t for t in targets if ws.desk.has_node(window, *t)]


# -- pacing ------------------------------------------------------------------------------------------
def gap(desk: Desk, rng: random.Random) -> None:
    """The pause between two actions, sometimes filled with scrolling or
    paging, now and then a read longer than the 90 s session gap (never
    long enough to go idle)."""
    if rng.random() < desk.filler and desk.focus is not None and desk.excluded_since is None:
        desk.wait(rng.randint(400, 3000))
        if rng.random() < 0.7:
            desk.scroll(rng.randint(1, 8))
        else:
            desk.key(rng.choice(NAV_KEYS), rng.randint(1, 4))
    r = rng.random()
    if r < 0.74:
        desk.wait(rng.randint(800, 6000))
    elif r < 0.91:
        desk.wait(rng.randint(6000, 20000))
    elif r < 0.985:
        read(desk, rng, rng.randint(20000, 70000))
    else:
        read(desk, rng, rng.randint(95000, 180000))


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
            if rng.random() < 0.8:
                desk.scroll(rng.randint(1, 12))
            else:
                desk.key(rng.choice(NAV_KEYS), rng.randint(1, 4))


def break_session(desk: Desk, rng: random.Random) -> None:
    """Read long enough that the next action starts a new session."""
    read(desk, rng, max(0, SESSION_BREAK_MS + 4000 - desk.quiet_for()) + rng.randint(0, 20000))


# -- visits ------------------------------------------------------------------------------------------
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


def act(ws: Workspace, rng: random.Random) -> None:
    """One ordinary thing in whatever has focus."""
    window = ws.desk.focus
    if window is None or window not in ws.apps:
        return
    {"firefox": _browser, "thunderbird": _mail, "gedit": _editor, "gnome-terminal-server": _terminal,
     "libreoffice-calc": _sheet, "nautilus": _files, "slack": _chat}[window.app.app](ws, window, rng)


def _odd_click(ws: Workspace, window: Window, rng: random.Random) -> None:
    """A click that resolves only to a container, or to nothing."""
    if window.view.zones and rng.random() < 0.6 and present(ws, window.view.zones):
        role, label = rng.choice(present(ws, window.view.zones))
        ws.desk.click(role, label, resolution="zone")
    else:
        ws.desk.click(resolution="none")


# -- the browser -------------------------------------------------------------------------------------
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


def tab_key(ws: Workspace, rng: random.Random) -> bool:
    step = rng.choice((1, -1))
    target = ws.tabs[(ws.active + step) % len(ws.tabs)]
    if not target.site or (target.site != ws.site and not allowed(ws, site_switch_key(target.site))):
        return False
    before = ws.site
    ws.next_tab(step)
    note_site(ws, before)
    return True


def close_tab(ws: Workspace) -> bool:
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


def follow_link(ws: Workspace, rng: random.Random) -> bool:
    """Click a link: usually another page of this site, sometimes another site."""
    if not unique_click(ws, rng):
        return False
    r = rng.random()
    if r < 0.62 and ws.site in SITE_BY_KEY:
        ws.go(ws.new_page(ws.site), ws.site)
    elif r < 0.80:
        before = ws.site
        site = rng.choices(SITE_KEYS, weights=SITE_WEIGHTS, k=1)[0]
        ws.go(ws.new_page(site), site)
        note_site(ws, before)
    return True


def _browser(ws: Workspace, window: Window, rng: random.Random) -> None:
    desk, view = ws.desk, window.view
    site = SITE_BY_KEY.get(ws.site)
    r = rng.random()
    done = False
    if r < 0.32:
        done = follow_link(ws, rng)
    elif r < 0.36:
        if unique_click(ws, rng, button=2):
            new_site = rng.choices(SITE_KEYS, weights=SITE_WEIGHTS, k=1)[0]
            ws.background_tab(ws.new_page(new_site), new_site)
            done = True
    elif r < 0.44:
        picked = common_click(ws, rng, view.common)
        if picked and rng.random() < 0.4 and site is not None:
            ws.go(ws.new_page(ws.site), ws.site)
        done = picked is not None
    elif r < 0.50 and site is not None and site.search:
        if common_type(ws, "entry", site.search, rng.randint(4, 30)):
            desk.wait(rng.randint(200, 1500))
            desk.key("Return")
            ws.go(ws.new_page(ws.site), ws.site)
            done = True
    elif r < 0.56:
        desk.key(rng.choice(BROWSER_KEYS))
        done = True
    elif r < 0.59:
        desk.key("ctrl+c")
        done = True
    elif r < 0.66:
        done = tab_click(ws, rng)
    elif r < 0.71:
        done = tab_key(ws, rng)
    elif r < 0.73:
        done = close_tab(ws)
    elif r < 0.76:
        _odd_click(ws, window, rng)
        done = True
    if not done:
        if rng.random() < 0.75:
            desk.scroll(rng.randint(1, 15))
        else:
            desk.key(rng.choice(NAV_KEYS), rng.randint(1, 6))
    if len(ws.tabs) > 12:
        desk.wait(rng.randint(1000, 4000))
        close_tab(ws)


# -- the other applications ----------------------------------------------------------------------------
def _mail(ws: Workspace, window: Window, rng: random.Random) -> None:
    desk, view = ws.desk, window.view
    r = rng.random()
    done = False
    if r < 0.40:
        done = unique_click(ws, rng)
    elif r < 0.50:
        picked = common_click(ws, rng, [t for t in view.common if t[0] == "tree item"])
        if picked:
            desk.wait(rng.randint(200, 800))
            ws.mail_refresh(picked[1])
        done = picked is not None
    elif r < 0.58:
        done = common_click(ws, rng, [t for t in view.common if t[0] == "push button"]) is not None
    elif r < 0.65:
        desk.key(rng.choice(MAIL_KEYS))
        done = True
    elif r < 0.69 and view.fields:
        if common_type(ws, *view.fields[0], rng.randint(3, 16)):
            desk.wait(rng.randint(300, 1500))
            desk.key("Return")
            done = True
    elif r < 0.73:
        _odd_click(ws, window, rng)
        done = True
    if not done:
        if rng.random() < 0.6:
            desk.scroll(rng.randint(1, 10))
        else:
            desk.key(rng.choice(("Down", "Up", "Page_Down")), rng.randint(1, 8))


def _editor(ws: Workspace, window: Window, rng: random.Random) -> None:
    desk, view = ws.desk, window.view
    r = rng.random()
    if r < 0.50:
        if not allowed(ws, ("type", "gedit", "text", "")):
            break_session(desk, rng)      # reading the code before editing it
        common_type(ws, "text", "", rng.randint(3, 140))
        if not window.state.get("modified"):
            ws.editor_show(modified=True)
    elif r < 0.66:
        desk.key(rng.choice(NAV_KEYS[:6]), rng.randint(1, 9))
    elif r < 0.78:
        desk.key(rng.choice(EDITOR_KEYS))
        if window.state.get("modified") and rng.random() < 0.5:
            desk.key("ctrl+s")
            ws.editor_show(modified=False)
    elif r < 0.88:
        desk.scroll(rng.randint(1, 8))
    elif r < 0.92:
        desk.key("ctrl+c")
    elif r < 0.94:
        picked = common_click(ws, rng, view.content + view.common)
        if picked and picked[0] == "page tab":
            ws.doc = ws.docs.index(picked[1])
            ws.editor_show(modified=False)
    else:
        _odd_click(ws, window, rng)


def _terminal(ws: Workspace, window: Window, rng: random.Random) -> None:
    desk = ws.desk
    r = rng.random()
    if r < 0.45:
        command = rng.choice(TERMINAL_COMMANDS)
        desk.type("", "", len(command) + rng.randint(-2, 6))
        desk.wait(rng.randint(200, 1200))
        desk.key("Return")
        if rng.random() < 0.5:
            ws.term_title(command)
    elif r < 0.60:
        desk.key("Up", rng.randint(1, 4))
        desk.wait(rng.randint(300, 1500))
        desk.key("Return")
    elif r < 0.72:
        desk.scroll(rng.randint(1, 10))
    elif r < 0.84:
        desk.key(rng.choice(TERMINAL_KEYS))
    elif r < 0.92:
        desk.key("Tab", rng.randint(1, 3))
    else:
        desk.click(resolution="none")


def _sheet(ws: Workspace, window: Window, rng: random.Random) -> None:
    desk, view = ws.desk, window.view
    if not view.content:
        ws.sheet_scroll()
        view = window.view
    r = rng.random()
    if r < 0.32:
        unique_click(ws, rng)
    elif r < 0.52:
        cells = present(ws, [c for c in view.content if ("libreoffice-calc", *c) not in ws.clicked])
        if cells:
            role, label = rng.choice(cells)
            ws.clicked.add(("libreoffice-calc", role, label))
            desk.click(role, label)
            desk.wait(rng.randint(300, 1500))
            desk.type(role, label, rng.randint(1, 12))
            ws.last_c = None
            desk.wait(rng.randint(100, 700))
            desk.key(rng.choice(("Return", "Tab")))
    elif r < 0.62:
        desk.key(rng.choice(NAV_KEYS[:6]), rng.randint(1, 6))
    elif r < 0.70:
        common_click(ws, rng, [t for t in view.common if t[0] != "page tab"])
    elif r < 0.78:
        desk.key(rng.choice(CALC_KEYS))
    elif r < 0.81:
        desk.key("ctrl+c")
    elif r < 0.86:
        ws.sheet_scroll()
    elif r < 0.93:
        desk.scroll(rng.randint(1, 10))
    else:
        _odd_click(ws, window, rng)


def _files(ws: Workspace, window: Window, rng: random.Random) -> None:
    desk, view = ws.desk, window.view
    r = rng.random()
    done = False
    if r < 0.42:
        done = unique_click(ws, rng)
    elif r < 0.54:
        picked = common_click(ws, rng, [t for t in view.common if t[0] == "list item"])
        if picked:
            desk.wait(rng.randint(200, 800))
            ws.files_open(picked[1])
        done = picked is not None
    elif r < 0.60:
        done = common_click(ws, rng, [t for t in view.common if t[0] == "push button"]) is not None
    elif r < 0.70:
        desk.key(rng.choice(FILES_KEYS))
        done = True
    elif r < 0.74:
        desk.key("ctrl+c")
        done = True
    elif r < 0.78:
        _odd_click(ws, window, rng)
        done = True
    if not done:
        if rng.random() < 0.6:
            desk.scroll(rng.randint(1, 8))
        else:
            desk.key(rng.choice(NAV_KEYS[:4]), rng.randint(1, 5))


def _chat(ws: Workspace, window: Window, rng: random.Random) -> None:
    desk, view = ws.desk, window.view
    r = rng.random()
    done = False
    if r < 0.14:
        channels = [t for t in view.common if t[0] == "list item"]
        options = [t for t in present(ws, channels) if allowed(ws, ("click", "slack", *t))]
        if options:
            ws.chat_open(rng.choice(options)[1])
            ws.last_c = ("click", "slack", "list item", ws.channel)
            done = True
    elif r < 0.34:
        done = unique_click(ws, rng)
    elif r < 0.54:
        fields = [f for f in view.fields if f[1].startswith("Message #")]
        if fields and common_type(ws, *fields[0], rng.randint(4, 160)):
            desk.wait(rng.randint(200, 1200))
            desk.key("Return")
            done = True
    elif r < 0.58:
        if common_type(ws, "entry", "Search Northwind", rng.randint(3, 20)):
            desk.wait(rng.randint(300, 1500))
            desk.key("Escape")
            done = True
    elif r < 0.64:
        desk.key(rng.choice(CHAT_KEYS))
        done = True
    elif r < 0.67:
        desk.key("ctrl+c")
        done = True
    elif r < 0.71:
        _odd_click(ws, window, rng)
        done = True
    if not done:
        desk.scroll(rng.randint(1, 12))
