"""Background activity: the synthetic user's ordinary work between planted
routines. Every target comes from a view's noise lists (`common`,
`content`, `fields`, `zones`) and keys from the lists below, none of which
contains a step a planted routine relies on, so noise cannot reproduce a
routine. Most clicks land on content whose names are drawn from large pools
(mail subjects, page links, file names), so accidental repeats stay rare."""

from __future__ import annotations

import random

from .desk import Desk, Window
from .workspace import JIRA, Workspace
from .world import SITE_BY_KEY, SITE_KEYS, SITE_WEIGHTS

APP_WEIGHTS = {"firefox": 40, "thunderbird": 12, "gedit": 13, "gnome-terminal-server": 10,
               "libreoffice-calc": 8, "nautilus": 6, "slack": 11}
VIA = ("pointer", "alttab", "click")
VIA_WEIGHTS = (45, 35, 20)
BROWSER_KEYS = ("ctrl+f", "Escape", "F5", "ctrl+d", "ctrl+l", "ctrl+plus", "ctrl+minus")
NAV_KEYS = ("Down", "Up", "Page_Down", "Page_Up", "space", "Tab", "Left", "Right", "Home", "End")
MAIL_KEYS = ("Delete", "ctrl+r", "ctrl+shift+k", "F5")
EDITOR_KEYS = ("ctrl+s", "ctrl+z", "ctrl+f", "ctrl+v", "Return", "ctrl+shift+z", "F9", "BackSpace")
TERMINAL_KEYS = ("ctrl+l", "ctrl+shift+c", "ctrl+shift+v", "ctrl+r", "ctrl+d")
CALC_KEYS = ("Return", "ctrl+s", "ctrl+z", "ctrl+v", "Delete", "F2", "ctrl+shift+v", "Escape")
FILES_KEYS = ("Return", "Delete", "F2", "ctrl+l", "ctrl+v", "ctrl+h")
CHAT_KEYS = ("ctrl+k", "Escape", "alt+Up", "ctrl+shift+a")


def gap(desk: Desk, rng: random.Random) -> None:
    """The pause between two actions, sometimes a read with scrolling, now and
    then longer than the 90 s session gap (but never long enough to idle)."""
    r = rng.random()
    if rng.random() < 0.45 and desk.focus is not None and desk.excluded_since is None:
        desk.wait(rng.randint(400, 3000))
        if rng.random() < 0.7:
            desk.scroll(rng.randint(1, 8))
        else:
            desk.key(rng.choice(NAV_KEYS), rng.randint(1, 4))
    if r < 0.74:
        desk.wait(rng.randint(800, 6000))
    elif r < 0.91:
        desk.wait(rng.randint(6000, 20000))
    elif r < 0.985:
        read(desk, rng, rng.randint(20000, 70000))
    else:
        read(desk, rng, rng.randint(95000, 180000))


def read(desk: Desk, rng: random.Random, ms: int) -> None:
    """Reading: scroll or move through the page every 10–40 s, nothing else."""
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


def pick_app(ws: Workspace, rng: random.Random, avoid: frozenset[str] = frozenset()) -> Window:
    names = [w for w in ws.apps if w.app.app not in avoid and w is not ws.desk.focus]
    weights = [APP_WEIGHTS[w.app.app] for w in names]
    return rng.choices(names, weights=weights, k=1)[0]


def visit(ws: Workspace, rng: random.Random, *, avoid: frozenset[str] = frozenset(), actions: int | None = None,
          window: Window | None = None, via: str | None = None) -> Window:
    """Switch to an application and do a few ordinary things there."""
    desk = ws.desk
    target = window or pick_app(ws, rng, avoid)
    desk.focus_window(target, via=via or rng.choices(VIA, weights=VIA_WEIGHTS, k=1)[0])
    gap_short(desk, rng)
    for _ in range(actions if actions is not None else rng.randint(1, 11)):
        act(ws, rng)
        gap(desk, rng)
    return target


def gap_short(desk: Desk, rng: random.Random) -> None:
    desk.wait(rng.randint(700, 6000))


def act(ws: Workspace, rng: random.Random) -> None:
    """One ordinary thing in whatever has focus."""
    window = ws.desk.focus
    if window is None:
        return
    {"firefox": _browser, "thunderbird": _mail, "gedit": _editor, "gnome-terminal-server": _terminal,
     "libreoffice-calc": _sheet, "nautilus": _files, "slack": _chat}[window.app.app](ws, window, rng)


def present(ws: Workspace, targets) -> list:
    """The targets that the focused window's current tree really contains
    (a long page is cut at 400 nodes, like the capturer's walk)."""
    window = ws.desk.focus
    if window is None or window.tree is None:
        return []
    return [t for t in targets if ws.desk.has_node(window, *t)]


def content_click(ws: Workspace, rng: random.Random) -> bool:
    """Click one content item (a name from a large pool); False when the
    focused window has none."""
    window = ws.desk.focus
    if window is None or not window.view.content or not window.app.accessible:
        return False
    targets = present(ws, [t for t in window.view.content if t[0] != "page tab"])
    if not targets:
        return False
    role, label = rng.choice(targets)
    ws.desk.click(role, label, resolution="exact" if rng.random() < 0.9 else "tolerance")
    return True


def _click(ws: Workspace, targets, rng: random.Random) -> tuple[str, str] | None:
    targets = present(ws, targets)
    if not targets:
        return None
    role, label = rng.choice(targets)
    r = rng.random()
    ws.desk.click(role, label, resolution="exact" if r < 0.9 else "tolerance")
    return role, label


def _odd_click(ws: Workspace, window: Window, rng: random.Random) -> None:
    """A click that resolves only to a container, or to nothing."""
    if window.view.zones and rng.random() < 0.6:
        role, label = rng.choice(window.view.zones)
        ws.desk.click(role, label, resolution="zone")
    else:
        ws.desk.click(resolution="none")


# -- per application ---------------------------------------------------------------------------------
def _browser(ws: Workspace, window: Window, rng: random.Random) -> None:
    desk, view = ws.desk, window.view
    links = [t for t in view.content if t[0] == "link"]
    tabs = [i for i in range(len(ws.tabs)) if i != ws.active and ws.tabs[i].site]
    r = rng.random()
    if r < 0.30 and links:
        _click(ws, links, rng)
        if rng.random() < 0.7 and ws.site in SITE_BY_KEY:
            ws.go(ws.new_page(ws.site), ws.site)
    elif r < 0.40:
        picked = _click(ws, view.common, rng)
        if picked and rng.random() < 0.4 and ws.site in SITE_BY_KEY:
            ws.go(ws.new_page(ws.site), ws.site)
    elif r < 0.62:
        desk.scroll(rng.randint(1, 15))
    elif r < 0.68 and ws.site in SITE_BY_KEY and SITE_BY_KEY[ws.site].search:
        desk.type("entry", SITE_BY_KEY[ws.site].search, rng.randint(4, 30))
        desk.wait(rng.randint(200, 1500))
        desk.key("Return")
        ws.go(ws.new_page(ws.site), ws.site)
    elif r < 0.74:
        desk.key(rng.choice(BROWSER_KEYS))
    elif r < 0.78:
        desk.key(rng.choice(NAV_KEYS), rng.randint(1, 6))
    elif r < 0.80:
        desk.key("ctrl+c")
    elif r < 0.87 and tabs:
        ws.select_tab(rng.choice(tabs))
    elif r < 0.90:
        ws.open_tab(rng.choices(SITE_KEYS, weights=SITE_WEIGHTS, k=1)[0])
    elif r < 0.93:
        name = rng.choice(("GitHub", "Jira", "Gmail", "Calendar", "Docs", "Hacker News", "Grafana", "Sentry"))
        site = {"GitHub": "github.com", "Jira": JIRA, "Gmail": "mail.google.com", "Calendar": "calendar.google.com",
                "Docs": "docs.google.com", "Hacker News": "news.ycombinator.com", "Grafana": "northwind.io",
                "Sentry": "sentry.io"}[name]
        desk.click("push button", name)
        ws.go(ws.new_page(site), site)
    elif r < 0.95 and len(ws.tabs) > 4:
        ws.close_tab()
    else:
        _odd_click(ws, window, rng)
    if len(ws.tabs) > 12 and ws.active != 0:
        desk.wait(rng.randint(1000, 4000))
        ws.close_tab()


def _mail(ws: Workspace, window: Window, rng: random.Random) -> None:
    desk, view = ws.desk, window.view
    r = rng.random()
    if r < 0.40:
        _click(ws, view.content, rng)
    elif r < 0.58:
        desk.scroll(rng.randint(1, 10))
    elif r < 0.68:
        folder = [t for t in view.common if t[0] == "tree item"]
        picked = _click(ws, folder, rng)
        if picked:
            desk.wait(rng.randint(200, 800))
            ws.mail_refresh(picked[1])
    elif r < 0.76:
        _click(ws, [t for t in view.common if t[0] == "push button"], rng)
    elif r < 0.82:
        desk.key(rng.choice(MAIL_KEYS))
    elif r < 0.91:
        desk.key(rng.choice(("Down", "Up", "Page_Down")), rng.randint(1, 8))
    elif r < 0.95 and view.fields:
        desk.type(*view.fields[0], rng.randint(3, 16))
        desk.wait(rng.randint(300, 1500))
        desk.key("Return")
    else:
        _odd_click(ws, window, rng)


def _editor(ws: Workspace, window: Window, rng: random.Random) -> None:
    desk, view = ws.desk, window.view
    r = rng.random()
    if r < 0.42:
        desk.type("text", "", rng.randint(3, 140))
        if not window.state.get("modified"):
            ws.editor_show(modified=True)
    elif r < 0.58:
        desk.key(rng.choice(NAV_KEYS[:6]), rng.randint(1, 9))
    elif r < 0.68:
        desk.key(rng.choice(EDITOR_KEYS))
        if window.state.get("modified") and rng.random() < 0.5:
            desk.key("ctrl+s")
            ws.editor_show(modified=False)
    elif r < 0.76:
        desk.scroll(rng.randint(1, 8))
    elif r < 0.82 and present(ws, view.content):
        role, label = rng.choice(present(ws, view.content))
        desk.click(role, label)
        ws.doc = ws.docs.index(label)
        ws.editor_show(modified=False)
    elif r < 0.86:
        desk.key("ctrl+c")
    elif r < 0.92:
        _click(ws, view.common, rng)
    else:
        _odd_click(ws, window, rng)


def _terminal(ws: Workspace, window: Window, rng: random.Random) -> None:
    from .workspace import TERMINAL_COMMANDS
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
    r = rng.random()
    if r < 0.32:
        _click(ws, view.content, rng)
    elif r < 0.50 and present(ws, view.content[:40]):
        role, label = rng.choice(present(ws, view.content[:40]))
        desk.click(role, label)
        desk.wait(rng.randint(300, 1500))
        desk.type(role, label, rng.randint(1, 12))
        desk.wait(rng.randint(100, 700))
        desk.key(rng.choice(("Return", "Tab")))
    elif r < 0.60:
        desk.key(rng.choice(NAV_KEYS[:6]), rng.randint(1, 6))
    elif r < 0.70:
        _click(ws, [t for t in view.common if t[0] != "page tab"], rng)
    elif r < 0.78:
        desk.key(rng.choice(CALC_KEYS))
    elif r < 0.81:
        desk.key("ctrl+c")
    elif r < 0.86:
        others = [t[1] for t in view.common if t[0] == "page tab"]
        ws.sheet_select(rng.choice(others))
    elif r < 0.93:
        desk.scroll(rng.randint(1, 10))
    else:
        _odd_click(ws, window, rng)


def _files(ws: Workspace, window: Window, rng: random.Random) -> None:
    desk, view = ws.desk, window.view
    r = rng.random()
    if r < 0.40:
        _click(ws, view.content, rng)
    elif r < 0.55:
        picked = _click(ws, [t for t in view.common if t[0] == "list item"], rng)
        if picked:
            desk.wait(rng.randint(200, 800))
            ws.files_open(picked[1])
    elif r < 0.62:
        _click(ws, [t for t in view.common if t[0] == "push button"], rng)
    elif r < 0.76:
        desk.scroll(rng.randint(1, 8))
    elif r < 0.86:
        desk.key(rng.choice(FILES_KEYS))
    elif r < 0.90:
        desk.key("ctrl+c")
    elif r < 0.96:
        desk.key(rng.choice(NAV_KEYS[:4]), rng.randint(1, 5))
    else:
        _odd_click(ws, window, rng)


def _chat(ws: Workspace, window: Window, rng: random.Random) -> None:
    desk, view = ws.desk, window.view
    r = rng.random()
    if r < 0.16:
        channels = [t[1] for t in view.common if t[0] == "list item"]
        ws.chat_open(rng.choice(channels))
    elif r < 0.32:
        _click(ws, view.content, rng)
    elif r < 0.52:
        fields = [f for f in view.fields if f[1].startswith("Message #")]
        if fields:
            desk.type(*fields[0], rng.randint(4, 160))
            desk.wait(rng.randint(200, 1200))
            desk.key("Return")
        else:
            desk.scroll(rng.randint(1, 6))
    elif r < 0.76:
        desk.scroll(rng.randint(1, 12))
    elif r < 0.82:
        desk.type("entry", "Search Northwind", rng.randint(3, 20))
        desk.wait(rng.randint(300, 1500))
        desk.key("Escape")
    elif r < 0.88:
        desk.key(rng.choice(CHAT_KEYS))
    elif r < 0.92:
        desk.key("ctrl+c")
    else:
        _odd_click(ws, window, rng)
