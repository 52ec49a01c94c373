"""The web sites the synthetic browser visits: ~30 sites across code
hosting, search, Google apps, video, Q&A, reference, tickets, chat, social,
papers, package registries, shopping, news, docs and dev tools. Each has a
site key (what `compiler.pages.site_of` files its URLs under), a weight, its
navigation, and page makers that draw a URL, a title and the page's content
links from the word pools.

A page's `distinct` flag says whether its title comes from a large space
(an id, a number, a generated phrase): only such tabs count as unique
content when clicked (see noise.py)."""

from __future__ import annotations

import random
from dataclasses import replace

from . import words as W
from .world import Page, PageMaker, Site, file_name, handle, hex_id, ident, issue_title, many, person, repo
from .world import slug, subject


def _pick(r: random.Random, *options: str) -> str:
    return r.choice(options)


# -- code -------------------------------------------------------------------------------------------
def _commit(r):
    return f"{issue_title(r)} ({hex_id(r, 7)})"


def _gh_repo(r):
    name = repo(r)
    return Page(f"https://github.com/{name}",
                f"GitHub - {name}: {r.choice(W.OBJECTS).capitalize()} service",
                many(r, file_name, 18, 30) + many(r, _commit, 6, 12), name)


def _gh_pr(r):
    name, number, title = repo(r), r.randint(10, 4999), issue_title(r)
    return Page(f"https://github.com/{name}/pull/{number}",
                f"{title} by {handle(r)} · Pull Request #{number} · {name}",
                many(r, _commit, 3, 12) + many(r, file_name, 4, 14), title)


def _gh_issue(r):
    name, number, title = repo(r), r.randint(10, 4999), issue_title(r)
    return Page(f"https://github.com/{name}/issues/{number}", f"{title} · Issue #{number} · {name}",
                many(r, person, 4, 12) + many(r, issue_title, 3, 8), title)


def _gh_list(r):
    name, kind = repo(r), r.choice(("pulls", "issues"))
    label = "Pull requests" if kind == "pulls" else "Issues"
    items = tuple(f"{t} #{r.randint(10, 4999)}" for t in many(r, issue_title, 20, 35))
    return Page(f"https://github.com/{name}/{kind}", f"{label} · {name}", items, label)


def _gh_job(r):
    return (f"{_pick(r, 'test', 'lint', 'build', 'deploy')} "
            f"({_pick(r, '3.11', '3.12', 'ubuntu-latest', 'arm64')}) #{r.randint(1, 9999)}")


def _gh_actions(r):
    name = repo(r)
    return Page(f"https://github.com/{name}/actions/runs/{r.randint(1000000, 9999999)}",
                f"{issue_title(r)} · {name}@{hex_id(r, 7)}", many(r, _gh_job, 4, 10))


# -- Google ------------------------------------------------------------------------------------------
def _result(r):
    source = _pick(r, "Stack Overflow", "Wikipedia", "GitHub", "Reddit", "Medium", "docs.python.org")
    return f"{r.choice(W.WIKI_TOPICS + W.SEARCH_TERMS)} - {source} ({r.randint(2, 999)})"


def _google_search(r):
    q = f"{r.choice(W.SEARCH_TERMS)} {r.choice(W.SEARCH_EXTRA)}"
    return Page(f"https://www.google.com/search?q={q.replace(' ', '+')}", f"{q} - Google Search",
                many(r, _result, 8, 12), q)


def _gdocs(r):
    name = f"{r.choice(W.TOPICS).capitalize()} {_pick(r, 'notes', 'draft', 'plan', 'review', 'summary')} " \
           f"{r.randint(2, 99)}"
    if r.random() < 0.5:
        return Page(f"https://docs.google.com/document/d/{ident(r, 44)}/edit", f"{name} - Google Docs",
                    many(r, lambda q: f"{r.choice(W.TOPICS).capitalize()} §{r.randint(1, 400)}", 6, 14), name)
    return Page(f"https://docs.google.com/spreadsheets/d/{ident(r, 44)}/edit#gid={r.randint(0, 99999)}",
                f"{name} - Google Sheets",
                many(r, lambda q: f"{r.choice(W.TOPICS).capitalize()} row {r.randint(2, 4000)}", 4, 12), name)


def _gmail(r):
    return Page(f"https://mail.google.com/mail/u/0/#{_pick(r, 'inbox', 'inbox', 'sent', 'starred')}",
                f"Inbox ({r.randint(0, 40)}) - alex.brandt.private@gmail.com - Gmail",
                many(r, subject, 25, 45), "Inbox")


def _event(r):
    return (f"{r.choice(W.TOPICS).capitalize()}, {_pick(r, 'Mon', 'Tue', 'Wed', 'Thu', 'Fri')} "
            f"{r.randint(8, 17)}:{_pick(r, '00', '15', '30', '45')} ({r.choice(W.FIRST_NAMES)})")


def _gcal(r):
    month, day = r.randint(3, 5), r.randint(1, 28)
    return Page(f"https://calendar.google.com/calendar/u/0/r/week/2026/{month}/{day}",
                f"Google Calendar - Week of {('March', 'April', 'May')[month - 3]} {day}, 2026",
                many(r, _event, 8, 20))


def _gdrive(r):
    return Page(f"https://drive.google.com/drive/folders/{ident(r, 33)}",
                f"{r.choice(W.TOPICS).capitalize()} - Google Drive", many(r, file_name, 15, 35))


# -- video, Q&A, reference ---------------------------------------------------------------------------
def _youtube(r):
    title = f"{r.choice(W.VIDEO_TOPICS)}{_pick(r, '', ' (2026)', ' - full talk', ' | part 2', ' explained')}"
    return Page(f"https://www.youtube.com/watch?v={ident(r, 11)}", f"{title} - YouTube",
                many(r, lambda q: f"{r.choice(W.VIDEO_TOPICS)} #{r.randint(1, 300)}", 12, 20), title)


def _so(r):
    language = _pick(r, "Python", "SQLite", "bash", "JavaScript", "Rust")
    q = f"How to {r.choice(W.VERBS).lower()} {r.choice(W.OBJECTS)} in {language}"
    related = many(r, lambda q2: f"How to {r.choice(W.SEARCH_TERMS)}? ({r.randint(0, 400)} votes)", 10, 16)
    return Page(f"https://stackoverflow.com/questions/{r.randint(10000000, 79999999)}/{slug(q)}",
                f"{q}? - Stack Overflow", related, q)


def _wiki_link(r):
    if r.random() < 0.5:
        return f"{r.choice(W.WIKI_TOPICS)} ({r.choice(W.SEARCH_EXTRA)})"
    return f"[{r.randint(1, 400)}] {r.choice(W.LAST_NAMES)} {r.randint(1950, 2025)}"


def _wiki(r):
    t = r.choice(W.WIKI_TOPICS)
    return Page(f"https://en.wikipedia.org/wiki/{t.replace(' ', '_')}", f"{t} - Wikipedia",
                many(r, _wiki_link, 25, 40), t)


def _pydocs(r):
    mod = r.choice(("sqlite3", "zoneinfo", "asyncio", "dataclasses", "argparse", "itertools", "functools",
                    "random", "hashlib", "bisect", "pathlib", "subprocess", "typing", "json"))
    names = ("open", "run", "Path", "field", "cache", "choice", "gather", "sha256", "chain", "replace")
    return Page(f"https://docs.python.org/3/library/{mod}.html", f"{mod} — Python 3.12 documentation",
                many(r, lambda q: f"{mod}.{r.choice(names)}() (line {r.randint(1, 900)})", 10, 25), mod)


def _mdn(r):
    prop = r.choice(("grid-template-columns", "flex-basis", "position", "Array.prototype.map", "fetch()",
                     "Promise.all()", "<details>", "aria-label", "IntersectionObserver"))
    parts = ("Syntax", "Examples", "Specifications", "Browser compatibility", "See also", "Values", "Description")
    return Page(f"https://developer.mozilla.org/en-US/docs/Web/{slug(prop)}", f"{prop} - MDN Web Docs",
                many(r, lambda q: f"{r.choice(parts)} ({r.randint(1, 999)})", 8, 14), prop)


def _apsw(r):
    page = r.choice(("cursor", "connection", "execution", "pysqlite", "tips", "example", "vfs", "exceptions"))
    calls = ("execute", "executemany", "pragma", "close", "backup", "changes")
    return Page(f"https://rogerbinns.github.io/apsw/{page}.html", f"{page.capitalize()} - APSW documentation",
                many(r, lambda q: f"{page.capitalize()}.{r.choice(calls)} (line {r.randint(1, 3000)})", 10, 20),
                page)


# -- work tools ----------------------------------------------------------------------------------------
def _jira_issue(r):
    key, title = f"NW-{r.randint(100, 2999)}", issue_title(r)
    return Page(f"https://northwind.atlassian.net/browse/{key}", f"[{key}] {title} - Jira",
                tuple(f"NW-{r.randint(100, 2999)} {t}" for t in many(r, issue_title, 5, 12)), title)


def _jira_board(r):
    return Page(f"https://northwind.atlassian.net/jira/software/projects/NW/boards/{r.randint(1, 9)}",
                "NW board - Agile Board - Jira",
                tuple(f"NW-{r.randint(100, 2999)} {t}" for t in many(r, issue_title, 25, 40)), "NW board")


def _slack_line(r):
    return f"{person(r)}: {r.choice(W.SLACK_PHRASES)} ({r.randint(8, 18)}:{r.randint(0, 59):02d})"


def _slack_web(r):
    channel = r.choice(W.CHANNELS)
    return Page(f"https://app.slack.com/client/T0{hex_id(r, 8).upper()}/C0{hex_id(r, 8).upper()}",
                f"{channel} (Channel) - Northwind - Slack", many(r, _slack_line, 8, 15), channel)


def _notion(r):
    t = (f"{r.choice(W.TOPICS).capitalize()} — {r.choice(W.FIRST_NAMES)}'s "
         f"{_pick(r, 'notes', 'draft', 'checklist', 'log')}")
    return Page(f"https://www.notion.so/northwind/{slug(t)}-{hex_id(r, 32)}", t,
                many(r, lambda q: f"{r.choice(W.TOPICS).capitalize()} / {r.choice(W.OBJECTS)}", 6, 16), t)


def _figma(r):
    t = (f"{_pick(r, 'Onboarding', 'Dashboard', 'Settings', 'Billing', 'Mobile app', 'Marketing site')} "
         f"{_pick(r, 'v2', 'redesign', 'explorations', 'handoff')}")
    return Page(f"https://www.figma.com/design/{ident(r, 22)}/{slug(t)}", f"{t} – Figma",
                many(r, lambda q: f"Frame {r.randint(1, 3000)}", 8, 20), t)


def _localhost(r):
    view = r.choice(("dashboard", "routines", "programs", "runs", "settings"))
    return Page(f"http://localhost:8000/{view}", f"Phantom dev - {view}",
                many(r, lambda q: f"{view} #{r.randint(1, 5000)}", 6, 20), view)


def _sentry(r):
    error = _pick(r, "TypeError", "KeyError", "TimeoutError", "IntegrityError", "ValueError")
    t = f"{error}: {r.choice(W.OBJECTS)} in {r.choice(W.REPOS)}"
    frames = many(r, lambda q: f"{r.choice(W.REPOS)}.py in {_pick(r, 'handle', 'run', 'parse', 'commit')} "
                               f"line {r.randint(1, 2000)}", 5, 15)
    return Page(f"https://northwind.sentry.io/issues/{r.randint(4000000000, 4999999999)}/", f"{t} — Sentry",
                frames, t)


def _grafana(r):
    d = r.choice(("API latency", "Queue depth", "Billing jobs", "Node exporter", "Postgres"))
    panels = many(r, lambda q: f"{d} panel {r.randint(1, 30)} · {r.choice(W.REPOS)} p{r.randint(50, 99)}", 6, 14)
    return Page(f"https://grafana.northwind.io/d/{ident(r, 9)}/{slug(d)}?orgId=1", f"{d} - Dashboards - Grafana",
                panels, d)


def _chatgpt(r):
    uuid = f"{hex_id(r, 8)}-{hex_id(r, 4)}-{hex_id(r, 4)}-{hex_id(r, 4)}-{hex_id(r, 12)}"
    chats = many(r, lambda q: f"{r.choice(W.SEARCH_TERMS).capitalize()} ({r.choice(W.FIRST_NAMES)}, "
                              f"{r.randint(1, 28)} Mar)", 8, 20)
    return Page(f"https://chatgpt.com/c/{uuid}", "ChatGPT", chats)


# -- social, papers, packages, shopping, news ------------------------------------------------------------
def _linkedin(r):
    if r.random() < 0.4:
        return Page("https://www.linkedin.com/feed/", "Feed | LinkedIn",
                    many(r, lambda q: f"{person(r)} · {r.choice(W.TOPICS)} ({r.randint(2, 900)} reactions)",
                         10, 18), "Feed", distinct=False)
    p = person(r)
    jobs = many(r, lambda q: f"{r.choice(W.ORGS).capitalize()} · "
                             f"{_pick(r, 'Engineer', 'Manager', 'Designer', 'Analyst')} · {r.randint(2008, 2026)}",
                4, 10)
    return Page(f"https://www.linkedin.com/in/{slug(p)}-{hex_id(r, 6)}/", f"{p} | LinkedIn", jobs, p)


def _reddit(r):
    sub = r.choice(("python", "linux", "berlin", "programming", "sqlite", "gnome", "espresso",
                    "MechanicalKeyboards"))
    t = f"{issue_title(r)}?"
    return Page(f"https://www.reddit.com/r/{sub}/comments/{hex_id(r, 6)}/{slug(t)}/", f"{t} : r/{sub}",
                many(r, lambda q: f"{handle(r)} · {r.randint(1, 23)}h ago", 10, 25), t)


def _hn_title(r):
    return f"{_pick(r, 'Show HN: ', 'Ask HN: ', '')}{issue_title(r)}"


def _hn(r):
    if r.random() < 0.5:
        return Page("https://news.ycombinator.com/", "Hacker News",
                    many(r, lambda q: f"{_hn_title(r)} ({r.randint(2, 900)} points)", 25, 30), distinct=False)
    t = f"{_hn_title(r)} ({_pick(r, '2026', 'blog', 'pdf', 'video')})"
    return Page(f"https://news.ycombinator.com/item?id={r.randint(43000000, 45999999)}", f"{t} | Hacker News",
                many(r, lambda q: f"{handle(r)} {r.randint(1, 59)} minutes ago", 15, 30), t)


def _arxiv(r):
    number = f"26{r.randint(1, 5):02d}.{r.randint(1000, 29999):05d}"
    t = f"{_pick(r, 'On', 'Towards', 'Learning', 'Measuring', 'Scaling')} {r.choice(W.PAPER_TOPICS)}"
    cited = many(r, lambda q: f"[{r.randint(1, 60)}] {person(r)} et al., {r.randint(2015, 2026)}", 6, 20)
    return Page(f"https://arxiv.org/abs/{number}", f"[{number}] {t}", many(r, person, 3, 8) + cited, t)


def _pypi(r):
    pkg = r.choice(("apsw", "orjson", "rapidfuzz", "pynput", "mss", "pillow", "dbus-fast", "mcp", "numpy",
                    "pytest", "hypothesis", "python-xlib", "sentence-transformers", "httpx", "rich"))
    return Page(f"https://pypi.org/project/{pkg}/", f"{pkg} · PyPI",
                many(r, lambda q: f"{pkg} {r.randint(0, 9)}.{r.randint(0, 40)}.{r.randint(0, 9)}", 5, 15), pkg)


def _npm(r):
    pkg = r.choice(("react", "vite", "typescript", "eslint", "zod", "date-fns", "express", "prettier",
                    "esbuild"))
    return Page(f"https://www.npmjs.com/package/{pkg}", f"{pkg} - npm",
                many(r, lambda q: f"{pkg}@{r.randint(1, 20)}.{r.randint(0, 20)}.{r.randint(0, 9)}", 4, 10), pkg)


def _docker(r):
    img = r.choice(("python", "postgres", "redis", "nginx", "debian", "grafana/grafana", "node"))
    tags = many(r, lambda q: f"{img}:{r.randint(1, 20)}.{r.randint(0, 9)}-{_pick(r, 'slim', 'alpine', 'bookworm')}",
                8, 16)
    return Page(f"https://hub.docker.com/_/{img}", f"{img} - Official Image | Docker Hub", tags, img)


def _hf(r):
    model = r.choice(("sentence-transformers/all-MiniLM-L6-v2", "BAAI/bge-small-en-v1.5", "intfloat/e5-small-v2"))
    files = many(r, lambda q: f"{_pick(r, 'config.json', 'model.safetensors', 'README.md', 'tokenizer.json')} "
                              f"({r.randint(1, 999)} kB, rev {hex_id(r, 7)})", 5, 12)
    return Page(f"https://huggingface.co/{model}", f"{model} · Hugging Face", files, model)


def _amazon(r):
    product = r.choice(W.PRODUCTS)
    title = f"Amazon.de: {product.title()} {_pick(r, 'Black', 'Grey', '2-pack', 'Pro')} {ident(r, 5).upper()}"
    return Page(f"https://www.amazon.de/dp/B0{ident(r, 8).upper()}", title,
                many(r, lambda q: f"{r.choice(W.PRODUCTS).title()} ({r.randint(10, 300)} €)", 10, 20), product)


def _heise(r):
    t = (f"{r.choice(W.VIDEO_TOPICS)}: {r.choice(W.OBJECTS)} – "
         f"{_pick(r, 'Was sich ändert', 'Ein Überblick', 'Test', 'Kommentar')}")
    return Page(f"https://www.heise.de/news/{slug(t)}-{r.randint(9000000, 9999999)}.html", f"{t} | heise online",
                many(r, lambda q: f"{r.choice(W.VIDEO_TOPICS)} – {_pick(r, 'Update', 'Analyse', 'Test')} "
                                  f"{r.randint(1, 99)}", 12, 25), t)


def _bahn(r):
    dest = r.choice(("Hamburg Hbf", "München Hbf", "Leipzig Hbf", "Dresden Hbf", "Köln Hbf"))
    trains = many(r, lambda q: f"ICE {r.randint(100, 1999)} {r.randint(6, 20)}:{r.randint(0, 5)}{r.randint(0, 9)}",
                  6, 12)
    return Page(f"https://www.bahn.de/buchung/fahrplan/suche#so=Berlin%20Hbf&zo={dest.replace(' ', '%20')}",
                "DB Fahrplan & Buchung", trains, dest)


def _plain(make: PageMaker) -> PageMaker:
    """Pages whose titles come from a small set (a product page, a docs
    page): clicking their tab is a common target, not unique content."""
    def made(r: random.Random) -> Page:
        return replace(make(r), distinct=False)
    made.__name__ = make.__name__
    return made


def _site(key: str, name: str, weight: float, nav: tuple[str, ...], buttons: tuple[str, ...],
          search: str | None, *pages: PageMaker) -> Site:
    return Site(key, name, weight, nav, buttons, search, pages)


SITES: tuple[Site, ...] = (
    _site("github.com", "GitHub", 14,
          ("Code", "Issues", "Pull requests", "Actions", "Projects", "Wiki", "Security", "Insights"),
          ("Star", "Fork", "Watch", "Notifications"), "Search or jump to…",
          _gh_repo, _gh_pr, _gh_pr, _gh_issue, _plain(_gh_list), _gh_actions),
    _site("google.com", "Google Search", 9, ("All", "Images", "News", "Videos", "Maps", "Shopping"),
          ("Google apps", "Settings"), "Search", _google_search),
    _site("docs.google.com", "Google Docs", 5,
          ("File", "Edit", "View", "Insert", "Format", "Tools", "Extensions", "Help"),
          ("Share", "Comment history", "Show all comments"), None, _gdocs),
    _site("mail.google.com", "Gmail", 4, ("Inbox", "Starred", "Snoozed", "Sent", "Drafts", "More"),
          ("Compose", "Refresh", "Archive", "Mark as read"), "Search mail", _plain(_gmail)),
    _site("calendar.google.com", "Google Calendar", 3, ("Today", "Day", "Week", "Month"),
          ("Create", "Previous week", "Next week"), "Search", _plain(_gcal)),
    _site("drive.google.com", "Google Drive", 2, ("My Drive", "Shared with me", "Recent", "Starred", "Trash"),
          ("New", "Grid layout"), "Search in Drive", _plain(_gdrive)),
    _site("youtube.com", "YouTube", 3, ("Home", "Shorts", "Subscriptions", "Library"),
          ("Like", "Share", "Save", "Subscribe"), "Search", _plain(_youtube)),
    _site("stackoverflow.com", "Stack Overflow", 7, ("Questions", "Tags", "Users", "Companies"),
          ("Up vote", "Down vote", "Bookmark", "Share"), "Search…", _so),
    _site("wikipedia.org", "Wikipedia", 4,
          ("Main page", "Contents", "Current events", "Random article", "Talk", "Read", "View history"),
          ("Languages", "Tools"), "Search Wikipedia", _plain(_wiki)),
    _site("northwind.atlassian.net", "Jira", 8,
          ("Your work", "Projects", "Filters", "Dashboards", "Teams", "Board", "Backlog"),
          ("Create", "Assign to me", "Watch", "More actions"), "Search",
          _jira_issue, _jira_issue, _plain(_jira_board)),
    _site("slack.com", "Slack (web)", 1, ("Home", "DMs", "Activity", "Later"), ("New message",),
          "Search Northwind", _plain(_slack_web)),
    _site("linkedin.com", "LinkedIn", 2, ("Home", "My Network", "Jobs", "Messaging", "Notifications"),
          ("Connect", "Message", "Follow"), "Search", _linkedin),
    _site("arxiv.org", "arXiv", 2, ("Help", "Advanced Search", "Abstract", "Cite as"),
          ("Download PDF", "Bookmark"), "Search...", _arxiv),
    _site("pypi.org", "PyPI", 3,
          ("Help", "Sponsors", "Log in", "Register", "Project description", "Release history", "Download files"),
          ("Copy PIP instructions",), "Search projects", _plain(_pypi)),
    _site("npmjs.com", "npm", 1,
          ("Pro", "Teams", "Pricing", "Documentation", "Readme", "Code", "Dependencies", "Versions"),
          ("Copy",), "Search packages", _plain(_npm)),
    _site("amazon.de", "Amazon", 1, ("Alle", "Angebote", "Bestseller", "Kundenservice", "Warenkorb"),
          ("In den Einkaufswagen", "Jetzt kaufen"), "Suche Amazon.de", _amazon),
    _site("reddit.com", "Reddit", 2, ("Home", "Popular", "Explore", "All"), ("Upvote", "Downvote", "Share", "Join"),
          "Search Reddit", _reddit),
    _site("news.ycombinator.com", "Hacker News", 3, ("new", "past", "comments", "ask", "show", "jobs", "submit"),
          ("login",), None, _hn),
    _site("notion.so", "Notion", 3, ("Search", "Home", "Inbox", "Settings", "Templates", "Trash"),
          ("Share", "Add comment", "Favorite"), None, _notion),
    _site("figma.com", "Figma", 2, ("Design", "Prototype", "Layers", "Assets"), ("Share", "Present", "Zoom to fit"),
          None, _plain(_figma)),
    _site("docs.python.org", "Python docs", 4, ("Index", "Modules", "Next", "Previous", "Library Reference"),
          ("Theme",), "Quick search", _plain(_pydocs)),
    _site("developer.mozilla.org", "MDN", 1, ("References", "Guides", "Plus", "Curriculum", "Blog"),
          ("Theme", "Language"), "Search", _plain(_mdn)),
    _site("rogerbinns.github.io", "APSW docs", 2, ("Index", "Next", "Previous", "Module Index"), (), "Search docs",
          _plain(_apsw)),
    _site("localhost:8000", "dev server", 3, ("Dashboard", "Routines", "Programs", "Runs", "Settings"),
          ("Refresh data", "Export JSON"), "Filter", _plain(_localhost)),
    _site("heise.de", "heise online", 2, ("News", "Tests", "Ratgeber", "Security", "Developer"),
          ("Kommentieren", "Teilen"), "Suche", _heise),
    _site("bahn.de", "Deutsche Bahn", 1, ("Reiseauskunft", "Angebote", "Meine Reisen"), ("Suchen", "Zurück", "Weiter"),
          "Von", _plain(_bahn)),
    _site("chatgpt.com", "ChatGPT", 2, ("New chat", "Search chats", "Library"), ("Share", "Copy", "Regenerate"),
          "Ask anything", _plain(_chatgpt)),
    _site("sentry.io", "Sentry", 2, ("Issues", "Projects", "Explore", "Dashboards", "Releases"),
          ("Resolve", "Archive", "Assign"), "Search events", _sentry),
    _site("northwind.io", "Grafana", 2, ("Home", "Dashboards", "Explore", "Alerting"),
          ("Refresh dashboard", "Time range", "Share dashboard"), "Search", _plain(_grafana)),
    _site("docker.com", "Docker Hub", 1, ("Explore", "Repositories", "Organizations", "Tags", "Overview"),
          ("Copy",), "Search Docker Hub", _plain(_docker)),
    _site("huggingface.co", "Hugging Face", 1, ("Models", "Datasets", "Spaces", "Docs", "Files and versions"),
          ("Like", "Use this model"), "Search models, datasets, users...", _plain(_hf)),
)

SITE_BY_KEY = {site.key: site for site in SITES}
SITE_KEYS = tuple(site.key for site in SITES)
SITE_WEIGHTS = tuple(site.weight for site in SITES)


def random_site(rng: random.Random) -> str:
    """A site key by the sites' weights (through `random.choices`, as always)."""
    return rng.choices(SITE_KEYS, weights=SITE_WEIGHTS, k=1)[0]
