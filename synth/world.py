"""The synthetic desktop: two monitors, the applications on them, what a web
page is, and name generators. Pure data plus small pure functions of a
`random.Random`; nothing here keeps state. The web sites are in sites.py."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from . import words as W


@dataclass(frozen=True, slots=True)
class Monitor:
    index: int
    x: int
    y: int
    w: int
    h: int
    device: str          # nocta/screenpipe device_name

    def window_rect(self) -> tuple[int, int, int, int]:
        """A maximized window below a 32 px top bar."""
        return self.x, self.y + 32, self.w, self.h - 32


MONITORS = (Monitor(0, 0, 0, 2560, 1440, "monitor_0"), Monitor(1, 2560, 0, 1920, 1080, "monitor_1"))


@dataclass(frozen=True, slots=True)
class App:
    """An application as the X11 source reports it."""

    app: str                 # WM_CLASS class, casefolded
    wm_class: str            # "instance.Class"
    executable: str
    display: str             # nocta/screenpipe app_name
    accessible: bool = True
    excluded_by: str | None = None   # the privacy rule that hides it


FIREFOX = App("firefox", "Navigator.firefox", "/usr/lib/firefox/firefox", "Firefox")
THUNDERBIRD = App("thunderbird", "Mail.thunderbird", "/usr/lib/thunderbird/thunderbird", "Thunderbird")
GEDIT = App("gedit", "gedit.Gedit", "/usr/bin/gedit", "gedit")
TERMINAL = App("gnome-terminal-server", "gnome-terminal-server.Gnome-terminal-server",
               "/usr/libexec/gnome-terminal-server", "Terminal", accessible=False)
CALC = App("libreoffice-calc", "libreoffice.libreoffice-calc", "/usr/lib/libreoffice/program/soffice.bin",
           "LibreOffice Calc")
NAUTILUS = App("nautilus", "nautilus.Nautilus", "/usr/bin/nautilus", "Files")
SLACK = App("slack", "slack.Slack", "/usr/lib/slack/slack", "Slack")
KEEPASS = App("keepassxc", "keepassxc.KeePassXC", "/usr/bin/keepassxc", "KeePassXC",
              excluded_by="password managers")

ACCOUNT = "alex.brandt@northwind.example"
USER = "alex"
HOST = "workstation"


# -- web pages ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Page:
    """One page the browser shows."""

    url: str
    title: str
    content: tuple[str, ...]      # names of the content links on it
    heading: str = ""
    distinct: bool = True         # the title is drawn from a large space (ids, numbers)


PageMaker = Callable[[random.Random], Page]


@dataclass(frozen=True, slots=True)
class Site:
    """A web site: its site key (what `compiler.pages.site_of` files it
    under), how often the user goes there, its fixed navigation and pages."""

    key: str
    name: str
    weight: float
    nav: tuple[str, ...]           # navigation links present on every page
    buttons: tuple[str, ...]       # push buttons present on every page
    search: str | None             # label of the site's search field
    pages: tuple[PageMaker, ...]


def repo(r: random.Random) -> str:
    return f"{r.choice(W.ORGS)}/{r.choice(W.REPOS)}"


def issue_title(r: random.Random) -> str:
    return f"{r.choice(W.VERBS)} {r.choice(W.OBJECTS)}{r.choice(W.QUALIFIERS)}"


def person(r: random.Random) -> str:
    return f"{r.choice(W.FIRST_NAMES)} {r.choice(W.LAST_NAMES)}"


def handle(r: random.Random) -> str:
    return f"{r.choice(W.FIRST_NAMES).lower()}{r.choice(W.LAST_NAMES).lower()[:3]}{r.randint(1, 99)}"


def subject(r: random.Random) -> str:
    tail = r.choice((f" #{r.randint(1000, 9999)}",
                     f" ({r.choice(('March', 'April', 'May'))} {r.randint(1, 31)})",
                     f" - {r.choice(W.FIRST_NAMES)} {r.choice(W.LAST_NAMES)}",
                     f" [{r.choice(W.REPOS)}-{r.randint(10, 999)}]"))
    return f"{r.choice(W.EMAIL_PREFIXES)}{r.choice(W.TOPICS)}{tail}"


def file_name(r: random.Random) -> str:
    stem = r.choice(W.FILE_STEMS)
    middle = r.choice((f"-2026-{r.randint(1, 5):02d}-{r.randint(1, 28):02d}", f"-{r.randint(1, 999)}",
                       f"_{r.choice(W.ORGS)}-{r.randint(1, 99)}", f"-v{r.randint(1, 9)}.{r.randint(0, 20)}"))
    return f"{stem}{middle}{r.choice(W.FILE_EXTS)}"


def slug(text: str) -> str:
    out = "".join(ch.lower() if ch.isalnum() else "-" for ch in text)
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")


def hex_id(r: random.Random, n: int) -> str:
    return "".join(r.choice("0123456789abcdef") for _ in range(n))


_ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"


def ident(r: random.Random, n: int) -> str:
    return "".join(r.choice(_ID_CHARS) for _ in range(n))


def many(r: random.Random, make: Callable[[random.Random], str], lo: int, hi: int) -> tuple[str, ...]:
    """Between lo and hi distinct names from `make`."""
    names: list[str] = []
    for _ in range(r.randint(lo, hi)):
        name = make(r)
        if name not in names:
            names.append(name)
    return tuple(names)
