"""Page makers for the synthetic browser: each draws one page of a site —
its URL, its title and the content links on it — from the word pools
(words.py) and the name generators (world.py). Which makers a site uses,
and how often the user goes there, is the site table's business
(sites.py)."""

from __future__ import annotations

import random

from . import words as W
from .world import Page, file_name, handle, hex_id, ident, issue_title, many, person, repo, slug, subject


def _pick(r: random.Random, *options: str) -> str:
    return r.choice(options)


# -- code -------------------------------------------------------------------------------------------
def _commit(r: random.Random) -> str:
    return f"{issue_title(r)} ({hex_id(r, 7)})"


def gh_repo(r: random.Random) -> Page:
    name = repo(r)
    return Page(f"https://github.com/{name}",
                f"GitHub - {name}: {r.choice(W.OBJECTS).capitalize()} service",
                many(r, file_name, 18, 30) + many(r, _commit, 6, 12), name)


def gh_pr(r: random.Random) -> Page:
    name, number, title = repo(r), r.randint(10, 4999), issue_title(r)
    return Page(f"https://github.com/{name}/pull/{number}",
                f"{title} by {handle(r)} · Pull Request #{number} · {name}",
                many(r, _commit, 3, 12) + many(r, file_name, 4, 14), title)


def gh_issue(r: random.Random) -> Page:
    name, number, title = repo(r), r.randint(10, 4999), issue_title(r)
    return Page(f"https://github.com/{name}/issues/{number}", f"{title} · Issue #{number} · {name}",
                many(r, person, 4, 12) + many(r, issue_title, 3, 8), title)


def gh_list(r: random.Random) -> Page:
    name, kind = repo(r), r.choice(("pulls", "issues"))
    label = "Pull requests" if kind == "pulls" else "Issues"
    items = tuple(f"{t} #{r.randint(10, 4999)}" for t in many(r, issue_title, 20, 35))
    return Page(f"https://github.com/{name}/{kind}", f"{label} · {name}", items, label)


def _gh_job(r: random.Random) -> str:
    return (f"{_pick(r, 'test', 'lint', 'build', 'deploy')} "
            f"({_pick(r, '3.11', '3.12', 'ubuntu-latest', 'arm64')}) #{r.randint(1, 9999)}")


def gh_actions(r: random.Random) -> Page:
    name = repo(r)
    return Page(f"https://github.com/{name}/actions/runs/{r.randint(1000000, 9999999)}",
                f"{issue_title(r)} · {name}@{hex_id(r, 7)}", many(r, _gh_job, 4, 10))


# -- Google ------------------------------------------------------------------------------------------
def _result(r: random.Random) -> str:
    source = _pick(r, "Stack Overflow", "Wikipedia", "GitHub", "Reddit", "Medium", "docs.python.org")
    return f"{r.choice(W.WIKI_TOPICS + W.SEARCH_TERMS)} - {source} ({r.randint(2, 999)})"


def google_search(r: random.Random) -> Page:
    q = f"{r.choice(W.SEARCH_TERMS)} {r.choice(W.SEARCH_EXTRA)}"
    return Page(f"https://www.google.com/search?q={q.replace(' ', '+')}", f"{q} - Google Search",
                many(r, _result, 8, 12), q)


def gdocs(r: random.Random) -> Page:
    name = f"{r.choice(W.TOPICS).capitalize()} {_pick(r, 'notes', 'draft', 'plan', 'review', 'summary')} " \
           f"{r.randint(2, 99)}"
    if r.random() < 0.5:
        return Page(f"https://docs.google.com/document/d/{ident(r, 44)}/edit", f"{name} - Google Docs",
                    many(r, lambda q: f"{r.choice(W.TOPICS).capitalize()} §{r.randint(1, 400)}", 6, 14), name)
    return Page(f"https://docs.google.com/spreadsheets/d/{ident(r, 44)}/edit#gid={r.randint(0, 99999)}",
                f"{name} - Google Sheets",
                many(r, lambda q: f"{r.choice(W.TOPICS).capitalize()} row {r.randint(2, 4000)}", 4, 12), name)


def gmail(r: random.Random) -> Page:
    return Page(f"https://mail.google.com/mail/u/0/#{_pick(r, 'inbox', 'inbox', 'sent', 'starred')}",
                f"Inbox ({r.randint(0, 40)}) - alex.brandt.private@gmail.com - Gmail",
                many(r, subject, 25, 45), "Inbox")


def _event(r: random.Random) -> str:
    return (f"{r.choice(W.TOPICS).capitalize()}, {_pick(r, 'Mon', 'Tue', 'Wed', 'Thu', 'Fri')} "
            f"{r.randint(8, 17)}:{_pick(r, '00', '15', '30', '45')} ({r.choice(W.FIRST_NAMES)})")


def gcal(r: random.Random) -> Page:
    month, day = r.randint(3, 5), r.randint(1, 28)
    return Page(f"https://calendar.google.com/calendar/u/0/r/week/2026/{month}/{day}",
                f"Google Calendar - Week of {('March', 'April', 'May')[month - 3]} {day}, 2026",
                many(r, _event, 8, 20))


def gdrive(r: random.Random) -> Page:
    return Page(f"https://drive.google.com/drive/folders/{ident(r, 33)}",
                f"{r.choice(W.TOPICS).capitalize()} - Google Drive", many(r, file_name, 15, 35))


# -- video, Q&A, reference ---------------------------------------------------------------------------
def youtube(r: random.Random) -> Page:
    title = f"{r.choice(W.VIDEO_TOPICS)}{_pick(r, '', ' (2026)', ' - full talk', ' | part 2', ' explained')}"
    return Page(f"https://www.youtube.com/watch?v={ident(r, 11)}", f"{title} - YouTube",
                many(r, lambda q: f"{r.choice(W.VIDEO_TOPICS)} #{r.randint(1, 300)}", 12, 20), title)


def so(r: random.Random) -> Page:
    language = _pick(r, "Python", "SQLite", "bash", "JavaScript", "Rust")
    q = f"How to {r.choice(W.VERBS).lower()} {r.choice(W.OBJECTS)} in {language}"
    related = many(r, lambda q2: f"How to {r.choice(W.SEARCH_TERMS)}? ({r.randint(0, 400)} votes)", 10, 16)
    return Page(f"https://stackoverflow.com/questions/{r.randint(10000000, 79999999)}/{slug(q)}",
                f"{q}? - Stack Overflow", related, q)


def _wiki_link(r: random.Random) -> str:
    if r.random() < 0.5:
        return f"{r.choice(W.WIKI_TOPICS)} ({r.choice(W.SEARCH_EXTRA)})"
    return f"[{r.randint(1, 400)}] {r.choice(W.LAST_NAMES)} {r.randint(1950, 2025)}"


def wiki(r: random.Random) -> Page:
    t = r.choice(W.WIKI_TOPICS)
    return Page(f"https://en.wikipedia.org/wiki/{t.replace(' ', '_')}", f"{t} - Wikipedia",
                many(r, _wiki_link, 25, 40), t)


def pydocs(r: random.Random) -> Page:
    mod = r.choice(("sqlite3", "zoneinfo", "asyncio", "dataclasses", "argparse", "itertools", "functools",
                    "random", "hashlib", "bisect", "pathlib", "subprocess", "typing", "json"))
    names = ("open", "run", "Path", "field", "cache", "choice", "gather", "sha256", "chain", "replace")
    return Page(f"https://docs.python.org/3/library/{mod}.html", f"{mod} — Python 3.12 documentation",
                many(r, lambda q: f"{mod}.{r.choice(names)}() (line {r.randint(1, 900)})", 10, 25), mod)


def mdn(r: random.Random) -> Page:
    prop = r.choice(("grid-template-columns", "flex-basis", "position", "Array.prototype.map", "fetch()",
                     "Promise.all()", "<details>", "aria-label", "IntersectionObserver"))
    parts = ("Syntax", "Examples", "Specifications", "Browser compatibility", "See also", "Values", "Description")
    return Page(f"https://developer.mozilla.org/en-US/docs/Web/{slug(prop)}", f"{prop} - MDN Web Docs",
                many(r, lambda q: f"{r.choice(parts)} ({r.randint(1, 999)})", 8, 14), prop)


def apsw(r: random.Random) -> Page:
    page = r.choice(("cursor", "connection", "execution", "pysqlite", "tips", "example", "vfs", "exceptions"))
    calls = ("execute", "executemany", "pragma", "close", "backup", "changes")
    return Page(f"https://rogerbinns.github.io/apsw/{page}.html", f"{page.capitalize()} - APSW documentation",
                many(r, lambda q: f"{page.capitalize()}.{r.choice(calls)} (line {r.randint(1, 3000)})", 10, 20),
                page)


# -- work tools ----------------------------------------------------------------------------------------
def jira_issue(r: random.Random) -> Page:
    key, title = f"NW-{r.randint(100, 2999)}", issue_title(r)
    return Page(f"https://northwind.atlassian.net/browse/{key}", f"[{key}] {title} - Jira",
                tuple(f"NW-{r.randint(100, 2999)} {t}" for t in many(r, issue_title, 5, 12)), title)


def jira_board(r: random.Random) -> Page:
    return Page(f"https://northwind.atlassian.net/jira/software/projects/NW/boards/{r.randint(1, 9)}",
                "NW board - Agile Board - Jira",
                tuple(f"NW-{r.randint(100, 2999)} {t}" for t in many(r, issue_title, 25, 40)), "NW board")


def _slack_line(r: random.Random) -> str:
    return f"{person(r)}: {r.choice(W.SLACK_PHRASES)} ({r.randint(8, 18)}:{r.randint(0, 59):02d})"


def slack_web(r: random.Random) -> Page:
    channel = r.choice(W.CHANNELS)
    return Page(f"https://app.slack.com/client/T0{hex_id(r, 8).upper()}/C0{hex_id(r, 8).upper()}",
                f"{channel} (Channel) - Northwind - Slack", many(r, _slack_line, 8, 15), channel)


def notion(r: random.Random) -> Page:
    t = (f"{r.choice(W.TOPICS).capitalize()} — {r.choice(W.FIRST_NAMES)}'s "
         f"{_pick(r, 'notes', 'draft', 'checklist', 'log')}")
    return Page(f"https://www.notion.so/northwind/{slug(t)}-{hex_id(r, 32)}", t,
                many(r, lambda q: f"{r.choice(W.TOPICS).capitalize()} / {r.choice(W.OBJECTS)}", 6, 16), t)


def figma(r: random.Random) -> Page:
    t = (f"{_pick(r, 'Onboarding', 'Dashboard', 'Settings', 'Billing', 'Mobile app', 'Marketing site')} "
         f"{_pick(r, 'v2', 'redesign', 'explorations', 'handoff')}")
    return Page(f"https://www.figma.com/design/{ident(r, 22)}/{slug(t)}", f"{t} – Figma",
                many(r, lambda q: f"Frame {r.randint(1, 3000)}", 8, 20), t)


def localhost(r: random.Random) -> Page:
    view = r.choice(("dashboard", "routines", "programs", "runs", "settings"))
    return Page(f"http://localhost:8000/{view}", f"Phantom dev - {view}",
                many(r, lambda q: f"{view} #{r.randint(1, 5000)}", 6, 20), view)


def sentry(r: random.Random) -> Page:
    error = _pick(r, "TypeError", "KeyError", "TimeoutError", "IntegrityError", "ValueError")
    t = f"{error}: {r.choice(W.OBJECTS)} in {r.choice(W.REPOS)}"
    frames = many(r, lambda q: f"{r.choice(W.REPOS)}.py in {_pick(r, 'handle', 'run', 'parse', 'commit')} "
                               f"line {r.randint(1, 2000)}", 5, 15)
    return Page(f"https://northwind.sentry.io/issues/{r.randint(4000000000, 4999999999)}/", f"{t} — Sentry",
                frames, t)


def grafana(r: random.Random) -> Page:
    d = r.choice(("API latency", "Queue depth", "Billing jobs", "Node exporter", "Postgres"))
    panels = many(r, lambda q: f"{d} panel {r.randint(1, 30)} · {r.choice(W.REPOS)} p{r.randint(50, 99)}", 6, 14)
    return Page(f"https://grafana.northwind.io/d/{ident(r, 9)}/{slug(d)}?orgId=1", f"{d} - Dashboards - Grafana",
                panels, d)


def chatgpt(r: random.Random) -> Page:
    uuid = f"{hex_id(r, 8)}-{hex_id(r, 4)}-{hex_id(r, 4)}-{hex_id(r, 4)}-{hex_id(r, 12)}"
    chats = many(r, lambda q: f"{r.choice(W.SEARCH_TERMS).capitalize()} ({r.choice(W.FIRST_NAMES)}, "
                              f"{r.randint(1, 28)} Mar)", 8, 20)
    return Page(f"https://chatgpt.com/c/{uuid}", "ChatGPT", chats)


# -- social, papers, packages, shopping, news ------------------------------------------------------------
def linkedin(r: random.Random) -> Page:
    if r.random() < 0.4:
        return Page("https://www.linkedin.com/feed/", "Feed | LinkedIn",
                    many(r, lambda q: f"{person(r)} · {r.choice(W.TOPICS)} ({r.randint(2, 900)} reactions)",
                         10, 18), "Feed", distinct=False)
    p = person(r)
    jobs = many(r, lambda q: f"{r.choice(W.ORGS).capitalize()} · "
                             f"{_pick(r, 'Engineer', 'Manager', 'Designer', 'Analyst')} · {r.randint(2008, 2026)}",
                4, 10)
    return Page(f"https://www.linkedin.com/in/{slug(p)}-{hex_id(r, 6)}/", f"{p} | LinkedIn", jobs, p)


def reddit(r: random.Random) -> Page:
    sub = r.choice(("python", "linux", "berlin", "programming", "sqlite", "gnome", "espresso",
                    "MechanicalKeyboards"))
    t = f"{issue_title(r)}?"
    return Page(f"https://www.reddit.com/r/{sub}/comments/{hex_id(r, 6)}/{slug(t)}/", f"{t} : r/{sub}",
                many(r, lambda q: f"{handle(r)} · {r.randint(1, 23)}h ago", 10, 25), t)


def _hn_title(r: random.Random) -> str:
    return f"{_pick(r, 'Show HN: ', 'Ask HN: ', '')}{issue_title(r)}"


def hn(r: random.Random) -> Page:
    if r.random() < 0.5:
        return Page("https://news.ycombinator.com/", "Hacker News",
                    many(r, lambda q: f"{_hn_title(r)} ({r.randint(2, 900)} points)", 25, 30), distinct=False)
    t = f"{_hn_title(r)} ({_pick(r, '2026', 'blog', 'pdf', 'video')})"
    return Page(f"https://news.ycombinator.com/item?id={r.randint(43000000, 45999999)}", f"{t} | Hacker News",
                many(r, lambda q: f"{handle(r)} {r.randint(1, 59)} minutes ago", 15, 30), t)


def arxiv(r: random.Random) -> Page:
    number = f"26{r.randint(1, 5):02d}.{r.randint(1000, 29999):05d}"
    t = f"{_pick(r, 'On', 'Towards', 'Learning', 'Measuring', 'Scaling')} {r.choice(W.PAPER_TOPICS)}"
    cited = many(r, lambda q: f"[{r.randint(1, 60)}] {person(r)} et al., {r.randint(2015, 2026)}", 6, 20)
    return Page(f"https://arxiv.org/abs/{number}", f"[{number}] {t}", many(r, person, 3, 8) + cited, t)


def pypi(r: random.Random) -> Page:
    pkg = r.choice(("apsw", "orjson", "rapidfuzz", "pynput", "mss", "pillow", "dbus-fast", "mcp", "numpy",
                    "pytest", "hypothesis", "python-xlib", "sentence-transformers", "httpx", "rich"))
    return Page(f"https://pypi.org/project/{pkg}/", f"{pkg} · PyPI",
                many(r, lambda q: f"{pkg} {r.randint(0, 9)}.{r.randint(0, 40)}.{r.randint(0, 9)}", 5, 15), pkg)


def npm(r: random.Random) -> Page:
    pkg = r.choice(("react", "vite", "typescript", "eslint", "zod", "date-fns", "express", "prettier",
                    "esbuild"))
    return Page(f"https://www.npmjs.com/package/{pkg}", f"{pkg} - npm",
                many(r, lambda q: f"{pkg}@{r.randint(1, 20)}.{r.randint(0, 20)}.{r.randint(0, 9)}", 4, 10), pkg)


def docker(r: random.Random) -> Page:
    img = r.choice(("python", "postgres", "redis", "nginx", "debian", "grafana/grafana", "node"))
    tags = many(r, lambda q: f"{img}:{r.randint(1, 20)}.{r.randint(0, 9)}-{_pick(r, 'slim', 'alpine', 'bookworm')}",
                8, 16)
    return Page(f"https://hub.docker.com/_/{img}", f"{img} - Official Image | Docker Hub", tags, img)


def hf(r: random.Random) -> Page:
    model = r.choice(("sentence-transformers/all-MiniLM-L6-v2", "BAAI/bge-small-en-v1.5", "intfloat/e5-small-v2"))
    files = many(r, lambda q: f"{_pick(r, 'config.json', 'model.safetensors', 'README.md', 'tokenizer.json')} "
                              f"({r.randint(1, 999)} kB, rev {hex_id(r, 7)})", 5, 12)
    return Page(f"https://huggingface.co/{model}", f"{model} · Hugging Face", files, model)


def amazon(r: random.Random) -> Page:
    product = r.choice(W.PRODUCTS)
    title = f"Amazon.de: {product.title()} {_pick(r, 'Black', 'Grey', '2-pack', 'Pro')} {ident(r, 5).upper()}"
    return Page(f"https://www.amazon.de/dp/B0{ident(r, 8).upper()}", title,
                many(r, lambda q: f"{r.choice(W.PRODUCTS).title()} ({r.randint(10, 300)} €)", 10, 20), product)


def heise(r: random.Random) -> Page:
    t = (f"{r.choice(W.VIDEO_TOPICS)}: {r.choice(W.OBJECTS)} – "
         f"{_pick(r, 'Was sich ändert', 'Ein Überblick', 'Test', 'Kommentar')}")
    return Page(f"https://www.heise.de/news/{slug(t)}-{r.randint(9000000, 9999999)}.html", f"{t} | heise online",
                many(r, lambda q: f"{r.choice(W.VIDEO_TOPICS)} – {_pick(r, 'Update', 'Analyse', 'Test')} "
                                  f"{r.randint(1, 99)}", 12, 25), t)


def bahn(r: random.Random) -> Page:
    dest = r.choice(("Hamburg Hbf", "München Hbf", "Leipzig Hbf", "Dresden Hbf", "Köln Hbf"))
    trains = many(r, lambda q: f"ICE {r.randint(100, 1999)} {r.randint(6, 20)}:{r.randint(0, 5)}{r.randint(0, 9)}",
                  6, 12)
    return Page(f"https://www.bahn.de/buchung/fahrplan/suche#so=Berlin%20Hbf&zo={dest.replace(' ', '%20')}",
                "DB Fahrplan & Buchung", trains, dest)
