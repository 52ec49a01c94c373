"""The web sites the synthetic browser visits: ~30 sites across code
hosting, search, Google apps, video, Q&A, reference, tickets, chat, social,
papers, package registries, shopping, news, docs and dev tools. Each has a
site key (what `compiler.pages.site_of` files its URLs under), a weight, its
navigation, and the page makers (pages.py) that draw its pages; a maker
listed twice is drawn twice as often.

A page's `distinct` flag says whether its title comes from a large space
(an id, a number, a generated phrase): only such tabs count as unique
content when clicked (see guard.py)."""

from __future__ import annotations

import random
from dataclasses import replace

from . import pages as P
from .world import Page, PageMaker, Site


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
          P.gh_repo, P.gh_pr, P.gh_pr, P.gh_issue, _plain(P.gh_list), P.gh_actions),
    _site("google.com", "Google Search", 9, ("All", "Images", "News", "Videos", "Maps", "Shopping"),
          ("Google apps", "Settings"), "Search", P.google_search),
    _site("docs.google.com", "Google Docs", 5,
          ("File", "Edit", "View", "Insert", "Format", "Tools", "Extensions", "Help"),
          ("Share", "Comment history", "Show all comments"), None, P.gdocs),
    _site("mail.google.com", "Gmail", 4, ("Inbox", "Starred", "Snoozed", "Sent", "Drafts", "More"),
          ("Compose", "Refresh", "Archive", "Mark as read"), "Search mail", _plain(P.gmail)),
    _site("calendar.google.com", "Google Calendar", 3, ("Today", "Day", "Week", "Month"),
          ("Create", "Previous week", "Next week"), "Search", _plain(P.gcal)),
    _site("drive.google.com", "Google Drive", 2, ("My Drive", "Shared with me", "Recent", "Starred", "Trash"),
          ("New", "Grid layout"), "Search in Drive", _plain(P.gdrive)),
    _site("youtube.com", "YouTube", 3, ("Home", "Shorts", "Subscriptions", "Library"),
          ("Like", "Share", "Save", "Subscribe"), "Search", _plain(P.youtube)),
    _site("stackoverflow.com", "Stack Overflow", 7, ("Questions", "Tags", "Users", "Companies"),
          ("Up vote", "Down vote", "Bookmark", "Share"), "Search…", P.so),
    _site("wikipedia.org", "Wikipedia", 4,
          ("Main page", "Contents", "Current events", "Random article", "Talk", "Read", "View history"),
          ("Languages", "Tools"), "Search Wikipedia", _plain(P.wiki)),
    _site("northwind.atlassian.net", "Jira", 8,
          ("Your work", "Projects", "Filters", "Dashboards", "Teams", "Board", "Backlog"),
          ("Create", "Assign to me", "Watch", "More actions"), "Search",
          P.jira_issue, P.jira_issue, _plain(P.jira_board)),
    _site("slack.com", "Slack (web)", 1, ("Home", "DMs", "Activity", "Later"), ("New message",),
          "Search Northwind", _plain(P.slack_web)),
    _site("linkedin.com", "LinkedIn", 2, ("Home", "My Network", "Jobs", "Messaging", "Notifications"),
          ("Connect", "Message", "Follow"), "Search", P.linkedin),
    _site("arxiv.org", "arXiv", 2, ("Help", "Advanced Search", "Abstract", "Cite as"),
          ("Download PDF", "Bookmark"), "Search...", P.arxiv),
    _site("pypi.org", "PyPI", 3,
          ("Help", "Sponsors", "Log in", "Register", "Project description", "Release history", "Download files"),
          ("Copy PIP instructions",), "Search projects", _plain(P.pypi)),
    _site("npmjs.com", "npm", 1,
          ("Pro", "Teams", "Pricing", "Documentation", "Readme", "Code", "Dependencies", "Versions"),
          ("Copy",), "Search packages", _plain(P.npm)),
    _site("amazon.de", "Amazon", 1, ("Alle", "Angebote", "Bestseller", "Kundenservice", "Warenkorb"),
          ("In den Einkaufswagen", "Jetzt kaufen"), "Suche Amazon.de", P.amazon),
    _site("reddit.com", "Reddit", 2, ("Home", "Popular", "Explore", "All"), ("Upvote", "Downvote", "Share", "Join"),
          "Search Reddit", P.reddit),
    _site("news.ycombinator.com", "Hacker News", 3, ("new", "past", "comments", "ask", "show", "jobs", "submit"),
          ("login",), None, P.hn),
    _site("notion.so", "Notion", 3, ("Search", "Home", "Inbox", "Settings", "Templates", "Trash"),
          ("Share", "Add comment", "Favorite"), None, P.notion),
    _site("figma.com", "Figma", 2, ("Design", "Prototype", "Layers", "Assets"), ("Share", "Present", "Zoom to fit"),
          None, _plain(P.figma)),
    _site("docs.python.org", "Python docs", 4, ("Index", "Modules", "Next", "Previous", "Library Reference"),
          ("Theme",), "Quick search", _plain(P.pydocs)),
    _site("developer.mozilla.org", "MDN", 1, ("References", "Guides", "Plus", "Curriculum", "Blog"),
          ("Theme", "Language"), "Search", _plain(P.mdn)),
    _site("rogerbinns.github.io", "APSW docs", 2, ("Index", "Next", "Previous", "Module Index"), (), "Search docs",
          _plain(P.apsw)),
    _site("localhost:8000", "dev server", 3, ("Dashboard", "Routines", "Programs", "Runs", "Settings"),
          ("Refresh data", "Export JSON"), "Filter", _plain(P.localhost)),
    _site("heise.de", "heise online", 2, ("News", "Tests", "Ratgeber", "Security", "Developer"),
          ("Kommentieren", "Teilen"), "Suche", P.heise),
    _site("bahn.de", "Deutsche Bahn", 1, ("Reiseauskunft", "Angebote", "Meine Reisen"), ("Suchen", "Zurück", "Weiter"),
          "Von", _plain(P.bahn)),
    _site("chatgpt.com", "ChatGPT", 2, ("New chat", "Search chats", "Library"), ("Share", "Copy", "Regenerate"),
          "Ask anything", _plain(P.chatgpt)),
    _site("sentry.io", "Sentry", 2, ("Issues", "Projects", "Explore", "Dashboards", "Releases"),
          ("Resolve", "Archive", "Assign"), "Search events", P.sentry),
    _site("northwind.io", "Grafana", 2, ("Home", "Dashboards", "Explore", "Alerting"),
          ("Refresh dashboard", "Time range", "Share dashboard"), "Search", _plain(P.grafana)),
    _site("docker.com", "Docker Hub", 1, ("Explore", "Repositories", "Organizations", "Tags", "Overview"),
          ("Copy",), "Search Docker Hub", _plain(P.docker)),
    _site("huggingface.co", "Hugging Face", 1, ("Models", "Datasets", "Spaces", "Docs", "Files and versions"),
          ("Like", "Use this model"), "Search models, datasets, users...", _plain(P.hf)),
)

SITE_BY_KEY = {site.key: site for site in SITES}
SITE_KEYS = tuple(site.key for site in SITES)
SITE_WEIGHTS = tuple(site.weight for site in SITES)


def random_site(rng: random.Random) -> str:
    """A site key by the sites' weights (through `random.choices`, as always)."""
    return rng.choices(SITE_KEYS, weights=SITE_WEIGHTS, k=1)[0]
