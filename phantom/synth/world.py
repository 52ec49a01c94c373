"""The synthetic desktop: two monitors, the applications on them and the web
sites the browser visits, with URL and title generators. Pure data plus small
pure functions of a `random.Random`; nothing here keeps state."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
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

DESKTOP_APPS = (FIREFOX, THUNDERBIRD, GEDIT, TERMINAL, CALC, NAUTILUS, SLACK)
ACCOUNT = "alex.brandt@northwind.example"
USER = "alex"
HOST = "workstation"


# -- web ----------------------------------------------------------------------------------
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


def _n(r: random.Random, lo: int, hi: int) -> int:
    return r.randint(lo, hi)


def repo(r: random.Random) -> str:
    return f"{r.choice(W.ORGS)}/{r.choice(W.REPOS)}"


def issue_title(r: random.Random) -> str:
    return f"{r.choice(W.VERBS)} {r.choice(W.OBJECTS)}{r.choice(W.QUALIFIERS)}"


def person(r: random.Random) -> str:
    return f"{r.choice(W.FIRST_NAMES)} {r.choice(W.LAST_NAMES)}"


def handle(r: random.Random) -> str:
    return f"{r.choice(W.FIRST_NAMES).lower()}{r.choice(W.LAST_NAMES).lower()[:3]}{r.randint(1, 99)}"


def subject(r: random.Random) -> str:
    tail = r.choice((f" #{r.randint(1000, 9999)}", f" ({r.choice(('March', 'April', 'May'))} {r.randint(1, 31)})",
                     f" - {r.choice(W.FIRST_NAMES)} {r.choice(W.LAST_NAMES)}", f" [{r.choice(W.REPOS)}-{r.randint(10, 999)}]"))
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


def _hex(r: random.Random, n: int) -> str:
    return "".join(r.choice("0123456789abcdef") for _ in range(n))


def _ident(r: random.Random, n: int) -> str:
    return "".join(r.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") for _ in range(n))


def _many(r: random.Random, make: Callable[[random.Random], str], lo: int, hi: int) -> tuple[str, ...]:
    names: list[str] = []
    for _ in range(_n(r, lo, hi)):
        name = make(r)
        if name not in names:
            names.append(name)
    return tuple(names)


def _commit(r: random.Random) -> str:
    return f"{issue_title(r)} ({_hex(r, 7)})"


def _gh_repo(r):
    name = repo(r)
    return Page(f"https://github.com/{name}", f"GitHub - {name}: {r.choice(W.OBJECTS).capitalize()} service",
                _many(r, file_name, 18, 30) + _many(r, _commit, 6, 12), name)


def _gh_pr(r):
    name, number, title = repo(r), _n(r, 10, 4999), issue_title(r)
    return Page(f"https://github.com/{name}/pull/{number}",
                f"{title} by {handle(r)} · Pull Request #{number} · {name}",
                _many(r, _commit, 3, 12) + _many(r, file_name, 4, 14), title)


def _gh_issue(r):
    name, number, title = repo(r), _n(r, 10, 4999), issue_title(r)
    return Page(f"https://github.com/{name}/issues/{number}", f"{title} · Issue #{number} · {name}",
                _many(r, person, 4, 12) + _many(r, issue_title, 3, 8), title)


def _gh_list(r):
    name, kind = repo(r), r.choice(("pulls", "issues"))
    label = "Pull requests" if kind == "pulls" else "Issues"
    return Page(f"https://github.com/{name}/{kind}", f"{label} · {name}",
                tuple(f"{t} #{_n(r, 10, 4999)}" for t in _many(r, issue_title, 20, 35)), label)


def _gh_actions(r):
    name, run = repo(r), _n(r, 1000000, 9999999)
    return Page(f"https://github.com/{name}/actions/runs/{run}",
                f"{issue_title(r)} · {name}@{_hex(r, 7)}", _many(r, lambda q: f"{r.choice(('test', 'lint', 'build', 'deploy'))} ({r.choice(('3.11', '3.12', 'ubuntu-latest', 'arm64'))}) #{r.randint(1, 9999)}", 4, 10))


def _google_search(r):
    q = f"{r.choice(W.SEARCH_TERMS)} {r.choice(W.SEARCH_EXTRA)}"
    results = tuple(f"{t} - {s} ({r.randint(2, 999)})" for t, s in zip(_many(r, lambda q2: r.choice(W.WIKI_TOPICS + W.SEARCH_TERMS), 8, 12),
                                                 (r.choice(("Stack Overflow", "Wikipedia", "GitHub", "Reddit", "Medium", "docs.python.org")) for _ in range(12))))
    return Page(f"https://www.google.com/search?q={q.replace(' ', '+')}", f"{q} - Google Search", results, q)


def _gdocs(r):
    name = f"{r.choice(W.TOPICS).capitalize()} {r.choice(('notes', 'draft', 'plan', 'review', 'summary'))} {r.randint(2, 99)}"
    if r.random() < 0.5:
        return Page(f"https://docs.google.com/document/d/{_ident(r, 44)}/edit", f"{name} - Google Docs",
                    _many(r, lambda q: f"{r.choice(W.TOPICS).capitalize()} §{r.randint(1, 400)}", 6, 14), name)
    return Page(f"https://docs.google.com/spreadsheets/d/{_ident(r, 44)}/edit#gid={_n(r, 0, 99999)}",
                f"{name} - Google Sheets", _many(r, lambda q: f"{r.choice(W.TOPICS).capitalize()} row {r.randint(2, 4000)}", 4, 12), name)


def _gmail(r):
    unread = _n(r, 0, 40)
    return Page(f"https://mail.google.com/mail/u/0/#{r.choice(('inbox', 'inbox', 'sent', 'starred'))}",
                f"Inbox ({unread}) - alex.brandt.private@gmail.com - Gmail", _many(r, subject, 25, 45), "Inbox")


def _gcal(r):
    return Page(f"https://calendar.google.com/calendar/u/0/r/week/2026/{_n(r, 3, 5)}/{_n(r, 1, 28)}",
                f"Google Calendar - Week of {r.choice(('March', 'April', 'May'))} {_n(r, 1, 28)}, 2026",
                _many(r, lambda q: f"{r.choice(W.TOPICS).capitalize()}, {r.choice(('Mon', 'Tue', 'Wed', 'Thu', 'Fri'))} {_n(r, 8, 17)}:{r.choice(('00', '15', '30', '45'))} ({r.choice(W.FIRST_NAMES)})", 8, 20))


def _gdrive(r):
    return Page(f"https://drive.google.com/drive/folders/{_ident(r, 33)}", f"{r.choice(W.TOPICS).capitalize()} - Google Drive",
                _many(r, file_name, 15, 35))


def _youtube(r):
    title = f"{r.choice(W.VIDEO_TOPICS)}{r.choice(('', ' (2026)', ' - full talk', ' | part 2', ' explained'))}"
    return Page(f"https://www.youtube.com/watch?v={_ident(r, 11)}", f"{title} - YouTube",
                _many(r, lambda q: f"{r.choice(W.VIDEO_TOPICS)} #{r.randint(1, 300)}", 12, 20), title)


def _so(r):
    q = f"How to {r.choice(W.VERBS).lower()} {r.choice(W.OBJECTS)} in {r.choice(('Python', 'SQLite', 'bash', 'JavaScript', 'Rust'))}"
    n = _n(r, 10000000, 79999999)
    return Page(f"https://stackoverflow.com/questions/{n}/{slug(q)}", f"{q}? - Stack Overflow",
                _many(r, lambda q2: f"How to {r.choice(W.SEARCH_TERMS)}? ({r.randint(0, 400)} votes)", 10, 16), q)


def _wiki(r):
    t = r.choice(W.WIKI_TOPICS)
    return Page(f"https://en.wikipedia.org/wiki/{t.replace(' ', '_')}", f"{t} - Wikipedia",
                _many(r, lambda q: r.choice((f"{r.choice(W.WIKI_TOPICS)} ({r.choice(W.SEARCH_EXTRA)})", f"[{r.randint(1, 400)}] {r.choice(W.LAST_NAMES)} {r.randint(1950, 2025)}")), 25, 40), t)


def _jira_issue(r):
    key, title = f"NW-{_n(r, 100, 2999)}", issue_title(r)
    return Page(f"https://northwind.atlassian.net/browse/{key}", f"[{key}] {title} - Jira",
                tuple(f"NW-{_n(r, 100, 2999)} {t}" for t in _many(r, issue_title, 5, 12)), title)


def _jira_board(r):
    return Page(f"https://northwind.atlassian.net/jira/software/projects/NW/boards/{_n(r, 1, 9)}",
                "NW board - Agile Board - Jira",
                tuple(f"NW-{_n(r, 100, 2999)} {t}" for t in _many(r, issue_title, 25, 40)), "NW board")


def _slack_web(r):
    ch = r.choice(W.CHANNELS)
    return Page(f"https://app.slack.com/client/T0{_hex(r, 8).upper()}/C0{_hex(r, 8).upper()}",
                f"{ch} (Channel) - Northwind - Slack", _many(r, lambda q: f"{person(r)}: {r.choice(W.SLACK_PHRASES)} ({r.randint(8, 18)}:{r.randint(0, 59):02d})", 8, 15), ch)


def _linkedin(r):
    if r.random() < 0.4:
        return Page("https://www.linkedin.com/feed/", "Feed | LinkedIn",
                    _many(r, lambda q: f"{person(r)} · {r.choice(W.TOPICS)} ({r.randint(2, 900)} reactions)", 10, 18), "Feed",
                    distinct=False)
    p = person(r)
    return Page(f"https://www.linkedin.com/in/{slug(p)}-{_hex(r, 6)}/", f"{p} | LinkedIn",
                _many(r, lambda q: f"{r.choice(W.ORGS).capitalize()} · {r.choice(('Engineer', 'Manager', 'Designer', 'Analyst'))} · {r.randint(2008, 2026)}", 4, 10), p)


def _arxiv(r):
    n = f"26{_n(r, 1, 5):02d}.{_n(r, 1000, 29999):05d}"
    t = f"{r.choice(('On', 'Towards', 'Learning', 'Measuring', 'Scaling'))} {r.choice(W.PAPER_TOPICS)}"
    return Page(f"https://arxiv.org/abs/{n}", f"[{n}] {t}", _many(r, person, 3, 8) + ("View PDF", "HTML (experimental)"), t)


def _pypi(r):
    pkg = r.choice(("apsw", "orjson", "rapidfuzz", "pynput", "mss", "pillow", "dbus-fast", "mcp", "numpy",
                    "pytest", "hypothesis", "python-xlib", "sentence-transformers", "httpx", "rich"))
    return Page(f"https://pypi.org/project/{pkg}/", f"{pkg} · PyPI",
                _many(r, lambda q: f"{pkg} {r.randint(0, 9)}.{r.randint(0, 40)}.{r.randint(0, 9)}", 5, 15), pkg)


def _npm(r):
    pkg = r.choice(("react", "vite", "typescript", "eslint", "zod", "date-fns", "express", "prettier", "esbuild"))
    return Page(f"https://www.npmjs.com/package/{pkg}", f"{pkg} - npm",
                _many(r, lambda q: f"{pkg}@{r.randint(1, 20)}.{r.randint(0, 20)}.{r.randint(0, 9)}", 4, 10), pkg)


def _amazon(r):
    p = r.choice(W.PRODUCTS)
    return Page(f"https://www.amazon.de/dp/B0{_ident(r, 8).upper()}", f"Amazon.de: {p.title()} {r.choice(('Black', 'Grey', '2-pack', 'Pro'))} {_ident(r, 5).upper()}",
                _many(r, lambda q: f"{r.choice(W.PRODUCTS).title()} ({r.randint(10, 300)} €)", 10, 20), p)


def _reddit(r):
    sub = r.choice(("python", "linux", "berlin", "programming", "sqlite", "gnome", "espresso", "MechanicalKeyboards"))
    t = f"{issue_title(r)}?"
    return Page(f"https://www.reddit.com/r/{sub}/comments/{_hex(r, 6)}/{slug(t)}/", f"{t} : r/{sub}",
                _many(r, lambda q: f"{handle(r)} · {r.randint(1, 23)}h ago", 10, 25), t)


def _hn(r):
    if r.random() < 0.5:
        return Page("https://news.ycombinator.com/", "Hacker News",
                    _many(r, lambda q: f"{r.choice(('Show HN: ', 'Ask HN: ', ''))}{issue_title(r)} ({r.randint(2, 900)} points)", 25, 30),
                    distinct=False)
    t = f"{r.choice(('Show HN: ', 'Ask HN: ', ''))}{issue_title(r)} ({r.choice(('2026', 'blog', 'pdf', 'video'))})"
    return Page(f"https://news.ycombinator.com/item?id={_n(r, 43000000, 45999999)}", f"{t} | Hacker News",
                _many(r, lambda q: f"{handle(r)} {r.randint(1, 59)} minutes ago", 15, 30), t)


def _notion(r):
    t = f"{r.choice(W.TOPICS).capitalize()} — {r.choice(W.FIRST_NAMES)}'s {r.choice(('notes', 'draft', 'checklist', 'log'))}"
    return Page(f"https://www.notion.so/northwind/{slug(t).title().replace('-', '-')}-{_hex(r, 32)}", t,
                _many(r, lambda q: f"{r.choice(W.TOPICS).capitalize()} / {r.choice(W.OBJECTS)}", 6, 16), t)


def _figma(r):
    t = f"{r.choice(('Onboarding', 'Dashboard', 'Settings', 'Billing', 'Mobile app', 'Marketing site'))} {r.choice(('v2', 'redesign', 'explorations', 'handoff'))}"
    return Page(f"https://www.figma.com/design/{_ident(r, 22)}/{slug(t)}", f"{t} – Figma",
                _many(r, lambda q: f"Frame {r.randint(1, 3000)}", 8, 20), t)


def _pydocs(r):
    mod = r.choice(("sqlite3", "zoneinfo", "asyncio", "dataclasses", "argparse", "itertools", "functools",
                    "random", "hashlib", "bisect", "pathlib", "subprocess", "typing", "json"))
    return Page(f"https://docs.python.org/3/library/{mod}.html", f"{mod} — Python 3.12 documentation",
                _many(r, lambda q: f"{mod}.{r.choice(('open', 'run', 'Path', 'field', 'cache', 'choice', 'gather', 'sha256', 'chain', 'replace'))}()", 10, 25), mod)


def _mdn(r):
    prop = r.choice(("grid-template-columns", "flex-basis", "position", "Array.prototype.map", "fetch()",
                     "Promise.all()", "<details>", "aria-label", "IntersectionObserver"))
    return Page(f"https://developer.mozilla.org/en-US/docs/Web/{slug(prop)}", f"{prop} - MDN Web Docs",
                _many(r, lambda q: r.choice(("Syntax", "Examples", "Specifications", "Browser compatibility", "See also", "Values", "Description")) + f" ({r.randint(1, 999)})", 8, 14), prop)


def _apsw(r):
    page = r.choice(("cursor", "connection", "execution", "pysqlite", "tips", "example", "vfs", "exceptions"))
    return Page(f"https://rogerbinns.github.io/apsw/{page}.html", f"{page.capitalize()} - APSW documentation",
                _many(r, lambda q: f"{page.capitalize()}.{r.choice(('execute', 'executemany', 'pragma', 'close', 'backup', 'changes'))} (line {r.randint(1, 3000)})", 10, 20), page)


def _localhost(r):
    view = r.choice(("dashboard", "routines", "programs", "runs", "settings"))
    return Page(f"http://localhost:8000/{view}", f"Phantom dev - {view}", _many(r, lambda q: f"{view} #{r.randint(1, 5000)}", 6, 20), view)


def _heise(r):
    t = f"{r.choice(W.VIDEO_TOPICS)}: {r.choice(W.OBJECTS)} – {r.choice(('Was sich ändert', 'Ein Überblick', 'Test', 'Kommentar'))}"
    return Page(f"https://www.heise.de/news/{slug(t)}-{_n(r, 9000000, 9999999)}.html", f"{t} | heise online",
                _many(r, lambda q: f"{r.choice(W.VIDEO_TOPICS)} – {r.choice(('Update', 'Analyse', 'Test'))}", 12, 25), t)


def _bahn(r):
    dest = r.choice(("Hamburg Hbf", "München Hbf", "Leipzig Hbf", "Dresden Hbf", "Köln Hbf"))
    return Page(f"https://www.bahn.de/buchung/fahrplan/suche#sts=true&so=Berlin%20Hbf&zo={dest.replace(' ', '%20')}",
                "DB Fahrplan & Buchung", _many(r, lambda q: f"ICE {r.randint(100, 1999)} {r.randint(6, 20)}:{r.randint(0, 5)}{r.randint(0, 9)}", 6, 12), dest)


def _chatgpt(r):
    return Page(f"https://chatgpt.com/c/{_hex(r, 8)}-{_hex(r, 4)}-{_hex(r, 4)}-{_hex(r, 4)}-{_hex(r, 12)}", "ChatGPT",
                _many(r, lambda q: f"{r.choice(W.SEARCH_TERMS).capitalize()} ({r.choice(W.FIRST_NAMES)}, {r.randint(1, 28)} Mar)", 8, 20))


def _sentry(r):
    n = _n(r, 4000000000, 4999999999)
    t = f"{r.choice(('TypeError', 'KeyError', 'TimeoutError', 'IntegrityError', 'ValueError'))}: {r.choice(W.OBJECTS)} in {r.choice(W.REPOS)}"
    return Page(f"https://northwind.sentry.io/issues/{n}/", f"{t} — Sentry", _many(r, lambda q: f"{r.choice(W.REPOS)}.py in {r.choice(('handle', 'run', 'parse', 'commit'))} line {r.randint(1, 2000)}", 5, 15), t)


def _grafana(r):
    d = r.choice(("API latency", "Queue depth", "Billing jobs", "Node exporter", "Postgres"))
    return Page(f"https://grafana.northwind.io/d/{_ident(r, 9)}/{slug(d)}?orgId=1", f"{d} - Dashboards - Grafana",
                _many(r, lambda q: f"{d} panel {r.randint(1, 30)} · {r.choice(W.REPOS)} p{r.randint(50, 99)}", 6, 14), d)


def _docker(r):
    img = r.choice(("python", "postgres", "redis", "nginx", "debian", "grafana/grafana", "node"))
    return Page(f"https://hub.docker.com/_/{img}", f"{img} - Official Image | Docker Hub",
                _many(r, lambda q: f"{img}:{r.randint(1, 20)}.{r.randint(0, 9)}-{r.choice(('slim', 'alpine', 'bookworm'))}", 8, 16), img)


def _hf(r):
    m = r.choice(("sentence-transformers/all-MiniLM-L6-v2", "BAAI/bge-small-en-v1.5", "intfloat/e5-small-v2"))
    return Page(f"https://huggingface.co/{m}", f"{m} · Hugging Face", _many(r, lambda q: f"{r.choice(('config.json', 'model.safetensors', 'README.md', 'tokenizer.json'))} ({r.randint(1, 999)} kB, rev {_hex(r, 7)})", 5, 12), m)


def _plain(make: PageMaker) -> PageMaker:
    """Pages whose titles come from a small set (a product page, a docs page):
    clicking their tab would be a common target, not unique content."""
    def made(r: random.Random) -> Page:
        return replace(make(r), distinct=False)
    made.__name__ = make.__name__
    return made


_gh_list, _gmail, _gcal, _gdrive, _wiki, _jira_board, _slack_web, _pypi, _npm = map(
    _plain, (_gh_list, _gmail, _gcal, _gdrive, _wiki, _jira_board, _slack_web, _pypi, _npm))
_pydocs, _mdn, _apsw, _localhost, _bahn, _chatgpt, _grafana, _docker, _hf, _figma, _youtube = map(
    _plain, (_pydocs, _mdn, _apsw, _localhost, _bahn, _chatgpt, _grafana, _docker, _hf, _figma, _youtube))

SITES: tuple[Site, ...] = (
    Site("github.com", "GitHub", 14, ("Code", "Issues", "Pull requests", "Actions", "Projects", "Wiki", "Security", "Insights"),
         ("Star", "Fork", "Watch", "Notifications"), "Search or jump to…", (_gh_repo, _gh_pr, _gh_pr, _gh_issue, _gh_list, _gh_actions)),
    Site("google.com", "Google Search", 9, ("All", "Images", "News", "Videos", "Maps", "Shopping"), ("Google apps", "Settings"), "Search", (_google_search,)),
    Site("docs.google.com", "Google Docs", 5, ("File", "Edit", "View", "Insert", "Format", "Tools", "Extensions", "Help"),
         ("Share", "Comment history", "Show all comments"), None, (_gdocs,)),
    Site("mail.google.com", "Gmail", 4, ("Inbox", "Starred", "Snoozed", "Sent", "Drafts", "More"), ("Compose", "Refresh", "Archive", "Mark as read"), "Search mail", (_gmail,)),
    Site("calendar.google.com", "Google Calendar", 3, ("Today", "Day", "Week", "Month"), ("Create", "Previous week", "Next week"), "Search", (_gcal,)),
    Site("drive.google.com", "Google Drive", 2, ("My Drive", "Shared with me", "Recent", "Starred", "Trash"), ("New", "Grid layout"), "Search in Drive", (_gdrive,)),
    Site("youtube.com", "YouTube", 3, ("Home", "Shorts", "Subscriptions", "Library"), ("Like", "Share", "Save", "Subscribe"), "Search", (_youtube,)),
    Site("stackoverflow.com", "Stack Overflow", 7, ("Questions", "Tags", "Users", "Companies"), ("Up vote", "Down vote", "Bookmark", "Share"), "Search…", (_so,)),
    Site("wikipedia.org", "Wikipedia", 4, ("Main page", "Contents", "Current events", "Random article", "Talk", "Read", "View history"), ("Languages", "Tools"), "Search Wikipedia", (_wiki,)),
    Site("northwind.atlassian.net", "Jira", 8, ("Your work", "Projects", "Filters", "Dashboards", "Teams", "Board", "Backlog"),
         ("Create", "Assign to me", "Watch", "More actions"), "Search", (_jira_issue, _jira_issue, _jira_board)),
    Site("slack.com", "Slack (web)", 1, ("Home", "DMs", "Activity", "Later"), ("New message",), "Search Northwind", (_slack_web,)),
    Site("linkedin.com", "LinkedIn", 2, ("Home", "My Network", "Jobs", "Messaging", "Notifications"), ("Connect", "Message", "Follow"), "Search", (_linkedin,)),
    Site("arxiv.org", "arXiv", 2, ("Help", "Advanced Search", "Abstract", "Cite as"), ("Download PDF", "Bookmark"), "Search...", (_arxiv,)),
    Site("pypi.org", "PyPI", 3, ("Help", "Sponsors", "Log in", "Register", "Project description", "Release history", "Download files"), ("Copy PIP instructions",), "Search projects", (_pypi,)),
    Site("npmjs.com", "npm", 1, ("Pro", "Teams", "Pricing", "Documentation", "Readme", "Code", "Dependencies", "Versions"), ("Copy",), "Search packages", (_npm,)),
    Site("amazon.de", "Amazon", 1, ("Alle", "Angebote", "Bestseller", "Kundenservice", "Warenkorb"), ("In den Einkaufswagen", "Jetzt kaufen"), "Suche Amazon.de", (_amazon,)),
    Site("reddit.com", "Reddit", 2, ("Home", "Popular", "Explore", "All"), ("Upvote", "Downvote", "Share", "Join"), "Search Reddit", (_reddit,)),
    Site("news.ycombinator.com", "Hacker News", 3, ("new", "past", "comments", "ask", "show", "jobs", "submit"), ("login",), None, (_hn,)),
    Site("notion.so", "Notion", 3, ("Search", "Home", "Inbox", "Settings", "Templates", "Trash"), ("Share", "Add comment", "Favorite"), None, (_notion,)),
    Site("figma.com", "Figma", 2, ("Design", "Prototype", "Layers", "Assets"), ("Share", "Present", "Zoom to fit"), None, (_figma,)),
    Site("docs.python.org", "Python docs", 4, ("Index", "Modules", "Next", "Previous", "Library Reference"), ("Theme",), "Quick search", (_pydocs,)),
    Site("developer.mozilla.org", "MDN", 1, ("References", "Guides", "Plus", "Curriculum", "Blog"), ("Theme", "Language"), "Search", (_mdn,)),
    Site("rogerbinns.github.io", "APSW docs", 2, ("Index", "Next", "Previous", "Module Index"), (), "Search docs", (_apsw,)),
    Site("localhost:8000", "dev server", 3, ("Dashboard", "Routines", "Programs", "Runs", "Settings"), ("Refresh data", "Export JSON"), "Filter", (_localhost,)),
    Site("heise.de", "heise online", 2, ("News", "Tests", "Ratgeber", "Security", "Developer"), ("Kommentieren", "Teilen"), "Suche", (_heise,)),
    Site("bahn.de", "Deutsche Bahn", 1, ("Reiseauskunft", "Angebote", "Meine Reisen"), ("Suchen", "Zurück", "Weiter"), "Von", (_bahn,)),
    Site("chatgpt.com", "ChatGPT", 2, ("New chat", "Search chats", "Library"), ("Share", "Copy", "Regenerate"), "Ask anything", (_chatgpt,)),
    Site("sentry.io", "Sentry", 2, ("Issues", "Projects", "Explore", "Dashboards", "Releases"), ("Resolve", "Archive", "Assign"), "Search events", (_sentry,)),
    Site("northwind.io", "Grafana", 2, ("Home", "Dashboards", "Explore", "Alerting"), ("Refresh dashboard", "Time range", "Share dashboard"), "Search", (_grafana,)),
    Site("docker.com", "Docker Hub", 1, ("Explore", "Repositories", "Organizations", "Tags", "Overview"), ("Copy",), "Search Docker Hub", (_docker,)),
    Site("huggingface.co", "Hugging Face", 1, ("Models", "Datasets", "Spaces", "Docs", "Files and versions"), ("Like", "Use this model"), "Search models, datasets, users...", (_hf,)),
)

SITE_BY_KEY = {site.key: site for site in SITES}
SITE_KEYS = tuple(site.key for site in SITES)
SITE_WEIGHTS = tuple(site.weight for site in SITES)
